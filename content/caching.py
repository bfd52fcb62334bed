"""Validators of the REST reads (content_get, content_list, search, and content/stamped_reads.py's table of
menus, settings, taxonomies and bylines), computed before the body is built.

The REST door (api/operations.py) asks :func:`validators` first; a matching conditional GET is answered 304
after one query (the change stamps, with an item's revision columns in the same statement) and the operation
never runs. When this returns None (unknown collection, no right to read, an item the reader may not see) the
operation runs as usual and gives its own error, so nothing here decides access or leaks more than the 404 would.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from django.db import connection

from content import stamped_reads, stamps
from content.entries import rows
from content.models import EntryBase
from content.schema import specs as schema
from emdash.actor import Actor
from emdash.dates import parse_iso
from emdash.errors import EmDashError
from emdash.http_cache import CONTENT_KEY, Validators, collection_key, etag, item_key
from emdash.permissions import Perm, can
from emdash.prepared import named_placeholders

REVISION_COLUMNS = ("id", "version", "updated_at", "status")
# Shown with every item, kept outside its row: assigning terms or credits, editing a byline or a used
# media item (its details show in the read) moves these.
ATTACHED = ("terms", "bylines", stamps.MEDIA)


@functools.lru_cache(maxsize=512)  # per model class, i.e. per collection and schema snapshot
def _revision_by_id(model: type[EntryBase]) -> str:
    """The columns an item's validators need, by id (``%(p0)s``), shaped for ``stamps.read_with``: read in the
    statement that reads the stamps, so a 304 costs one query."""

    def column(name: str) -> str:
        return connection.ops.quote_name(str(getattr(model._meta.get_field(name), "column", name)))

    columns = ", ".join(column(name) for name in REVISION_COLUMNS)
    table = connection.ops.quote_name(model._meta.db_table)
    return _aligned(f"SELECT {columns} FROM {table} WHERE {column('deleted_at')} IS NULL AND {column('id')} = %(p0)s")


def _aligned(revision_sql: str) -> str:
    # The stamps' columns are (key, version, changed_at, NULL, NULL): the revision row goes beside them with the
    # same types in the same places (a NULL key, its version, its update time, then its id and status).
    q = connection.ops.quote_name
    columns = ", ".join(f"revision.{q(name)}" for name in ("version", "updated_at", "id", "status"))
    return f"SELECT NULL, {columns} FROM ({revision_sql}) revision"


def _schema_changed(current: schema.Schema, slug: str) -> datetime | None:
    """When the collection's fields last changed: a field added or dropped shows in every item's data, so
    Last-Modified (If-Modified-Since alone) must move with it as the ETag (the schema version) does."""
    spec = current.collections.get(slug)
    return spec.updated_at if spec is not None else None


def _schema_as_of(now: stamps.Stamps, current: schema.Schema) -> schema.Schema:
    """The schema snapshot matching the version the stamps were read with (schema.as_of): validators from a
    trusted older snapshot would match the client's old ETag, and a kept 304 (SQLite) would then stand under the
    new change token until the next write. Reloading here also gives the body the new schema."""
    return schema.as_of(now.versions.get(stamps.SCHEMA), current)


def _public(actor: Actor) -> bool:
    return actor.user is None and not getattr(actor, "is_system", False)


def _item(actor: Actor, raw: Mapping[str, Any], query: str) -> Validators | None:
    ident, slug = raw.get("id"), raw.get("collection")
    if not isinstance(ident, str) or not isinstance(slug, str) or not can(actor, Perm.CONTENT_READ):
        return None
    current = schema.current()
    spec = current.collections.get(slug)
    if spec is None:
        return None
    # The item's revision row and the stamps in one statement.
    if rows.ULID_RE.match(ident):  # the usual case: its SQL built once per collection model
        select, params = _revision_by_id(spec.model), {"p0": ident.upper()}
    else:
        try:
            locale = rows.resolve_locale(raw.get("locale"))
        except EmDashError:
            return None
        by_slug = rows.live_rows(spec).filter(slug=ident, locale=locale).values_list(*REVISION_COLUMNS)[:2]
        sql, values = by_slug.query.sql_with_params()
        sql, names = named_placeholders(sql)
        select, params = _aligned(sql), dict(zip(names, values, strict=True))
    now, found = stamps.read_with(select, params)
    if len(found) != 1:
        return None
    _, version, updated_at, entry_id, status = found[0]
    updated_at = stamps.aware(updated_at)
    rev = rows.rev_of(version, updated_at)
    current = _schema_as_of(now, current)
    if slug not in current.collections:
        return None
    return _item_validators(actor, slug, entry_id, rev, updated_at, status, query, current, now)


def _item_validators(
    actor: Actor,
    slug: str,
    entry_id: str,
    rev: str,
    updated_at: datetime,
    status: str,
    query: str,
    current: schema.Schema | None = None,
    now: stamps.Stamps | None = None,
) -> Validators | None:
    show_draft = can(actor, Perm.CONTENT_READ_UNPUBLISHED)
    if status != "published" and not show_draft:
        return None  # the operation answers 404, as for an item that does not exist
    public = _public(actor) and status == "published"
    if now is None:  # the item's terms and bylines are part of its read; their changes do not touch its row
        now = stamps.noted(*ATTACHED) or stamps.read()
    current = current or schema.current()
    return Validators(
        etag=etag("item", entry_id, rev, now.token(*ATTACHED), show_draft, current.version, query),
        last_modified=max(filter(None, (updated_at, now.newest(*ATTACHED), _schema_changed(current, slug)))),
        public=public,
        tags=[item_key(entry_id), collection_key(slug)] if public else [],
    )


def after_get(actor: Actor, payload: Mapping[str, Any], query: str) -> Validators | None:
    """content_get's validators from its answer (a read without If-None-Match: no query for the row)."""
    item = payload.get("item")
    if not isinstance(item, Mapping) or not isinstance(payload.get("_rev"), str):
        return None
    return _item_validators(
        actor,
        str(item.get("collection")),
        str(item.get("id")),
        payload["_rev"],
        parse_iso(item.get("updatedAt")),
        str(item.get("status")),
        query,
    )


