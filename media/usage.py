"""The media usage index: which content items and settings use each media item (SPEC 10).

Content sits below media, so content never calls in here: ``media.receivers`` follows content's signals
(``entry_changed`` after commit, ``entry_deleting`` inside a permanent delete, ``schema_changed``) and the
settings service (above media) calls :func:`index_settings` in its own transaction. An item's uses are read
from what it holds now: its live values, the draft waiting to be published and its SEO image (live and
drafted); a trashed item still counts (it can be restored). ``media.usage_repair`` rebuilds the whole index (or one
media item's rows) from the content and reports the difference, for an index a crash or a direct database
edit left behind.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, JSONField, OuterRef, Subquery

from content import stamps
from content.entries import rows as entry_rows
from content.field_types import FieldType
from content.models import EntrySeo, Revision
from content.schema import specs as schema
from content.schema.retry import schema_retry
from content.schema.specs import CollectionSpec
from emdash import purge
from emdash.errors import CollectionNotFound
from emdash.http_cache import CONTENT_KEY, SETTINGS_KEY, collection_key, item_key
from emdash.prepared import Prepared
from media.models import MediaItem, MediaUsage

ULID_RE = re.compile(r"^[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26}$")

SETTINGS = MediaUsage.SETTINGS
SETTINGS_TITLE = "Site settings"
SEO_FIELD = "seo.image"
TITLE_MAX = 500
CHUNK = 500  # rows read per query while rebuilding
PURGE_ITEMS = 200  # item keys a media change purges by name (docs/caching.md)


@dataclass(frozen=True)
class Use:
    """One (media item, user, field) fact: the index's unit."""

    media_id: str
    collection: str
    entry_id: str
    field: str


def _media_id(value: Any) -> str | None:
    return value.upper() if isinstance(value, str) and value else None


def _media_fields(spec: CollectionSpec) -> tuple[Any, ...]:
    """The fields whose values can name media items (their type reads links out of a value)."""
    return tuple(f for f in spec.fields if type(f.kind).media_links is not FieldType.media_links)


def _field_links(spec: CollectionSpec, values: dict[str, Any] | None) -> set[tuple[str, str]]:
    """``{(media id, field slug)}`` for the image/file values and inline images of ``values``."""
    found: set[tuple[str, str]] = set()
    if not values:
        return found
    for field in _media_fields(spec):
        value = values.get(field.slug)
        if value is None:
            continue
        for _suffix, media_id in field.kind.media_links(value):
            if (upper := _media_id(media_id)) is not None:
                found.add((upper, field.slug))
    return found


def _seo_link(seo: Any) -> set[tuple[str, str]]:
    image = seo.get("image") if isinstance(seo, dict) else None
    upper = _media_id(image.get("id")) if isinstance(image, dict) else None
    return {(upper, SEO_FIELD)} if upper else set()


def _title(spec: CollectionSpec, row: Any, draft: dict[str, Any] | None) -> str:
    field = spec.title_field
    if field is None:
        return ""
    if draft is not None and field.slug in draft:
        value = draft[field.slug]
    else:
        value = entry_rows.row_values(spec, row, (field,)).get(field.slug)
    return str(value or "")[:TITLE_MAX]


def entry_links(
    spec: CollectionSpec, row: Any, draft: dict[str, Any] | None, seo: Any
) -> tuple[set[tuple[str, str]], str]:
    links = (
        _field_links(spec, entry_rows.row_values(spec, row, _media_fields(spec)))
        | _field_links(spec, draft)
        | _seo_link(seo)
    )
    if draft is not None:
        links |= _seo_link(draft.get(entry_rows.DRAFT_SEO))
    return links, _title(spec, row, draft)


def _replace(
    collection: str,
    entry_id: str,
    links: set[tuple[str, str]],
    title: str,
    *,
    written_at: datetime | None = None,
    new: bool = False,
) -> None:
    """Make the index hold exactly ``links`` for this user (titles refreshed), touching only what changed.
    Most writes change no media use: one read decides, so they open no second write transaction (SQLite
    serialises those). ``written_at``: when the entry was written, for :func:`_recheck`; ``new``: the index
    cannot hold anything for it yet, so an item using no media needs no read at all."""
    if (new and not links) or _held(collection, entry_id) == {key: title for key in links}:
        return
    with transaction.atomic():
        held = {
            (m, f): (pk, t)
            for pk, m, f, t in MediaUsage.objects.filter(collection=collection, entry_id=entry_id).values_list(
                "pk", "media_id", "field", "title"
            )
        }
        gone = [pk for key, (pk, _) in held.items() if key not in links]
        if gone:
            MediaUsage.objects.filter(pk__in=gone).delete()
        stale = [pk for key, (pk, t) in held.items() if key in links and t != title]
        if stale:
            MediaUsage.objects.filter(pk__in=stale).update(title=title)
        MediaUsage.objects.bulk_create(
            [
                MediaUsage(media_id=m, collection=collection, entry_id=entry_id, field=f, title=title)
                for m, f in sorted(links - held.keys())
            ],
            ignore_conflicts=True,  # a concurrent pass for the same item wrote it first
        )
        if written_at is not None and (added := {m for m, _ in links - held.keys()}):
            _recheck(collection, entry_id, added, written_at)


