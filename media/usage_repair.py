"""Rebuilding the media usage index from the content (``media_usage_repair``, and after a site import).

:mod:`media.usage` keeps the index current write by write; this reads every collection in chunks, plus the
settings document, and makes the index hold exactly what they use, reporting the difference."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from django.db import transaction

from content.entries import rows as entry_rows
from content.models import EntrySeo
from content.schema import specs as schema
from content.schema.specs import CollectionSpec
from emdash.actor import Actor
from emdash.errors import ValidationError
from emdash.permissions import Perm, require
from media import usage
from media.models import MediaUsage
from media.usage import CHUNK, SETTINGS, SETTINGS_TITLE, ULID_RE, Use, settings_links


def _collection_uses(spec: CollectionSpec) -> Iterator[tuple[Use, str]]:
    qs = spec.model.objects.order_by("id")
    last = ""
    while True:
        chunk = list(qs.filter(id__gt=last)[:CHUNK])
        if not chunk:
            return
        last = chunk[-1].id
        drafts = entry_rows.drafts_for(chunk)
        seos = dict(
            EntrySeo.objects.filter(collection=spec.slug, entry_id__in=[r.id for r in chunk]).values_list(
                "entry_id", "data"
            )
        )
        for row in chunk:
            raw = drafts.get(row.draft_revision_id) if row.draft_revision_id else None
            links, title = usage.entry_links(spec, row, raw if isinstance(raw, dict) else None, seos.get(row.id))
            for m, f in links:
                yield Use(m, spec.slug, row.id, f), title


_settings_source: Callable[[], Any] = dict


def register_settings_source(source: Callable[[], Any]) -> None:
    """The settings app (above media) hands over how to read its stored document, for :func:`repair`."""
    global _settings_source
    _settings_source = source


def repair(*, media_id: str | None = None) -> dict[str, Any]:
    """Rebuild the index from the content (only ``media_id``'s rows when given) and report what changed:
    ``{scanned, usages, added: [...], removed: [...], addedCount, removedCount, retitled}``. Every collection
    is read in chunks of ``CHUNK`` rows."""
    wanted = media_id.upper() if media_id else None
    expected: dict[Use, str] = {}
    scanned = 0
    for spec in schema.current(fresh=True).collections.values():
        scanned += spec.model.objects.count()
        for use, title in _collection_uses(spec):
            if wanted is None or use.media_id == wanted:
                expected[use] = title
    for m, f in settings_links(_settings_source()):
        if wanted is None or m == wanted:
            expected[Use(m, SETTINGS, "", f)] = SETTINGS_TITLE
    held_qs = MediaUsage.objects.all() if wanted is None else MediaUsage.objects.filter(media_id=wanted)
    held = {
        Use(m, c, e, f): (pk, t)
        for pk, m, c, e, f, t in held_qs.values_list("pk", "media_id", "collection", "entry_id", "field", "title")
    }
    added = [use for use in expected if use not in held]
    removed = [use for use in held if use not in expected]
    retitled = [held[use][0] for use in expected if use in held and held[use][1] != expected[use]]
    with transaction.atomic():
        if removed:
            MediaUsage.objects.filter(pk__in=[held[use][0] for use in removed]).delete()
        for use in expected:
            if use in held and held[use][1] != expected[use]:
                MediaUsage.objects.filter(pk=held[use][0]).update(title=expected[use])
        MediaUsage.objects.bulk_create(
            [
                MediaUsage(media_id=u.media_id, collection=u.collection, entry_id=u.entry_id, field=u.field, title=t)
                for u, t in ((u, expected[u]) for u in added)
            ],
            batch_size=CHUNK,
            ignore_conflicts=True,
        )
    return {
        "scanned": scanned,
        "usages": len(expected),
        "added": [_shown(u) for u in sorted(added, key=_order)[:REPORT_MAX]],
        "removed": [_shown(u) for u in sorted(removed, key=_order)[:REPORT_MAX]],
        "addedCount": len(added),
        "removedCount": len(removed),
        "retitled": len(retitled),
    }


REPORT_MAX = 100  # rows listed per kind in a repair report (the counts are always whole)


def _order(use: Use) -> tuple[str, str, str, str]:
    return (use.media_id, use.collection, use.entry_id, use.field)


def _shown(use: Use) -> dict[str, str]:
    shown = {"mediaId": use.media_id, "collection": use.collection, "field": use.field}
    if use.collection != SETTINGS:
        shown["id"] = use.entry_id
    return shown


def media_usage_repair(*, actor: Actor, media_id: Any = None) -> dict[str, Any]:
    """The operation's service: :func:`repair` for admins. The item need not exist: a forced delete leaves
    references to rebuild."""
    require(actor, Perm.MEDIA_USAGE_REPAIR)
    if media_id is not None and not (isinstance(media_id, str) and ULID_RE.match(media_id)):
        raise ValidationError.for_fields({"mediaId": "must be a media item id (26 characters)"})
    return repair(media_id=media_id)
