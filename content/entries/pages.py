"""A list's pages: ordered by (column, id), continued after a cursor, compiled once per query and cursor shape.

Building and compiling a list page's query (the credits' three subqueries, the keyset comparison) costs several
times what SQLite spends running it. Every page of a list is the same statement but for the cursor's two values,
so a page is compiled once per collection model, query, length and cursor shape (the first page, one after a
value, one after a NULL) with stand-in values, and later requests put the cursor's values, adapted by their
columns as Django would, where the stand-ins were (a page 50,000 items deep then costs what the first does,
issue 27 goal 5). Pages are read as records with wire-text timestamps (emdash/wire_dates.py).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.db import connections
from django.db.models import F, QuerySet

from content import hooks
from content.entries import rows
from content.entries.entry import EntryRows
from content.models import EntryBase
from content.schema.specs import CollectionSpec
from emdash import cursors, keyset
from emdash.dates import iso, parse_iso
from emdash.prepared import Prepared

DATETIME_ORDERS = frozenset(rows.SYSTEM_DATES)
# Stand-ins for a cursor's values while its page is compiled, found again among the compiled parameters.
_STAND_IN_ID = "\x00cursor-id"
_STAND_IN_TEXT = "\x00cursor-value"
_STAND_IN_TIME = datetime(1901, 2, 3, 4, 5, 6, 789012, tzinfo=UTC)
Position = tuple[Any, str]  # the ordering column's value (parsed) and the id of the last item shown


def _nullable(model: type[EntryBase], column: str) -> bool:
    try:
        return bool(model._meta.get_field(column).null)
    except FieldDoesNotExist:
        return True


def decode(model: type[EntryBase], column: str, cursor: Any, query_key: str) -> Position:
    """The position ``cursor`` continues after; INVALID_CURSOR when it is not one of this query's."""
    position = cursors.decode(cursor, query_key)
    if len(position) != 2 or not isinstance(position[1], str):
        raise cursors.InvalidCursor("Invalid cursor")
    value, last_id = position
    if value is not None and column in DATETIME_ORDERS:
        value = parse_iso(value)
    if value is None and not _nullable(model, column):
        raise cursors.InvalidCursor("Invalid cursor")
    return value, last_id


def ordered(qs: QuerySet[EntryBase], column: str, descending: bool, position: Position | None) -> QuerySet[EntryBase]:
    """Order by (column, id) with NULLs last in both directions, after ``position`` when given."""
    # NULLS LAST only where NULLs can occur: on a NOT NULL column (created_at, updated_at...) it would keep
    # SQLite from walking the (column, id) index and make it sort the whole table for every page.
    nulls_last = _nullable(qs.model, column) or None
    ordering = (
        [F(column).desc(nulls_last=nulls_last), F("id").desc()]
        if descending
        else [F(column).asc(nulls_last=nulls_last), F("id").asc()]
    )
    qs = qs.order_by(*ordering)
    if position is None:
        return qs
    return keyset.after(qs, (column, "id"), position, descending=descending, nullable_first=bool(nulls_last))


def position_of(row: Any, column: str) -> list[Any]:
    value = getattr(row, column)  # a record's timestamps are the wire's text already
    return [iso(value) if isinstance(value, datetime) else value, row.id]


def _adapted(model: type[EntryBase], column: str, value: Any, db: str) -> Any:
    """``value`` as a parameter of ``column``, as the keyset comparison's ``Value`` adapts it."""
    field: Any = model._meta.get_field(column)  # one of the row's own columns
    return field.get_db_prep_value(value, connection=connections[db])


def _slots(prepared: Prepared, model: type[EntryBase], column: str, stand_in: Position) -> list[int] | None:
    """Where the stand-ins' adapted values sit among the parameters (each exactly once), or None."""
    wanted = [_adapted(model, "id", stand_in[1], prepared.db)]
    if stand_in[0] is not None:
        wanted.insert(0, _adapted(model, column, stand_in[0], prepared.db))
    params = list(prepared.params)
    if any(params.count(value) != 1 for value in wanted):
        return None
    return [params.index(value) for value in wanted]


# Compiled pages: (model, query key, length, every field?, cursor shape) -> the query and its cursor's slots.
_pages: dict[tuple[Any, ...], tuple[Prepared, list[int]]] = {}
PAGES_MAX = 512


def page(
    spec: CollectionSpec,
    qs: QuerySet[EntryBase],
    *,
    column: str,
    descending: bool,
    limit: int,
    cursor: Any,
    query_key: str,
    show_draft: bool,
    full: bool,
) -> EntryRows:
    position = None if cursor is None else decode(spec.model, column, cursor, query_key)
    shape = "first" if position is None else "null" if position[0] is None else "value"
    key = (spec.model, query_key, limit, full, shape)
    found = _pages.get(key)
    if found is None:
        if not full:
            qs = qs.defer(*rows.long_columns(spec))
        qs = qs.annotate(**hooks.credits_columns(spec.slug))  # credits in the same statement
        stand_in = None if position is None else (_stand_in(column, position[0]), _STAND_IN_ID)
        prepared = Prepared(ordered(qs, column, descending, stand_in)[: limit + 1], wire_dates=rows.SYSTEM_DATES)
        slots = [] if stand_in is None else _slots(prepared, spec.model, column, stand_in)
        if slots is None:  # the stand-ins were not found: this page is compiled with its own values, not kept
            found = (Prepared(ordered(qs, column, descending, position)[: limit + 1], wire_dates=rows.SYSTEM_DATES), [])
        else:
            if len(_pages) >= PAGES_MAX:
                _pages.clear()
            found = _pages[key] = (prepared, slots)
    prepared, slots = found
    params = list(prepared.params)
    if position is not None and slots:
        values = [position[1]] if position[0] is None else [position[0], position[1]]
        names = ["id"] if position[0] is None else [column, "id"]
        for slot, name, value in zip(slots, names, values, strict=True):
            params[slot] = _adapted(spec.model, name, value, prepared.db)
    items: list[Any] = prepared.records(params)
    more = len(items) > limit
    items = items[:limit]
    drafts = rows.drafts_for(items) if show_draft else {}
    next_cursor = cursors.encode(query_key, position_of(items[-1], column)) if more and items else None
    return EntryRows(spec, items, drafts, next_cursor, show_draft, full)


def _stand_in(column: str, value: Any) -> Any:
    if value is None:
        return None
    return _STAND_IN_TIME if column in DATETIME_ORDERS else _STAND_IN_TEXT
