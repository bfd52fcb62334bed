"""Whole numbers that people type or files carry: plain ASCII digits, within what a database integer holds.

``str.isdigit()`` is true for "²" and "٣" (``int()`` refuses the first, reads the second) and for any length (past
4,300 digits ``int()`` refuses, past 2**63 SQLite cannot bind it), so a number read from a query string, a form, a
path or an import file goes through :func:`plain_int`: a bad one becomes the caller's validation error or 404,
never a 500.
"""

from __future__ import annotations

import re
from typing import Any

DB_INT_MAX = 2**63 - 1  # SQLite's INTEGER and PostgreSQL's bigint
_DIGITS = re.compile(r"[0-9]{1,19}")


def plain_int(text: Any, maximum: int = DB_INT_MAX) -> int | None:
    """``text`` as a non-negative int when it is 1-19 ASCII digits no larger than ``maximum``, else None."""
    if not isinstance(text, str) or not _DIGITS.fullmatch(text):
        return None
    value = int(text)
    return value if value <= maximum else None
