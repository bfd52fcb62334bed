"""Media references to items deleted since they were stored (a revision restored after a forced ``media_delete``).

A revision is a snapshot: the media items it named may have been deleted since (``media_delete`` with ``force``).
Restoring it drops those references, as links to deleted items are dropped (content/entries/dead_links.py), and
says which it dropped, rather than refusing the whole revision: an image or file value is cleared (a required one
keeps the item's current value), a Portable Text image block leaves the text.
"""

from __future__ import annotations

from typing import Any

from content import hooks
from content.field_types.base import FieldType
from content.schema.specs import CollectionSpec


def without_dead_media(spec: CollectionSpec, values: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, str]]]:
    """Stored ``values`` without their references to media items that no longer exist (one query), and what was
    dropped: ``[{field, mediaId}]``."""
    fields = [
        f
        for f in spec.fields
        if values.get(f.slug) is not None and type(f.kind).media_links is not FieldType.media_links
    ]
    named = {f.slug: [media_id for _, media_id in f.kind.media_links(values[f.slug])] for f in fields}
    wanted = {media_id for ids in named.values() for media_id in ids}
    if not wanted:
        return values, []
    found = {media_id.upper() for media_id in hooks.existing_media_ids(wanted)}
    gone = {media_id for media_id in wanted if media_id.upper() not in found}
    if not gone:
        return values, []
    kept = dict(values)
    dropped: list[dict[str, str]] = []
    for field in fields:
        dead = [media_id for media_id in dict.fromkeys(named[field.slug]) if media_id in gone]
        if not dead:
            continue
        dropped += [{"field": field.slug, "mediaId": media_id} for media_id in dead]
        value = field.kind.drop_media(values[field.slug], gone)
        if value is None or field.kind.is_empty(value):
            if field.required:
                del kept[field.slug]  # the item keeps its current value rather than a refused empty one
                continue
            value = None
        kept[field.slug] = value
    return kept, dropped
