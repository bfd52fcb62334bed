"""A per-process cache of ``content_get``'s presented item, valid while the change stamps it was built under hold.

A warm ``content_get`` spent most of its time on the entry statement (five correlated subqueries: SEO, terms,
credits, the author's byline twice) and on presenting it. What it shows moves only with writes that raise a
change stamp (content/stamps.py; tests/mcp/test_item_cache_stamps.py holds every kind of write to that), so
an answer built under one reading of the stamps stays right while a fresh reading matches: one small query per
call in place of the entry statement.

What an answer depends on, and so what the stamps token holds:

- the collection's public stamp, and its drafts stamp for callers who see drafts (an edit of a draft moves
  only the latter) and for reads by slug (a new draft in the default locale takes the slug over); with a
  ``reference(s)`` field, every collection's (the targets' slug, title and status show);
- ``terms``, ``taxonomies``, ``bylines`` (credits and the author's inferred byline) and ``media`` (the details
  of images and files);
- the schema version in the database and the one this process's snapshot has (the latter may lag by up to
  SCHEMA_CHECK_SECONDS; an answer built from an older snapshot must not be kept under the newer version).

Instants are shown in UTC (no settings apply). The key holds the collection, the id or slug and locale as asked,
whether the caller sees drafts (the only way two callers allowed to read an item see it differently: there is
no ownership rule on reads), and the projection and Markdown arguments. The permission checks run on every call
before the cache is consulted, and only answers are kept: a NOT_FOUND is raised afresh each time. Nothing is
dropped on a local write: this process relies on the stamps exactly as another process does. The stamps are
read before the answer is built, so a write that commits in between makes the kept token older, never newer.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import orjson
from django.db import DEFAULT_DB_ALIAS, connection, connections

from content import stamps
from content.entries import rows
from content.field_types.base import FieldType
from content.models import ChangeStamp, SchemaState
from content.schema import specs as schema
from content.schema.specs import CollectionSpec
from emdash.actor import Actor
from emdash.conf import emdash_settings
from emdash.errors import CollectionNotFound
from emdash.permissions import Perm, can, require

ATTACHED = ("terms", "taxonomies", "bylines", stamps.MEDIA)  # shown with every item, kept outside its row

MAX_BYTES = 32 * 1024 * 1024  # the kept answers' encoded size in all (a few long items must not fill memory)
MAX_ANSWER = MAX_BYTES // 64  # a larger answer is built every time

_items: OrderedDict[tuple[Any, ...], tuple[tuple[Any, ...], bytes]] = OrderedDict()
_bytes = 0  # the encoded size of _items' answers
_lock = threading.Lock()


class Presented:
    """An answer out of the cache (or just built): a fresh copy of the payload each time it is asked for, so a
    door that adds to it never changes the kept one."""

    __slots__ = ("encoded",)

    def __init__(self, encoded: bytes) -> None:
        self.encoded = encoded

    def payload(self) -> dict[str, Any]:
        found: dict[str, Any] = orjson.loads(self.encoded)
        return found


def _capacity() -> int:
    return int(emdash_settings.ITEM_CACHE_ITEMS or 0)


def get(
    actor: Actor,
    collection: str,
    ident: str,
    locale: str | None,
    variant: tuple[Any, ...],
    build: Callable[[], dict[str, Any]],
) -> Presented | dict[str, Any]:
    """``build()``'s payload for this caller, from the cache when the stamps still match. ``variant``: the
    arguments that change the answer's shape (fields, markdown)."""
    require(actor, Perm.CONTENT_READ)
    if _capacity() <= 0:
        return build()
    # One snapshot for the spec and the token's version (each look costs a connection lookup and a clock read).
    snapshot = schema.current()
    try:
        spec = snapshot.get(collection)
    except CollectionNotFound:  # created a moment ago by another process (as get_collection does)
        snapshot = schema.current(fresh=True)
        spec = snapshot.get(collection)
    show_draft = can(actor, Perm.CONTENT_READ_UNPUBLISHED)
    key = (spec.slug, ident, locale, show_draft, variant)
    # By slug, the default locale's row is preferred even when it is a draft (whose creation moves only the drafts
    # stamp): a public answer by slug depends on drafts too.
    drafts = show_draft or not rows.ULID_RE.match(ident)
    found_stamps = _token(spec, drafts)
    # Another process may have changed the schema while this one trusts its snapshot: the version came with the
    # stamps, so the snapshot follows it rather than answer the old shape under the old ETag.
    seen = next((row[1] for row in found_stamps if row[0] == stamps.SCHEMA), None)
    snapshot = schema.as_of(seen, snapshot)
    token = (*found_stamps, snapshot.version)
    with _lock:
        found = _items.get(key)
        if found is not None and found[0] == token:
            _items.move_to_end(key)
            return Presented(found[1])
    payload = build()
    try:
        encoded = orjson.dumps(payload)
    except TypeError:  # a value orjson refuses (an integer beyond 64 bits in a JSON field): not kept
        return payload
    if len(encoded) <= MAX_ANSWER:
        _keep(key, token, encoded)
    return payload


