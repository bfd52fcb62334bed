"""Datetime columns read straight to the wire's ISO text (``2026-01-02T03:04:05.678901Z``, :func:`emdash.dates.iso`).

A list page shows five timestamps an item. Read as usual, each is parsed by the SQLite driver (the column is
declared ``datetime``), made aware by Django's converter and formatted back to text by the presenter: 13% and 6%
of a REST list of 50. SQLite stores them as UTC text already, so a :class:`~emdash.prepared.Prepared` query asked
for ``wire_dates`` selects them as ``CAST(... AS TEXT)`` (an expression has no declared type: the driver leaves
it alone) and :func:`convert` turns the form Django writes (``str()`` of a naive UTC datetime,
``2026-01-02 03:04:05``, with ``.ffffff`` only when the microseconds are not zero, which is also the rule of
``isoformat``) into ours by adding a ``T`` and a ``Z``. Text in any other form (a row written by hand) goes the
old way: the driver's parser, Django's converters, :func:`iso`. Other databases return datetimes, formatted with
:func:`iso`: both give the same bytes (tests/content/test_list_page_costs.py).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from datetime import UTC
from typing import Any

from django.conf import settings
from django.db.models import DateTimeField
from django.utils.dateparse import parse_datetime

from emdash.dates import iso

Converters = dict[int, tuple[list[Any], Any]]  # select index -> (converters, expression), as Django's compiler


class Wire:
    """One column read as wire text: ``text`` (SQLite) values are usually reformatted in place and need
    ``slow`` only in another form; other databases' values always go through ``slow``."""

    __slots__ = ("index", "slow", "text")

    def __init__(self, index: int, text: bool, slow: Callable[[Any], str | None]) -> None:
        self.index, self.text, self.slow = index, text, slow


def _columns(compiler: Any, names: Collection[str]) -> list[int]:
    """Select positions of the model's own datetime columns named ``names``."""
    found = []
    for index, (expression, _, _) in enumerate(compiler.select):
        target = getattr(expression, "target", None)
        if isinstance(target, DateTimeField) and target.attname in names and target.model is compiler.query.model:
            found.append(index)
    return found


def _as_text(sql: str, compiler: Any, positions: list[int]) -> str | None:
    """``sql`` with the select items at ``positions`` cast to text, or None when its select list is not the one
    the compiler reports (then nothing is rewritten)."""
    quote = compiler.connection.ops.quote_name
    items = [f"{s_sql} AS {quote(alias)}" if alias else s_sql for _, (s_sql, _), alias in compiler.select]
    head = "SELECT " + ", ".join(items) + " FROM "
    if not sql.startswith(head):
        return None
    for index in positions:
        items[index] = f"CAST({items[index]} AS TEXT)"
    return "SELECT " + ", ".join(items) + " FROM " + sql[len(head) :]


def _slow(django: list[Any], expression: Any, connection: Any, *, text: bool) -> Callable[[Any], str | None]:
    """The old way for one value: the driver's parse (for text), Django's converters, :func:`iso`."""

    def convert(value: Any) -> str | None:
        if text:
            value = parse_datetime(value)  # what the driver does with a column declared datetime
        if value is None:
            return None
        for step in django:
            value = step(value, expression, connection)
        return iso(value)

    return convert


def apply(
    sql: str, compiler: Any, converters: Converters, names: Collection[str]
) -> tuple[str, Converters, list[Wire]]:
    """The query's SQL, its other columns' converters and the wire columns among ``names``."""
    positions = _columns(compiler, names)
    if not positions:
        return sql, converters, []
    connection = compiler.connection
    stored_utc = connection.vendor == "sqlite" and settings.USE_TZ and connection.timezone == UTC
    cast = _as_text(sql, compiler, positions) if stored_utc else None
    wires = []
    for index in positions:
        django, expression = converters.get(index, ([], compiler.select[index][0]))
        wires.append(Wire(index, cast is not None, _slow(django, expression, connection, text=cast is not None)))
    rest = {index: found for index, found in converters.items() if index not in positions}
    return cast or sql, rest, wires


def convert(rows: list[list[Any]], columns: list[Wire]) -> None:
    """The ``columns`` of ``rows`` as wire text, in place. Written out rather than a call per value: a call
    cost more than the work (five columns, fifty rows a page)."""
    for values in rows:
        for column in columns:
            value = values[column.index]
            if value is None:
                continue
            if column.text:
                size = len(value)
                if (size == 19 or (size == 26 and value[19] == "." and value[20:] != "000000")) and value[10] == " ":
                    values[column.index] = f"{value[:10]}T{value[11:]}Z"
                    continue
            values[column.index] = column.slow(value)