def _list(actor: Actor, raw: Mapping[str, Any], query: str) -> Validators | None:
    slug = raw.get("collection")
    if not isinstance(slug, str) or not can(actor, Perm.CONTENT_READ):
        return None
    current = schema.current()
    if slug not in current.collections:
        return None
    show_draft = can(actor, Perm.CONTENT_READ_UNPUBLISHED)
    scopes = (stamps.public(slug), *((stamps.drafts(slug),) if show_draft else ()), *ATTACHED)
    now = stamps.read()
    current = _schema_as_of(now, current)
    if slug not in current.collections:
        return None
    public = _public(actor)
    return Validators(
        etag=etag("list", slug, now.token(*scopes), show_draft, current.version, query),
        last_modified=max(filter(None, (now.newest(*scopes), _schema_changed(current, slug))), default=None),
        public=public,
        tags=[collection_key(slug)] if public else [],
    )


def _search(actor: Actor, raw: Mapping[str, Any], query: str) -> Validators | None:
    if not can(actor, Perm.SEARCH):
        return None
    now = stamps.read()
    public = _public(actor)
    return Validators(
        etag=etag("search", now.token("content", "terms"), _schema_as_of(now, schema.current()).version, query),
        last_modified=now.newest("content", "terms"),
        public=public,
        tags=[CONTENT_KEY] if public else [],
    )


# operation name -> validators(actor, the raw input, the canonical query string)
VALIDATORS: dict[str, Callable[[Actor, Mapping[str, Any], str], Validators | None]] = {
    "content_get": _item,
    "content_list": _list,
    "search": _search,
    **stamped_reads.table(),  # menus, settings, taxonomies, bylines, an item's terms and translations
}


def validators(op: str, actor: Actor, raw: Mapping[str, Any], query: str) -> Validators | None:
    found = VALIDATORS.get(op)
    return found(actor, raw, query) if found is not None else None


def validators_after(op: str, actor: Actor, raw: Mapping[str, Any], query: str, payload: Any) -> Validators | None:
    """The validators of a read that had no conditional header, from its answer where that saves a query."""
    if op == "content_get":
        return after_get(actor, payload, query) if isinstance(payload, Mapping) else None
    return validators(op, actor, raw, query)