def _recheck(collection: str, entry_id: str, media_ids: set[str], written_at: datetime) -> None:
    """The index learns of an entry's new uses only after the entry committed (``entry_changed``). A media edit in
    between found no user and moved no stamp, while a read in that instant showed, and kept under the entry's
    stamps, the old details. So a new use of an item edited (or deleted) since the entry was written moves the
    stamps the edit would have; new uses of untouched items move none.

    In the transaction that adds the uses: on PostgreSQL the items' rows are read ``FOR SHARE``, so an edit still
    in progress is waited for (and seen), and one that starts later waits for these uses to commit and finds them
    itself. SQLite runs one writer at a time, so the two never overlap."""
    table = connection.ops.quote_name(MediaItem._meta.db_table)
    marks = ", ".join(["%s"] * len(media_ids))
    lock = " FOR SHARE" if connection.vendor == "postgresql" else ""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT id, updated_at FROM {table} WHERE id IN ({marks}){lock}", sorted(media_ids))
        found = {media_id: stamps.aware(updated_at) for media_id, updated_at in cursor.fetchall()}
    if all(media_id in found and found[media_id] < written_at for media_id in media_ids):
        return
    stamps.bump(stamps.public(collection), stamps.MEDIA)
    purge.schedule([item_key(entry_id), collection_key(collection), CONTENT_KEY])


@functools.cache  # compiled once: after every content write, Django's compiler cost more than SQLite's own work
def _held_query() -> Prepared:
    return Prepared(
        MediaUsage.objects.filter(collection="").filter(entry_id="").values_list("media_id", "field", "title")
    )


def _held(collection: str, entry_id: str) -> dict[tuple[str, str], str]:
    return {(m, f): t for m, f, t in _held_query().rows([collection, entry_id])}


@functools.lru_cache(maxsize=512)  # per model class, i.e. per collection and schema snapshot
def _entry_query(model: Any, collection: str) -> Prepared:
    """An entry by id (the last parameter), trashed or not, with its live SEO and its draft's data: one statement."""
    seo = EntrySeo.objects.filter(collection=collection, entry_id=OuterRef("id")).values("data")[:1]
    draft = Revision.objects.filter(id=OuterRef("draft_revision_id")).values("data")[:1]
    qs = model.objects.filter(id="").annotate(
        seo_live=Subquery(seo, output_field=JSONField()), draft_live=Subquery(draft, output_field=JSONField())
    )
    return Prepared(qs.order_by()[:1])


@schema_retry  # a column another process dropped since the write's own check: read again with a fresh schema
def reindex_entry(collection: str, entry_id: str, *, new: bool = False) -> None:
    """Bring one content item's rows in line with what it holds now (none once it is gone). ``new``: the item
    was created by the transaction that just committed (the index learns of an item only after its commit)."""
    try:
        # The snapshot the write itself was checked against: a write's transaction reads the schema version.
        spec = schema.current().get(collection)
    except CollectionNotFound:
        forget_entry(collection, entry_id)
        return
    query = _entry_query(spec.model, collection)
    row = next(iter(query.objects([*query.params[:-1], entry_id])), None)
    if row is None:
        forget_entry(collection, entry_id)
        return
    raw = row.draft_live if row.draft_revision_id and isinstance(row.draft_live, dict) else None
    links, title = entry_links(spec, row, raw, row.seo_live)
    _replace(collection, entry_id, links, title, written_at=row.updated_at, new=new)


def index_created(collection: str, entry_id: str, row: Any, seo: Any) -> None:
    """A new item's uses from the row and SEO its create wrote, when the create was the only change of it that its
    transaction committed: that row is what committed, so nothing is read back (and an item using no media costs
    nothing at all)."""
    try:
        spec = schema.current().get(collection)
    except CollectionNotFound:
        return  # the collection went meanwhile: its items' uses went with it
    links, title = entry_links(spec, row, None, seo)
    _replace(collection, entry_id, links, title, written_at=row.updated_at, new=True)


