"""Content entry points that survive a schema change under them (SPEC 6.4d).

A request builds its queries from the schema snapshot it read; if a field or collection is added or dropped
before its statement runs, the database answers "no such column" / UndefinedColumn. :func:`schema_retry`
turns that into one retry on the fresh schema, outside the failed transaction (on PostgreSQL a failed
statement aborts it), and a second failure into a clean CONFLICT.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from functools import wraps
from typing import ParamSpec, TypeVar

from django.db import DatabaseError, connection

from content.schema import specs as schema
from emdash.errors import Conflict

log = logging.getLogger("emdash.content")

P = ParamSpec("P")
R = TypeVar("R")

# SQLite's messages; PostgreSQL is told by SQLSTATE (undefined column/table, deadlock with the DDL's locks).
_SQLITE = re.compile(r"no such (column|table)|has no column named")
_PG_CODES = {"42703", "42P01", "40P01"}


class SchemaChanged(Conflict):
    """CONFLICT: the collection's schema changed while the request ran, twice or inside a caller's transaction."""

    def __init__(self) -> None:
        super().__init__("The collection's schema changed during the request; retry")


def is_schema_mismatch(exc: BaseException) -> bool:
    if isinstance(exc, SchemaChanged):
        return True
    if not isinstance(exc, DatabaseError):
        return False
    cause = exc.__cause__
    if getattr(cause, "sqlstate", None) in _PG_CODES or getattr(cause, "pgcode", None) in _PG_CODES:
        return True
    return connection.vendor == "sqlite" and bool(_SQLITE.search(str(exc)))


def schema_retry(fn: Callable[P, R]) -> Callable[P, R]:
    """Run ``fn``; on a schema mismatch refresh the snapshot and run it once more.

    Inside a caller's transaction nothing can be retried here (the transaction may be aborted): the mismatch
    becomes :class:`SchemaChanged` so the outermost decorated call, outside any transaction, retries instead.
    """

    @wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        if connection.in_atomic_block:
            try:
                return fn(*args, **kwargs)
            except DatabaseError as exc:
                if is_schema_mismatch(exc):
                    raise SchemaChanged() from exc
                raise
        try:
            return fn(*args, **kwargs)
        except (DatabaseError, SchemaChanged) as exc:
            if not is_schema_mismatch(exc):
                raise
            log.info("%s: schema changed under the request, retrying once (%s)", fn.__name__, exc)
        schema.invalidate()
        try:
            return fn(*args, **kwargs)
        except (DatabaseError, SchemaChanged) as exc:
            if is_schema_mismatch(exc):
                raise SchemaChanged() from exc
            raise

    return wrapper
