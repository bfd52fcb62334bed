"""Querysets compiled to SQL once per process, then run with fresh parameter values.

Django compiles a queryset on every evaluation; for the read path's hot lookups (an entry by id, its terms)
the compiler cost more than SQLite's own work. A :class:`Prepared` keeps the SQL, the column converters and
the model's attribute list of one queryset shape and runs it through the thread's connection (so query
counting, connection health checks and the debug cursor behave as for any ORM query).

The SQL is kept in Django's "pyformat" style (``%(p0)s``), run with a dict of parameters: for the "format"
style (``%s``) Django's SQLite cursor rewrites the placeholders with a look-behind regex on every execution,
about 25 ns a character (58 us for ``content_get``'s 2,300-character query, more than SQLite's own work);
with names it is one ``%`` formatting. JSON columns are decoded with orjson (Django's ``JSONField`` uses
``json.loads``, several times slower); what orjson refuses (NaN, integers beyond 64 bits) goes to Django's
converter, so the values are the same.
"""

from __future__ import annotations

import functools
import re
from collections import namedtuple
from collections.abc import Collection, Sequence
from typing import Any

import orjson
from django.db import IntegrityError, connections, transaction
from django.db.models import JSONField, Model, QuerySet
from django.db.models.fields.json import KeyTransform
from django.db.models.signals import post_save, pre_save

from emdash import wire_dates as wire

_PLACEHOLDER = re.compile(r"%%|%s")


def named_placeholders(sql: str) -> tuple[str, list[str]]:
    """``sql`` with each ``%s`` as ``%(pN)s`` (a literal ``%%`` stays), and the names in order."""
    names: list[str] = []

    def name(match: re.Match[str]) -> str:
        if match.group() == "%%":
            return "%%"
        names.append(f"p{len(names)}")
        return f"%({names[-1]})s"

    return _PLACEHOLDER.sub(name, sql), names


def _fast_json(convert: Any, expression: Any) -> Any:
    """``convert`` itself, or an orjson decoder standing in for a plain ``JSONField.from_db_value``."""
    field = getattr(convert, "__self__", None)
    plain = getattr(convert, "__func__", None) is JSONField.from_db_value and getattr(field, "decoder", 0) is None
    if not plain or isinstance(expression, KeyTransform):
        return convert

    def decode(value: Any, expression: Any, connection: Any) -> Any:
        if value is None:
            return None
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            return convert(value, expression, connection)

    return decode


@functools.lru_cache(maxsize=256)
def _record_type(names: tuple[str, ...]) -> Any:
    # Making a namedtuple class costs ~50 us: a list page's query built per request (a cursor page) reuses it.
    return namedtuple("Record", names)  # type: ignore[misc]


def read(sql: str, params: dict[str, Any], using: str = "default") -> list[tuple[Any, ...]]:
    """Rows of ``sql`` (pyformat placeholders, ``%(name)s``) run on the driver's own cursor: Django's cursor
    wrapper, its placeholder rewriting and its execute wrappers cost ~8 us a statement, a third of the item
    cache's stamps read (22 -> 14.5 us on SQLite), which every warm call makes. What the wrapper guarantees is
    kept: the connection's health check and (re)connection, refusal inside a broken transaction, Django's
    database errors. While queries are logged (``DEBUG``, ``CaptureQueriesContext``, the test suite's query
    counts) the statement goes through Django's cursor instead, so it is seen and counted like any other."""
    connection = connections[using]
    if connection.queries_logged:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return list(cursor.fetchall())
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    connection.validate_no_broken_transaction()
    with connection.wrap_database_errors:
        if connection.vendor == "sqlite":
            # The driver takes ``:name``: Django's own conversion of the pyformat placeholders, done here.
            cursor = connection.connection.execute(_sqlite_named(sql, tuple(params)), params)
        else:
            cursor = connection.connection.cursor()
            cursor.execute(sql, params)
        try:
            return list(cursor.fetchall())
        finally:
            cursor.close()


@functools.lru_cache(maxsize=256)
def _sqlite_named(sql: str, names: tuple[str, ...]) -> str:
    return sql % {name: f":{name}" for name in names}


