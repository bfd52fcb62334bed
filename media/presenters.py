"""Media items as MCP, REST and templates see them."""

from __future__ import annotations

from emdash.dates import iso
from media import responsive
from media.models import MediaItem
from media.outputs import Media
from media.storage import url_for


def item(row: MediaItem) -> Media:
    focal = (row.focal_x, row.focal_y)
    ready = responsive.describe(
        media_id=row.id, mime_type=row.mime_type, width=row.width, content_hash=row.content_hash, focal=focal
    )
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
