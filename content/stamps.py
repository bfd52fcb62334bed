"""Change stamps: one version per cache scope, raised in the writing transaction (content.models.ChangeStamp).

Scopes: ``content:<collection>`` (what the public sees of a collection), ``drafts:<collection>`` (what only
editors see: drafts, pending schedules), ``menus``, ``settings``, ``terms``, ``taxonomies``, ``bylines``, ``media`` (a
media item that content uses changed), and
``content`` (derived: every ``content:<collection>``). Readers use them twice: HTTP validators for lists, search,
feeds and public pages (an ETag that changes when anything they show may have), and per-process caches of menus
and settings that are rebuilt when another process changed them. ``read`` is one query for every scope; a public
page reads them once per request (``snapshot``) and everything it renders compares against that snapshot.

A scope may be kept in several rows (``<scope>#<n>``, see :func:`bump`): its version is their sum, its change
time their newest, so writers in one scope need not wait for each other's commits.
"""

from __future__ import annotations

import contextvars
import functools
import random
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, IntegrityError, connection, connections, transaction
from django.db.models import F
from django.utils import timezone

from content.models import ChangeStamp, SchemaState
from emdash import prepared

T = TypeVar("T")
CONTENT = "content"  # derived in read(): every content:<collection> together
SCHEMA = "schema"  # the schema version stamp, read along (not a ChangeStamp row)
SHARDS = 8  # rows a scope may be spread over (PostgreSQL), so concurrent writers each raise a free one


def public(collection: str) -> str:
    """The scope of what visitors see of ``collection`` (published items)."""
    return f"content:{collection}"


def drafts(collection: str) -> str:
    """The scope of what only editors see of ``collection``: readers of drafts use it with :func:`public`."""
    return f"drafts:{collection}"


MEDIA = "media"  # a media item that content uses changed (its details show in the items' reads)


@dataclass(frozen=True)
class Stamps:
    """Every scope's version and when it last changed (scopes never written are version 0)."""

    versions: dict[str, int]
    changed: dict[str, datetime]

    def version(self, key: str) -> int:
        return self.versions.get(key, 0)

    def newest(self, *keys: str) -> datetime | None:
        """When the newest of ``keys`` changed (all scopes when none are named)."""
        found = [self.changed[k] for k in (keys or self.changed) if k in self.changed]
        return max(found) if found else None

    def token(self, *keys: str) -> str:
        """What names the state of ``keys``: versions and change times (a version alone repeats when a test's
        transaction, or a restored backup, rolls the table back)."""
        return ";".join(f"{self.version(k)}@{self._micros(k)}" for k in keys)

    def _micros(self, key: str) -> int:
        changed = self.changed.get(key)
        return int(changed.timestamp() * 1_000_000) if changed is not None else 0


_current: contextvars.ContextVar[Stamps | None] = contextvars.ContextVar("emdash_stamps", default=None)


def read() -> Stamps:
    """The stamps as of now: the request's snapshot when one is open, else one query."""
    current = _current.get()
    if current is not None:
        return current
    # The schema's version stamp comes along (one query), so a page's schema check needs none of its own. Plain
    # SQL: building this union through the ORM cost more than running it (about 1 ms a read).
    return fetch(_read_sql()).stamps


class Reading:
    """The rows of a query of the stamps tables and, computed once when asked for, the :class:`Stamps` they say."""

    __slots__ = ("_stamps", "rows")

    def __init__(self, rows: tuple[Any, ...]) -> None:
        self.rows = rows
        self._stamps: Stamps | None = None

    @property
    def stamps(self) -> Stamps:
        if self._stamps is None:
            self._stamps = _collect(self.rows)
        return self._stamps


# A thread's last readings of the stamps, given again while its connection reports no write anywhere since.
_readings = threading.local()
_generation = [0]  # forget_all() moves it: every thread's readings are dropped (a restored backup)
MAX_READINGS = 64  # distinct stamps queries kept per thread between two writes