class Prepared:
    """``qs`` compiled once. ``rows(params)`` runs it with ``params`` in place of the values it was built
    with (same count, same order) and returns converted tuples; ``objects(params)`` model instances.
    ``wire_dates`` names datetime columns read as the wire's ISO text (emdash/wire_dates.py), for records."""

    def __init__(self, qs: QuerySet[Any], *, wire_dates: Collection[str] = ()) -> None:
        compiler = qs.query.get_compiler(qs.db)
        sql, built_with = compiler.as_sql()
        columns = [column for column, _, _ in compiler.select]
        converters = compiler.get_converters(columns)
        self.wire: list[wire.Wire] = []
        if wire_dates:
            sql, converters, self.wire = wire.apply(sql, compiler, converters, wire_dates)
        self.sql, self.names = named_placeholders(sql)
        self.params = tuple(built_with)  # the values it was built with, for a query reused as it is
        self.arity = len(built_with)
        if len(self.names) != self.arity:
            raise ValueError(f"{len(self.names)} placeholders for {self.arity} parameters: {sql[:200]}")
        self.db = qs.db
        self.model: type[Model] = qs.model
        self.converters = []
        for i, (convs, expr) in converters.items():
            steps = [_fast_json(convert, expr) for convert in convs]
            # Ours keep NULL as None, so a NULL skips the call (credits, covers and the like are often NULL).
            self.converters.append((i, steps, expr, all(step not in convs for step in steps)))
        info = compiler.klass_info
        self.attnames: list[str] = []
        if info is not None and not info.get("related_klass_infos"):
            first, last = info["select_fields"][0], info["select_fields"][-1] + 1
            self.attnames = [column.target.attname for column, _, _ in compiler.select[first:last]]
        self.annotations = list(compiler.annotation_col_map.items())  # set on objects() as attributes
        # Records carry the annotations too (after the model's columns, where the compiler selects them).
        extra = [name for name, _ in sorted(self.annotations, key=lambda pair: pair[1]) if name not in self.attnames]
        named = self.attnames + extra if len(self.attnames) + len(extra) == len(compiler.select) else self.attnames
        self.record: Any = _record_type(tuple(named)) if self.attnames else None

    def rows(self, params: Sequence[Any]) -> list[Sequence[Any]]:
        if len(params) != self.arity:
            raise ValueError(f"expected {self.arity} parameters, got {len(params)}")
        connection = connections[self.db]
        with connection.cursor() as cursor:
            cursor.execute(self.sql, dict(zip(self.names, params, strict=True)))
            found: list[Sequence[Any]] = cursor.fetchall()
        if not (self.converters or self.wire) or not found:
            return found
        converted: list[Any] = []  # lists, changed in place
        for row in found:
            values = list(row)
            for i, convs, expression, keeps_none in self.converters:
                value = values[i]
                if value is None and keeps_none:
                    continue
                for convert in convs:
                    value = convert(value, expression, connection)
                values[i] = value
            converted.append(values)
        if self.wire:
            wire.convert(converted, self.wire)
        return converted

    def records(self, params: Sequence[Any]) -> list[Any]:
        """Rows as read-only records with the model's attribute names: for presenting, where a model
        instance (several times dearer to build) is not needed."""
        if self.record is None:
            raise TypeError("records() needs a queryset of one model without select_related")
        make = self.record._make
        return [make(row) for row in self.rows(params)]

    def objects(self, params: Sequence[Any]) -> list[Any]:
        if not self.attnames or self.wire:
            raise TypeError("objects() needs a queryset of one model without select_related, nor wire_dates")
        found = []
        for row in self.rows(params):
            instance = self.model.from_db(self.db, self.attnames, row[: len(self.attnames)])
            for name, index in self.annotations:
                setattr(instance, name, row[index])
            found.append(instance)
        return found


@functools.lru_cache(maxsize=512)  # per model class (each collection's, per schema snapshot) and database
def insert_statement(model: type[Model], using: str, or_skip: bool = False) -> tuple[str, tuple[Any, ...]]:
    """The INSERT of ``model``'s columns but its auto key (%s placeholders), and those fields in order."""
    fields = tuple(f for f in model._meta.local_concrete_fields if f is not model._meta.auto_field)
    quote = connections[using].ops.quote_name
    columns = ", ".join(quote(str(f.column)) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    skip = " ON CONFLICT DO NOTHING" if or_skip else ""  # SQLite (3.24+) and PostgreSQL alike
    return f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({marks}){skip}", fields


def insert(obj: Model, using: str = "default", *, or_skip: bool = False) -> bool:
    """``obj.save(force_insert=True)`` with the statement compiled once per model: Django builds the INSERT anew
    on every save, which cost several times SQLite's own work for a content item. For models whose key the caller
    sets (no auto field to read back); a model with save signal receivers, or a value that is an expression, goes
    the ORM's way. Errors are Django's. ``or_skip``: a row that would break a unique constraint is not inserted
    and False comes back, with the transaction intact (no savepoint needed to go on); else True."""
    model = type(obj)
    if model._meta.auto_field is not None or pre_save.has_listeners(model) or post_save.has_listeners(model):
        return _saved(obj, using, or_skip)
    sql, fields = insert_statement(model, using, or_skip)
    connection = connections[using]
    values = [f.pre_save(obj, True) for f in fields]  # what save() stores: defaults, auto_now_add
    if any(hasattr(value, "resolve_expression") for value in values):
        return _saved(obj, using, or_skip)
    params = [f.get_db_prep_save(value, connection) for f, value in zip(fields, values, strict=True)]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if cursor.rowcount == 0:
            return False
    obj._state.adding, obj._state.db = False, using
    return True


def _saved(obj: Model, using: str, or_skip: bool) -> bool:
    """The ORM's insert; with ``or_skip`` in a savepoint, a unique-constraint failure reported as False."""
    if not or_skip:
        obj.save(force_insert=True, using=using)
        return True
    try:
        with transaction.atomic(using=using):
            obj.save(force_insert=True, using=using)
    except IntegrityError:
        return False
    return True
