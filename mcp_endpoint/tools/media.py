"""The 5 media tools: thin adapters over media.services and media.selectors."""

from __future__ import annotations

from typing import Any

from emdash.actor import Actor
from emdash.permissions import Perm
from mcp_endpoint.registry import tool
from mcp_endpoint.schemas import CURSOR, DATETIME, DELETED, limit, obj, string
from media import presenters, selectors, services

MEDIA_ID = string("Media item ID (ULID)", minLength=1, maxLength=26)
NULLABLE_INT = {"type": ["integer", "null"]}
DIMENSION = {"type": ["integer", "null"], "minimum": 1, "maximum": 1_000_000}
ALT = {"type": ["string", "null"], "maxLength": 1000, "description": "Alternative text for screen readers"}
CAPTION = {"type": ["string", "null"], "maxLength": 5000, "description": "Caption shown with the media"}

MEDIA_ITEM = {
    "type": "object",
    "description": "A media item with its public url",
    "properties": {
        "id": {"type": "string"},
        "filename": {"type": "string"},
        "mimeType": {"type": "string"},
        "size": NULLABLE_INT,
        "width": NULLABLE_INT,
        "height": NULLABLE_INT,
        "alt": {"type": "string"},
        "caption": {"type": "string"},
        "url": {"type": "string"},
        "storageKey": {"type": "string"},
        "contentHash": {"type": ["string", "null"]},
        "blurhash": {"type": ["string", "null"]},
        "dominantColor": {"type": ["string", "null"]},
        "authorId": NULLABLE_INT,
        "createdAt": DATETIME,
        "updatedAt": DATETIME,
    },
    "required": ["id", "filename", "mimeType", "url", "storageKey"],
}
ITEM = {"type": "object", "properties": {"item": MEDIA_ITEM}, "required": ["item"]}


@tool(
    "media_list",
    title="List media",
    category="media",
    perm=Perm.MEDIA_READ,
    read_only=True,
    idempotent=True,
    description="List media items, newest first, optionally only those whose MIME type starts with mimeType "
    "(e.g. image/). Each item has its public url.",
    input=obj(
        {
            "mimeType": string("MIME type prefix filter, e.g. image/ or application/pdf", minLength=1, maxLength=127),
            "limit": limit(50, 100),
            "cursor": CURSOR,
        }
    ),
    output={
        "type": "object",
        "properties": {"items": {"type": "array", "items": MEDIA_ITEM}, "nextCursor": {"type": "string"}},
        "required": ["items"],
    },
)
def media_list(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    return selectors.media_list(
        actor=actor, mime_type=a.get("mimeType"), limit=a.get("limit", 50), cursor=a.get("cursor")
    ).to_dict()


@tool(
    "media_get",
    title="Get media item",
    category="media",
    perm=Perm.MEDIA_READ,
    read_only=True,
    idempotent=True,
    description="Get one media item: filename, mimeType, size, width, height, alt, caption, url and more.",
    input=obj({"id": MEDIA_ID}, ("id",)),
    output=ITEM,
)
def media_get(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    return {"item": presenters.item(selectors.media_get(actor=actor, id=a["id"]))}


@tool(
    "media_create",
    title="Register media",
    category="media",
    perm=Perm.MEDIA_CREATE,
    description="Register a file already uploaded to storage at storageKey (relative to the media root; get one "
    "from POST /_emdash/api/media/upload-url). Size, and for images width, height and colour, are read from the "
    "file; a mimeType the bytes contradict is refused.",
    input=obj(
        {
            "filename": string("Original file name, e.g. photo.jpg", minLength=1, maxLength=255),
            "mimeType": string("MIME type, e.g. image/jpeg", minLength=3, maxLength=127),
            "storageKey": string("Storage key relative to the media root", minLength=1, maxLength=512),
            "size": {"type": "integer", "minimum": 0, "description": "Size in bytes (checked against the file)"},
            "width": {**DIMENSION, "description": "Width in pixels (measured for images)"},
            "height": {**DIMENSION, "description": "Height in pixels (measured for images)"},
            "contentHash": string("Content hash of the file", minLength=1, maxLength=128),
            "blurhash": string("BlurHash placeholder", minLength=6, maxLength=128),
            "dominantColor": string("Dominant colour as #rrggbb", pattern="^#[0-9a-fA-F]{6}$"),
            "alt": ALT,
            "caption": CAPTION,
        },
        ("filename", "mimeType", "storageKey"),
    ),
    output=ITEM,
)
def media_create(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    row = services.media_create(
        actor=actor,
        filename=a["filename"],
        mime_type=a["mimeType"],
        storage_key=a["storageKey"],
        size=a.get("size"),
        width=a.get("width"),
        height=a.get("height"),
        content_hash=a.get("contentHash"),
        blurhash=a.get("blurhash"),
        dominant_color=a.get("dominantColor"),
        alt=a.get("alt"),
        caption=a.get("caption"),
    )
    return {"item": presenters.item(row)}


@tool(
    "media_update",
    title="Update media item",
    category="media",
    perm=Perm.MEDIA_EDIT_OWN,
    idempotent=True,
    description="Change a media item's alt text, caption, width or height (null clears). Authors may change "
    "their own uploads; editors any.",
    input=obj({"id": MEDIA_ID, "alt": ALT, "caption": CAPTION, "width": DIMENSION, "height": DIMENSION}, ("id",)),
    output=ITEM,
)
def media_update(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    changes = {k: a[k] for k in ("alt", "caption", "width", "height") if k in a}
    return {"item": presenters.item(services.media_update(actor=actor, id=a["id"], **changes))}


@tool(
    "media_delete",
    title="Delete media item",
    category="media",
    perm=Perm.MEDIA_EDIT_OWN,
    destructive=True,
    description="Delete a media item and its stored file, permanently. Content that references it keeps a "
    "dangling reference.",
    input=obj({"id": MEDIA_ID}, ("id",)),
    output=DELETED,
)
def media_delete(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    services.media_delete(actor=actor, id=a["id"])
    return {"deleted": True}
