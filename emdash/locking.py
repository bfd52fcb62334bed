"""Row locks where the database has them."""

from __future__ import annotations

from typing import Any, TypeVar

from django.db import connection
from django.db.models import QuerySet

Q = TypeVar("Q", bound=QuerySet[Any])


def locked(qs: Q, lock: bool = True) -> Q:
    """``qs`` with ``SELECT ... FOR UPDATE`` when ``lock`` and the database supports it (SQLite does not: it
    serialises writers with its database lock instead)."""
    return qs.select_for_update() if lock and connection.features.has_select_for_update else qs
