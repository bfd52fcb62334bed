"""``config.asgi:application`` with every database connection the process opens written to a file, for a test in
another process to count (``EMDASH_TEST_CONNECTIONS_FILE``: one line per connection, "pid thread").

The count is taken where connections are really made (the DB-API ``connect`` of sqlite3 and psycopg, which
psycopg's pool calls too), not at Django's ``connection_created`` signal, which a pool fires on every checkout."""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable
from typing import Any

import psycopg

COUNT_FILE = os.environ["EMDASH_TEST_CONNECTIONS_FILE"]


def _record() -> None:
    with open(COUNT_FILE, "a") as out:
        out.write(f"{os.getpid()} {threading.get_ident()}\n")


def _counted(connect: Callable[..., Any]) -> Callable[..., Any]:
    def counted(*args: Any, **kwargs: Any) -> Any:
        _record()
        return connect(*args, **kwargs)

    return counted


sqlite3.dbapi2.connect = _counted(sqlite3.dbapi2.connect)  # type: ignore[assignment]
_psycopg_connect = psycopg.Connection.connect.__func__  # type: ignore[attr-defined]


def _psycopg_counted(cls: type, *args: Any, **kwargs: Any) -> Any:
    _record()
    return _psycopg_connect(cls, *args, **kwargs)


psycopg.Connection.connect = classmethod(_psycopg_counted)  # type: ignore[assignment,method-assign]
psycopg.connect = psycopg.Connection.connect  # type: ignore[assignment]

from config.asgi import application  # noqa: E402  (after the patches: Django connects through them)

__all__ = ["application"]