def fetch(sql: str, params: dict[str, Any] | None = None, db: Any = None) -> Reading:
    """A query of the stamps tables, run again only when something may have changed: on SQLite the connection's
    change token (``emdash.sqlite3``: ``data_version`` and its own ``total_changes``, a few microseconds) tells
    whether any connection wrote since this thread last ran the same query; if none did, what it read then is
    still the stamps. The token is read before the query, so a write committing in between makes the kept
    reading look older, never newer. Without a token (PostgreSQL, inside a transaction) every call runs it.
    ``db``: the default database's connection when the caller holds it (``django.db.connection`` looks it up on
    every attribute read, a few microseconds each)."""
    read_token = getattr(connections[DEFAULT_DB_ALIAS] if db is None else db, "change_token", None)
    token = read_token() if read_token is not None else None
    key = (sql, tuple(params.items()) if params else ())
    readings: dict[Any, Reading] | None = None
    if token is not None:
        state = (_generation[0], token)
        kept = getattr(_readings, "kept", None)
        if kept is not None and kept[0] == state:
            readings = kept[1]
            found = readings.get(key)
            if found is not None:
                return found
        else:
            readings = {}
            _readings.kept = (state, readings)
    if params is None:
        with connection.cursor() as cursor:
            cursor.execute(sql)
            reading = Reading(tuple(cursor.fetchall()))
    else:  # on the driver's cursor: the item cache's check, which every warm call that misses the kept reading makes
        reading = Reading(tuple(prepared.read(sql, params)))
    if readings is not None and len(readings) < MAX_READINGS:
        readings[key] = reading
    return reading


def read_with(select: str, params: dict[str, Any]) -> tuple[Stamps, list[tuple[Any, ...]]]:
    """The stamps and the rows of ``select`` in one statement (an item's validators: its revision row and the
    stamps it shows). ``select`` has five columns, the first NULL (stamp rows never have a NULL key), and named
    placeholders (``%(p0)s``). Inside a snapshot only ``select`` runs."""
    current = _current.get()
    with connection.cursor() as cursor:
        if current is not None:
            cursor.execute(select, params)
            return current, [tuple(row) for row in cursor.fetchall()]
        cursor.execute(f"{_read_sql(pad=2)} UNION ALL {select}", params)
        found = cursor.fetchall()
    return _collect([row for row in found if row[0] is not None]), [tuple(row) for row in found if row[0] is None]


def _collect(rows: Iterable[Any]) -> Stamps:
    versions: dict[str, int] = {}
    changed: dict[str, datetime] = {}
    for raw_key, version, when, *_ in rows:
        key = str(raw_key).partition("#")[0]  # a shard row counts towards its scope
        versions[key] = versions.get(key, 0) + int(version)
        if when is not None and (key not in changed or aware(when) > changed[key]):
            changed[key] = aware(when)
    # ``content`` (any item anywhere) is derived from the collections' rows rather than kept as a row of its own:
    # every content write would otherwise lock that one row until its transaction commits, and concurrent writers
    # to different collections would queue on it (PostgreSQL).
    per_collection = [k for k in versions if k.startswith("content:")]
    versions[CONTENT] = sum(versions[k] for k in per_collection)
    if found := [changed[k] for k in per_collection if k in changed]:
        changed[CONTENT] = max(found)
    return Stamps(versions, changed)


@functools.cache
def _read_sql(pad: int = 0) -> str:
    q = connection.ops.quote_name
    stamps_table, state_table = q(ChangeStamp._meta.db_table), q(SchemaState._meta.db_table)
    more = ", NULL" * pad  # columns of what read_with unites with them
    return (
        f"SELECT {q('key')}, {q('version')}, {q('changed_at')}{more} FROM {stamps_table} "
        f"UNION ALL SELECT '{SCHEMA}', {q('version')}, NULL{more} FROM {state_table} WHERE {q('id')} = 1"
    )


def aware(value: Any) -> datetime:
    """A timestamp as the driver hands it over: a datetime (PostgreSQL) or ISO text in UTC (SQLite)."""
    found = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return found if found.tzinfo is not None else found.replace(tzinfo=UTC)


def in_snapshot() -> bool:
    """True inside :func:`snapshot` (a public page), where a stamp-checked cache costs no query."""
    return _current.get() is not None


def schema_version() -> int | None:
    """The schema version read with the open snapshot's stamps (None outside a snapshot)."""
    current = _current.get()
    if current is None:
        return None
    return current.versions.get(SCHEMA, 0)


@contextmanager
def snapshot() -> Iterator[Stamps]:
    """Read the stamps once for everything inside (a public page: its ETag, its menus, its settings)."""
    token = _current.set(None)
    stamps = read()
    _current.set(stamps)
    try:
        yield stamps
    finally:
        _current.reset(token)


_noted: contextvars.ContextVar[list[tuple[frozenset[str], Stamps]] | None] = contextvars.ContextVar(
    "emdash_noted_stamps", default=None
)


@contextmanager
def noting() -> Iterator[None]:
    """Keep the partial readings made inside (:func:`note`), so the validators computed after a read reuse the
    stamps the read itself checked (the item cache's token) instead of reading them again."""
    token = _noted.set([])
    try:
        yield
    finally:
        _noted.reset(token)


def note(scopes: Iterable[str], reading: Reading) -> None:
    """Record a reading of ``scopes`` (rows of key, version, changed_at) made inside :func:`noting`."""
    kept = _noted.get()
    if kept is not None:
        kept.append((frozenset(scopes), reading.stamps))


