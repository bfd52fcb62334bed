"""Media reads: one item, or a page of items newest first (anyone with media:read, the public included)."""

from __future__ import annotations

import re
from typing import Any

from django.db.models import QuerySet

from content.media_values import MediaValue
from emdash import cursors, keyset
from emdash.actor import Actor
from emdash.cursors import Page
from emdash.dates import iso, parse_iso
from emdash.errors import InvalidCursor, NotFound, ValidationError
from emdash.permissions import Perm, can, require
from media import presenters, usage
from media.models import MediaItem
from media.sniff import XML_TYPES

ULID_RE = re.compile(r"^[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26}$")
TYPE_PREFIX_RE = re.compile(r"^[a-z0-9!#$&^_.+/-]{1,127}$")


def existing_ids(ids: set[str]) -> set[str]:
    """Which of ``ids`` (any case) name media items, in one query; answered in the case they were given."""
    wanted = {i: i.upper() for i in ids if ULID_RE.match(i)}
    if not wanted:
        return set()
    found = set(MediaItem.objects.filter(id__in=set(wanted.values())).values_list("id", flat=True))
    return {given for given, upper in wanted.items() if upper in found}


def find(id: Any) -> MediaItem:
    """A media item by ULID (any case); NOT_FOUND otherwise."""
    if isinstance(id, str) and ULID_RE.match(id):
        row = MediaItem.objects.filter(id=id.upper()).first()
        if row is not None:
            return row
    shown = id if isinstance(id, str) and len(id) <= 100 else "?"
    raise NotFound(f"No media item '{shown}' (media_list lists them)")


def sees_exports(actor: Actor) -> bool:
    """Site exports (the XML an admin uploads for import_wordpress) hold drafts, private posts and authors'
    emails: only those who may import see them; for everyone else they do not exist."""
    return can(actor, Perm.SITE_IMPORT)


def media_get(*, actor: Actor, id: Any) -> MediaItem:
    require(actor, Perm.MEDIA_READ)
    row = find(id)
    if row.mime_type in XML_TYPES and not sees_exports(actor):
        raise NotFound(f"No media item '{id}' (media_list lists them)")
    return row


def media_list(*, actor: Actor, mime_type: Any = None, limit: Any = 50, cursor: Any = None) -> Page:
    """Newest first, keyset-paginated on (created_at, id); ``mime_type`` is a prefix such as ``image/``."""
    require(actor, Perm.MEDIA_READ)
    problems: dict[str, str] = {}
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 100:
        problems["limit"] = "must be an integer from 1 to 100"
    if mime_type is not None and (not isinstance(mime_type, str) or not TYPE_PREFIX_RE.match(mime_type.lower())):
        problems["mimeType"] = "must be a MIME type or prefix such as image/ or image/png"
    if problems:
        raise ValidationError.for_fields(problems)
    prefix = mime_type.lower() if isinstance(mime_type, str) else None
    qs: QuerySet[MediaItem] = MediaItem.objects.all()
    if not sees_exports(actor):
        qs = qs.exclude(mime_type__in=XML_TYPES)
    if prefix:
        qs = qs.filter(mime_type__startswith=prefix)
    query_key = f"media:{prefix or ''}"
    qs = _after(qs.order_by("-created_at", "-id"), cursor, query_key)
    rows = list(qs[: limit + 1])
    more = len(rows) > limit
    rows = rows[:limit]
    next_cursor = cursors.encode(query_key, [iso(rows[-1].created_at), rows[-1].id]) if more and rows else None
    used = usage.counts(r.id for r in rows)
    return Page([{**presenters.item(r), "usageCount": used.get(r.id, 0)} for r in rows], next_cursor)


def _after(qs: QuerySet[MediaItem], cursor: Any, query_key: str) -> QuerySet[MediaItem]:
    if cursor is None:
        return qs
    position = cursors.decode(cursor, query_key)
    if len(position) != 2 or not all(isinstance(p, str) for p in position):
        raise InvalidCursor("Invalid cursor")
    try:
        created = parse_iso(position[0])
    except ValueError:
        raise InvalidCursor("Invalid cursor") from None
    return keyset.after(qs, ("created_at", "id"), (created, position[1]), descending=True)


def urls_by_id(ids: set[str]) -> dict[str, str]:
    """Public URLs of the media items named by ``ids`` (for Markdown output), in one query."""
    from media.storage import url_for

    wanted = {i.upper() for i in ids if isinstance(i, str) and ULID_RE.match(i)}
    rows = MediaItem.objects.filter(id__in=wanted).values_list("id", "storage_key")
    return {row_id: url_for(key) for row_id, key in rows}


def details_by_id(ids: set[str]) -> dict[str, MediaValue]:
    """What content values naming these items (any case) show of them, by upper-case id, in one query."""
    wanted = {i.upper() for i in ids if isinstance(i, str) and ULID_RE.match(i)}
    if not wanted:
        return {}
    rows = MediaItem.objects.filter(id__in=wanted).only(*presenters.VALUE_COLUMNS)
    return {row.id: presenters.value(row) for row in rows}


def ids_by_url(urls: set[str]) -> dict[str, str]:
    """Which of ``urls`` are this site's media URLs, mapped to the item id (for Markdown input), in one query.

    The storage builds URLs from the storage key; the key is recovered by stripping the storage's own prefix
    (absolute or site-relative), so any storage backend with stable public URLs works.
    """
    from urllib.parse import unquote, urlsplit

    from media.storage import url_for

    probe = "emdash-probe"
    base = url_for(probe).removesuffix(probe)
    bases = {base, urlsplit(base).path} if urlsplit(base).path else {base}
    keys: dict[str, str] = {}
    for url in urls:
        plain = url.split("?", 1)[0].split("#", 1)[0]
        for prefix in sorted(bases, key=len, reverse=True):
            if prefix and plain.startswith(prefix):
                keys[unquote(plain[len(prefix) :])] = url
                break
    rows = MediaItem.objects.filter(storage_key__in=set(keys)).values_list("id", "storage_key")
    return {keys[key]: row_id for row_id, key in rows}