def _keep(key: tuple[Any, ...], token: tuple[Any, ...], encoded: bytes) -> None:
    global _bytes
    with _lock:
        replaced = _items.pop(key, None)
        _bytes -= len(replaced[1]) if replaced is not None else 0
        _items[key] = (token, encoded)
        _bytes += len(encoded)
        while len(_items) > _capacity() or _bytes > MAX_BYTES:
            _, (_, dropped) = _items.popitem(last=False)  # the least recently used
            _bytes -= len(dropped)


def _token(spec: CollectionSpec, drafts: bool) -> tuple[Any, ...]:
    """The stamps this item's answer depends on (with the drafts stamp or not), as read now (at most one query)."""
    db = connections[DEFAULT_DB_ALIAS]  # once: each read through django.db.connection looks it up again
    sql, params = _token_query(spec.slug, drafts, _links(spec), db.vendor)
    found = stamps.fetch(sql, params, db)  # no query on SQLite while nothing was written since this thread's last
    # The REST door's validators show the attached scopes: this reading serves them (stamps.noting).
    stamps.note((*_scopes(spec.slug, drafts), stamps.SCHEMA), found)
    return found.rows


def _scopes(collection: str, drafts: bool) -> list[str]:
    return [stamps.public(collection), *([stamps.drafts(collection)] if drafts else []), *ATTACHED]


def _links(spec: CollectionSpec) -> bool:
    """The collection has a field naming other items (shown with their slug, title and status)."""
    return any(type(f.kind).entry_refs is not FieldType.entry_refs for f in spec.fields)


@functools.lru_cache(maxsize=1024)
def _token_query(collection: str, drafts: bool, linking: bool, vendor: str) -> tuple[str, dict[str, str]]:
    """SQL and parameters reading the stamps rows of the scopes (a scope's shard rows on PostgreSQL too) and the
    schema version, in key order. Named placeholders: see emdash/prepared.py."""
    scopes = _scopes(collection, drafts)
    shards = stamps.SHARDS if vendor == "postgresql" else 1
    keys = [scope if n == 0 else f"{scope}#{n}" for scope in scopes for n in range(shards)]
    params = {f"k{i}": key for i, key in enumerate(keys)}
    q = connection.ops.quote_name
    name = q("key")
    where = f"{name} IN ({', '.join(f'%({p})s' for p in params)})"
    if linking:  # the targets may be in any collection
        params["public"] = "content:%"
        where += f" OR {name} LIKE %(public)s"
        if drafts:
            params["drafts"] = "drafts:%"
            where += f" OR {name} LIKE %(drafts)s"
    sql = (
        f"SELECT {name}, {q('version')}, {q('changed_at')} FROM {q(ChangeStamp._meta.db_table)} WHERE {where} "
        f"UNION ALL SELECT '{stamps.SCHEMA}', {q('version')}, NULL FROM {q(SchemaState._meta.db_table)} "
        f"WHERE {q('id')} = 1 ORDER BY 1"
    )
    return sql, params


def clear() -> None:
    global _bytes
    with _lock:
        _items.clear()
        _bytes = 0


def size() -> int:
    return len(_items)


stamps.on_forget(clear)