def noted(*keys: str) -> Stamps | None:
    """The latest reading inside :func:`noting` that asked for every one of ``keys`` (None when there is none)."""
    for scopes, found in reversed(_noted.get() or ()):
        if scopes.issuperset(keys):
            return found
    return None


def bump(*keys: str) -> None:
    """Raise ``keys`` in the current transaction (created at version 1 the first time).

    The raised row stays locked until the transaction commits. On PostgreSQL a writer takes any row of the scope
    no other transaction holds (``SKIP LOCKED``), adding one when all are held, so concurrent writers to one
    collection do not queue on one row; SQLite has one writer at a time anyway and keeps one row per scope."""
    now = timezone.now()
    # No savepoint: a bump is part of its caller's write, and a failed one fails that write.
    with transaction.atomic(savepoint=False):
        for key in dict.fromkeys(keys):
            if connection.vendor == "postgresql":
                _bump_postgresql(key, now)
            else:
                _bump_row(key, now)


def _bump_row(key: str, now: datetime) -> None:
    q = connection.ops.quote_name
    with connection.cursor() as cursor:  # plain SQL: every write makes it, and the ORM's compiler cost more
        cursor.execute(
            f"UPDATE {q(ChangeStamp._meta.db_table)} SET version = version + 1, changed_at = %s WHERE {q('key')} = %s",
            [connection.ops.adapt_datetimefield_value(now), key],
        )
        if cursor.rowcount:
            return
    try:
        with transaction.atomic():
            ChangeStamp.objects.create(key=key, version=1, changed_at=now)
    except IntegrityError:  # another writer created it first
        ChangeStamp.objects.filter(key=key).update(version=F("version") + 1, changed_at=now)


def _bump_postgresql(key: str, now: datetime) -> None:
    rows = [key, *(f"{key}#{n}" for n in range(1, SHARDS))]
    q = connection.ops.quote_name
    table, name = q(ChangeStamp._meta.db_table), q("key")
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET version = version + 1, changed_at = %s WHERE {name} = "
            f"(SELECT {name} FROM {table} WHERE {name} = ANY(%s) LIMIT 1 FOR UPDATE SKIP LOCKED)",
            [now, rows],
        )
        if cursor.rowcount:
            return
        # Every row of the scope is held (or none exists yet): add one, or wait for one if all SHARDS exist.
        cursor.execute(f"SELECT {name} FROM {table} WHERE {name} = ANY(%s)", [rows])
        existing = {found for (found,) in cursor.fetchall()}
        cursor.execute(
            f"INSERT INTO {table} ({name}, version, changed_at) VALUES (%s, 1, %s) "
            f"ON CONFLICT ({name}) DO UPDATE SET version = {table}.version + 1, changed_at = EXCLUDED.changed_at",
            [random.choice([r for r in rows if r not in existing] or rows), now],
        )


class PerProcess:
    """A value built once per process and rebuilt when its scope's stamp moved (another process's write); used
    inside a :func:`snapshot`, built afresh outside one."""

    instances: list[PerProcess] = []
    MAX_KEYS = 256

    def __init__(self, *scopes: str, max_keys: int = MAX_KEYS) -> None:
        self.scopes = scopes
        self.max_keys = max_keys
        # Least recently used first: a full cache drops its coldest key, so a busy site keeps its hot ones.
        self._values: OrderedDict[Any, tuple[str, Any]] = OrderedDict()
        self._lock = threading.Lock()  # threads of one process share it: reordering and evicting must not interleave
        PerProcess.instances.append(self)

    def get(self, key: Any, build: Callable[[], T]) -> T:
        if not in_snapshot():
            # Outside a page's snapshot, checking the stamp costs the query the value's own read would.
            return build()
        version = read().token(*self.scopes)
        with self._lock:
            found = self._values.get(key)
            if found is not None and found[0] == version:
                self._values.move_to_end(key)
                return found[1]  # type: ignore[no-any-return]
        value = build()  # outside the lock: a build reads the database
        with self._lock:
            self._values[key] = (version, value)
            self._values.move_to_end(key)
            while len(self._values) > self.max_keys:
                self._values.popitem(last=False)
        return value

    def clear(self) -> None:
        with self._lock:
            self._values.clear()


_forgetters: list[Callable[[], None]] = []


def on_forget(clear: Callable[[], None]) -> None:
    """Have :func:`forget_all` call ``clear`` too (a stamp-checked cache kept outside PerProcess)."""
    _forgetters.append(clear)


def forget_all() -> None:
    """Drop every per-process cache (tests, and a process that restored a backup)."""
    for cache in PerProcess.instances:
        cache.clear()
    for clear in _forgetters:
        clear()
    _generation[0] += 1
