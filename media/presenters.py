"""Media items as MCP, REST and templates see them."""

from __future__ import annotations

from typing import Any

from content.media_values import MediaValue
from emdash.dates import iso
from media import responsive
from media.models import MediaItem
from media.outputs import Media
from media.storage import url_for


def _ready(row: MediaItem) -> dict[str, Any]:
    return responsive.describe(
        media_id=row.id,
        mime_type=row.mime_type,
        width=row.width,
        height=row.height,
        content_hash=row.content_hash,
        focal=(row.focal_x, row.focal_y),
        animated=row.animated,
    )


# The columns value() reads: a page of content reads only these of the media items it names.
VALUE_COLUMNS = (
    "id",
    "filename",
    "mime_type",
    "width",
    "height",
    "alt",
    "caption",
    "storage_key",
    "content_hash",
    "blurhash",
    "dominant_color",
    "focal_x",
    "focal_y",
    "animated",
)


def value(row: MediaItem) -> MediaValue:
    """What a content value that names the item shows of it (content.media_values): enough for an <img>."""
    ready = _ready(row)
    shown: MediaValue = {
        "id": row.id,
        "url": url_for(row.storage_key),
        "mimeType": row.mime_type,
        "filename": row.filename,
        "width": row.width,
        "height": row.height,
        "renditions": ready["renditions"],
        "srcset": ready["srcset"],
    }
    if row.alt:
        shown["alt"] = row.alt
    if row.caption:
        shown["caption"] = row.caption
    if row.blurhash:
        shown["blurhash"] = row.blurhash
    if row.dominant_color:
        shown["dominantColor"] = row.dominant_color
    if (row.focal_x, row.focal_y) != (0.5, 0.5):  # for pages that crop with CSS (object-fit: cover)
        shown["focalPoint"] = {"x": row.focal_x, "y": row.focal_y}
    return shown


def item(row: MediaItem) -> Media:
    focal = (row.focal_x, row.focal_y)
    ready = _ready(row)
    return {
        "id": row.id,
        "filename": row.filename,
        "mimeType": row.mime_type,
        "size": row.size,
        "width": row.width,
        "height": row.height,
        "alt": row.alt,
        "caption": row.caption,
        "url": url_for(row.storage_key),
        "storageKey": row.storage_key,
        "contentHash": row.content_hash or None,
        "blurhash": row.blurhash or None,
        "dominantColor": row.dominant_color or None,
        "focalPoint": {"x": focal[0], "y": focal[1]},
        "renditions": ready["renditions"],
        "srcset": ready["srcset"],
        "authorId": row.author_id,
        "createdAt": iso(row.created_at),
        "updatedAt": iso(row.updated_at),
    }