def forget_entry(collection: str, entry_id: str) -> None:
    MediaUsage.objects.filter(collection=collection, entry_id=entry_id).delete()


def settings_links(data: Any) -> set[tuple[str, str]]:
    """``{(media id, setting path)}`` of the settings document: logo, favicon, the default Open Graph image."""
    if not isinstance(data, dict):
        return set()
    seo = data.get("seo")
    refs = {
        "logo": data.get("logo"),
        "favicon": data.get("favicon"),
        "seo.defaultOgImage": seo.get("defaultOgImage") if isinstance(seo, dict) else None,
    }
    return {
        (upper, path)
        for path, ref in refs.items()
        if isinstance(ref, dict) and (upper := _media_id(ref.get("mediaId"))) is not None
    }


def index_settings(data: Any) -> None:
    """Called by the settings service inside its write's transaction with the document it stores."""
    _replace(SETTINGS, "", settings_links(data), SETTINGS_TITLE)


def forget_media(media_id: str) -> None:
    MediaUsage.objects.filter(media_id=media_id.upper()).delete()


def follow_schema() -> None:
    """After a schema change: drop the rows of collections and fields that no longer exist, or no longer hold
    media (a field changed to another type). Cheap: one grouped query over the index."""
    current = schema.current(fresh=True).collections
    media_fields = {slug: {f.slug for f in _media_fields(spec)} | {SEO_FIELD} for slug, spec in current.items()}
    pairs = MediaUsage.objects.exclude(collection=SETTINGS).values_list("collection", "field").distinct()
    for collection, field in list(pairs):
        if field not in media_fields.get(collection, set()):
            MediaUsage.objects.filter(collection=collection, field=field).delete()


def bump_users(media_id: str) -> None:
    """Move the change stamps of what shows the item (SPEC 11: content results carry its alt, size, renditions):
    the collections using it and, when a setting does, the settings. Their ETags and per-process caches follow,
    and the shared caches are purged of the same (docs/caching.md): the items, their collections' lists and pages
    (which carry ``collection:<slug>``), the pages that may show any item, and every page when a setting uses it."""
    uses = set(MediaUsage.objects.filter(media_id=media_id.upper()).values_list("collection", "entry_id"))
    used = {collection for collection, _ in uses}
    collections = sorted(used - {SETTINGS})
    keys = [stamps.public(c) for c in collections]
    keys += ([stamps.MEDIA] if keys else []) + (["settings"] if SETTINGS in used else [])
    if keys:
        stamps.bump(*keys)
    items = sorted(entry_id for collection, entry_id in uses if collection != SETTINGS)
    # Past PURGE_ITEMS items their collections' keys (which every item read and page carries) do the work.
    shown = [*(item_key(i) for i in items[:PURGE_ITEMS]), *(collection_key(c) for c in collections)]
    purge.schedule([*shown, *([CONTENT_KEY] if collections else []), *([SETTINGS_KEY] if SETTINGS in used else [])])


# ---- reads ---------------------------------------------------------------------------------------------------


def usage_of(media_id: str) -> list[dict[str, Any]]:
    """Where one media item is used: ``[{collection, id, title, field}]`` (settings: ``{collection, field}``)."""
    return usage_by_media([media_id]).get(media_id.upper(), [])


def usage_by_media(media_ids: Iterable[str]) -> dict[str, list[dict[str, Any]]]:
    """:func:`usage_of` for a page of items, in one query (the admin's library); settings first, then by
    collection and item."""
    ids = {i.upper() for i in media_ids}
    out: dict[str, list[dict[str, Any]]] = {}
    if not ids:
        return out
    found = MediaUsage.objects.filter(media_id__in=ids).order_by("collection", "entry_id", "field")
    for use in found:
        entry: dict[str, Any] = {"collection": use.collection, "field": use.field}
        if use.collection != SETTINGS:
            entry.update(id=use.entry_id, title=use.title)
        out.setdefault(use.media_id, []).append(entry)
    for uses in out.values():
        uses.sort(key=lambda u: u["collection"] != SETTINGS)  # stable: the query's order within each part
    return out


def counts(media_ids: Iterable[str]) -> dict[str, int]:
    """How many places use each of ``media_ids`` (absent: none), in one query."""
    ids = {i.upper() for i in media_ids}
    if not ids:
        return {}
    grouped = MediaUsage.objects.filter(media_id__in=ids).values("media_id").annotate(n=Count("id"))
    return {g["media_id"]: g["n"] for g in grouped}
