"""The media operations: the 6 MCP tools plus the REST-only signed-upload steps, one record each."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from content.outputs import DATETIME, DELETED
from emdash.operations import NULLABLE, WHOLE, Input, Route, WholeNumber, declare
from emdash.permissions import Perm
from media import ingest, presenters, selectors, services, uploads

MEDIA = "_emdash/api/media"
NULLABLE_INT = {"type": ["integer", "null"]}
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
PAGE = {
    "type": "object",
    "properties": {"items": {"type": "array", "items": MEDIA_ITEM}, "nextCursor": {"type": "string"}},
    "required": ["items"],
}
TICKET = {
    "type": "object",
    "properties": {
        "uploadUrl": {"type": "string", "description": "Absolute URL to PUT the bytes to"},
        "method": {"type": "string", "enum": ["PUT"]},
        "storageKey": {"type": "string"},
        "expiresAt": {"type": "string"},
        "maxSize": {"type": "integer"},
    },
    "required": ["uploadUrl", "method", "storageKey", "expiresAt", "maxSize"],
}

MediaId = Annotated[str, Field(description="Media item ID (ULID)", min_length=1, max_length=26)]
Filename = Annotated[str, Field(description="Original file name, e.g. photo.jpg", min_length=1, max_length=255)]
MimeType = Annotated[str, Field(description="MIME type, e.g. image/jpeg", min_length=3, max_length=127)]
Alt = Annotated[str | None, NULLABLE, Field(description="Alternative text for screen readers", max_length=1000)]
Caption = Annotated[str | None, NULLABLE, Field(description="Caption shown with the media", max_length=5000)]
Pixels = Annotated[int, Field(ge=1, le=1_000_000), WHOLE]
Dimension = Annotated[Pixels | None, NULLABLE]


class ListInput(Input):
    mime_type: str | None = Field(
        None, description="MIME type prefix filter, e.g. image/ or application/pdf", min_length=1, max_length=127
    )
    limit: WholeNumber = Field(50, ge=1, le=100, description="Maximum number of items (1-100, default 50)")
    cursor: str | None = Field(
        None, description="Opaque cursor from the previous page's nextCursor", min_length=1, max_length=2048
    )


class IdInput(Input):
    id: MediaId


class CreateInput(Input):
    filename: Filename
    mime_type: MimeType
    storage_key: str = Field(
        description="Storage key relative to the media root (not a URL: use media_upload for those)",
        min_length=1,
        max_length=512,
    )
    size: Annotated[int, Field(ge=0), WHOLE] | None = Field(
        None, description="Size in bytes (checked against the file)"
    )
    width: Dimension = Field(None, description="Width in pixels (measured for images)")
    height: Dimension = Field(None, description="Height in pixels (measured for images)")
    content_hash: str | None = Field(None, description="Content hash of the file", min_length=1, max_length=128)
    blurhash: str | None = Field(None, description="BlurHash placeholder", min_length=6, max_length=128)
    dominant_color: str | None = Field(None, description="Dominant colour as #rrggbb", pattern="^#[0-9a-fA-F]{6}$")
    alt: Alt = None
    caption: Caption = None


class UpdateInput(IdInput):
    alt: Alt = None
    caption: Caption = None
    width: Dimension = None
    height: Dimension = None


class UploadInput(Input):
    filename: Filename
    data: str | None = Field(
        None,
        description="The file's bytes, base64-encoded (at most MAX_UPLOAD bytes once decoded; the MCP request "
        "body limit applies to the encoded text, so send large files by url)",
        min_length=1,
    )
    url: str | None = Field(
        None,
        description="An http(s) URL to fetch the file from (public addresses only; at most 3 redirects)",
        min_length=1,
        max_length=2048,
    )
    alt: Alt = None
    caption: Caption = None


class ConfirmInput(Input):
    storage_key: str = Field(description="The storageKey from upload-url", min_length=1, max_length=512)
    filename: Filename
    mime_type: MimeType
    alt: Alt = None
    caption: Caption = None


class UploadUrlInput(Input):
    filename: Filename
    mime_type: MimeType
    size: Annotated[int, Field(ge=1), WHOLE] | None = Field(
        None, description="Size in bytes, if known (checked against MAX_UPLOAD)"
    )


def _item(row: Any, args: Any) -> dict[str, Any]:
    return {"item": presenters.item(row)}


def _deleted(result: None, args: Any) -> dict[str, Any]:
    return {"deleted": True}


def _target(args: Any, payload: dict[str, Any]) -> str:
    return f"media/{(payload.get('item') or {}).get('id') or getattr(args, 'id', '')}"


def _ticket(ticket: uploads.Ticket, args: Any) -> dict[str, Any]:
    from django.urls import reverse

    from emdash.dates import iso

    return {
        "uploadUrl": reverse("media-upload", kwargs={"token": ticket.token}),  # the REST view makes it absolute
        "method": "PUT",
        "storageKey": ticket.storage_key,
        "expiresAt": iso(ticket.expires_at),
        "maxSize": ticket.max_size,
    }


READ = {"category": "media", "perm": Perm.MEDIA_READ, "read_only": True, "idempotent": True}

declare(
    name="media_list",
    title="List media",
    description="List media items, newest first, optionally only those whose MIME type starts with mimeType "
    "(e.g. image/). Each item has its public url.",
    input=ListInput,
    service=selectors.media_list,
    present=lambda page, args: page.to_dict(),
    output_schema=PAGE,
    **READ,
)
declare(
    name="media_get",
    title="Get media item",
    description="Get one media item: filename, mimeType, size, width, height, alt, caption, url and more.",
    input=IdInput,
    service=selectors.media_get,
    present=_item,
    output_schema=ITEM,
    routes=(Route("GET", f"{MEDIA}/<str:id>", name="media-detail"),),
    **READ,
)
declare(
    name="media_create",
    title="Register media",
    category="media",
    perm=Perm.MEDIA_CREATE,
    description="Register a file already uploaded to storage at storageKey (relative to the media root; get one "
    "from POST /_emdash/api/media/upload-url). Size, and for images width, height and colour, are read from the "
    "file; a mimeType the bytes contradict is refused. To add a file from a URL or from base64 bytes, use "
    "media_upload.",
    input=CreateInput,
    service=services.media_create,
    present=_item,
    output_schema=ITEM,
    target=_target,
)
declare(
    name="media_upload",
    title="Upload media",
    category="media",
    perm=Perm.MEDIA_CREATE,
    description="Add a file to the media library from base64 data or from a public http(s) URL (give exactly "
    "one), with its filename and optional alt and caption. The bytes decide the type (only allowed media types; "
    "HTML and SVG are refused); images are measured. Uploading the same bytes again returns the existing item. "
    "Returns {item} with its url.",
    input=UploadInput,
    service=ingest.media_upload,
    present=_item,
    output_schema=ITEM,
    target=_target,
    routes=(Route("POST", f"{MEDIA}/upload", args="body", status=201, name="media-upload-json"),),
)
declare(
    name="media_update",
    title="Update media item",
    category="media",
    perm=Perm.MEDIA_EDIT_OWN,
    idempotent=True,
    description="Change a media item's alt text, caption, width or height (null clears). Authors may change "
    "their own uploads; editors any.",
    input=UpdateInput,
    service=services.media_update,
    present=_item,
    output_schema=ITEM,
    target=_target,
    routes=(
        Route("PUT", f"{MEDIA}/<str:id>", args="body", name="media-detail"),
        Route("PATCH", f"{MEDIA}/<str:id>", args="body", name="media-detail"),
    ),
)
declare(
    name="media_delete",
    title="Delete media item",
    category="media",
    perm=Perm.MEDIA_EDIT_OWN,
    destructive=True,
    description="Delete a media item and its stored file, permanently. Content that references it keeps a "
    "dangling reference.",
    input=IdInput,
    service=services.media_delete,
    present=_deleted,
    output_schema=DELETED,
    target=_target,
    routes=(Route("DELETE", f"{MEDIA}/<str:id>", name="media-detail"),),
)
# The signed-upload flow (REST only): a ticket to PUT the bytes to, then the confirm that registers them.
declare(
    name="media_upload_url",
    title="Get a signed upload URL",
    category="media",
    perm=Perm.MEDIA_CREATE,
    description="Reserve a storage key and get a signed URL to PUT the file to; then POST .../media/confirm.",
    input=UploadUrlInput,
    service=uploads.upload_ticket,
    present=_ticket,
    output_schema=TICKET,
    target=lambda args, payload: f"media/{payload.get('storageKey', '')}",
    mcp=False,
)
declare(
    name="media_confirm",
    title="Register a signed upload",
    category="media",
    perm=Perm.MEDIA_CREATE,
    description="Register a file PUT to a signed upload URL.",
    input=ConfirmInput,
    service=uploads.confirm,
    present=_item,
    output_schema=ITEM,
    target=_target,
    routes=(Route("POST", f"{MEDIA}/confirm", args="body", status=201, name="media-confirm"),),
    mcp=False,
)
