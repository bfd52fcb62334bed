"""The media operations: the 6 MCP tools plus the REST-only signed-upload steps, one record each."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from emdash.operations import (
    NULLABLE,
    READ,
    WHOLE,
    Cursor,
    Endpoint,
    Input,
    WholeNumber,
    audit_as,
    family,
    limit,
    reference,
)
from emdash.operations.shapes import INTEGER, STRING, array, obj, page_of, shared
from emdash.permissions import Perm
from media import ingest, presenters, selectors, services, uploads, usage, usage_repair
from media.outputs import MEDIA_ITEM

MEDIA = "_emdash/api/media"
UPLOAD = Endpoint(f"{MEDIA}/upload", "media-upload-json")
CONFIRM = Endpoint(f"{MEDIA}/confirm", "media-confirm")
SHARED_ITEM = shared(MEDIA_ITEM, "media_get", "item")
ITEM = obj({"item": SHARED_ITEM}, ["item"])
PAGE = page_of(SHARED_ITEM)
USE_FIX = obj(
    {"mediaId": STRING, "collection": STRING, "id": STRING, "field": STRING}, ["mediaId", "collection", "field"]
)
TICKET = obj(
    {
        "uploadUrl": {"type": "string", "description": "Absolute URL to PUT the bytes to"},
        "method": {"type": "string", "enum": ["PUT"]},
        "storageKey": STRING,
        "expiresAt": STRING,
        "maxSize": INTEGER,
    },
    ["uploadUrl", "method", "storageKey", "expiresAt", "maxSize"],
)

MediaId = Annotated[str, reference("Media item id", 26)]
Filename = Annotated[str, Field(description="Original file name, e.g. photo.jpg", min_length=1, max_length=255)]
MimeType = Annotated[str, Field(description="MIME type, e.g. image/jpeg", min_length=3, max_length=127)]
Alt = Annotated[str | None, NULLABLE, Field(description="Text for screen readers", max_length=1000)]
Caption = Annotated[str | None, NULLABLE, Field(description="Shown with the media", max_length=5000)]
Pixels = Annotated[int, Field(ge=1, le=1_000_000), WHOLE]
Dimension = Annotated[Pixels | None, NULLABLE]


class ListInput(Input):
    mime_type: str | None = Field(
        None, description="Only types starting with this, e.g. image/", min_length=1, max_length=127
    )
    limit: WholeNumber = limit(50, 100)
    cursor: Cursor | None = None


class IdInput(Input):
    id: MediaId


class DeleteInput(IdInput):
    force: bool = Field(False, description="Delete even if content or settings use it (their references dangle)")


class RepairInput(Input):
    media_id: Annotated[str, reference("Media item id", 26)] | None = Field(
        None, description="Repair only this item's uses (default: every item's)"
    )


class CreateInput(Input):
    filename: Filename
    mime_type: MimeType
    storage_key: str = Field(
        description="Key of the stored file, relative to the media root (not a URL)",
        min_length=1,
        max_length=512,
    )
    size: Annotated[int, Field(ge=0), WHOLE] | None = Field(None, description="Size in bytes")
    width: Dimension = Field(None, description="Width in pixels")
    height: Dimension = Field(None, description="Height in pixels")
    content_hash: str | None = Field(
        None,
        description="SHA-256 of the file's bytes (hex, or sha256:hex); checked against the stored file, never trusted",
        min_length=1,
        max_length=128,
    )
    blurhash: str | None = Field(None, description="BlurHash placeholder", min_length=6, max_length=128)
    dominant_color: str | None = Field(None, description="Dominant colour as #rrggbb", pattern="^#[0-9a-fA-F]{6}$")
    alt: Alt = None
    caption: Caption = None


class FocalPoint(Input):
    x: Annotated[float, Field(ge=0, le=1, description="0 = left")]
    y: Annotated[float, Field(ge=0, le=1, description="0 = top")]


class UpdateInput(IdInput):
    alt: Alt = None
    caption: Caption = None
    width: Dimension = Field(None, description="Width in pixels")
    height: Dimension = Field(None, description="Height in pixels")
    focal_point: Annotated[FocalPoint | None, NULLABLE] = Field(
        None, description="Kept in frame by cover crops; null: centre"
    )


class UploadInput(Input):
    filename: Filename
    data: str | None = Field(
        None,
        description="The file's bytes, base64 (large files: use url)",
        min_length=1,
    )
    url: str | None = Field(
        None,
        description="Public http(s) URL to fetch the file from (at most 3 redirects)",
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
        None, description="Size in bytes, if known (checked against the upload limit)"
    )


def _item(row: Any, args: Any) -> dict[str, Any]:
    return {"item": presenters.item(row)}


def _item_with_usage(row: Any, args: Any) -> dict[str, Any]:
    uses = usage.usage_of(row.id)
    return {"item": {**presenters.item(row), "usageCount": len(uses), "usage": uses}}


def _target(args: Any, payload: dict[str, Any]) -> str:
    return f"media/{(payload.get('item') or {}).get('id') or getattr(args, 'id', '')}"


def _ticket(ticket: uploads.Ticket, args: Any) -> dict[str, Any]:
    from django.urls import reverse

    from emdash.dates import iso
    from emdash.origin import absolute

    return {
        "uploadUrl": absolute(reverse("media-upload", kwargs={"token": ticket.token})),
        "method": "PUT",
        "storageKey": ticket.storage_key,
        "expiresAt": iso(ticket.expires_at),
        "maxSize": ticket.max_size,
    }


ONE = Endpoint(f"{MEDIA}/<str:id>", "media-detail")
read = family("media", Perm.MEDIA_READ, **READ)
# Writes answer {item} (the media item with its url) and are audited as media/<id>.
write = family("media", Perm.MEDIA_CREATE, present=_item, output=ITEM, target=_target)
own = write.but(perm=Perm.MEDIA_EDIT_OWN)
# The signed-upload flow (MCP tools too, SPEC 10: a large file without base64): a ticket to PUT the bytes to,
# then the confirm that registers them.
signed = write

read("media_list", "List media", ListInput, selectors.media_list, output=PAGE).describe(
    "List media items, newest first, each with its public url."
)
read(
    "media_get", "Get media item", IdInput, selectors.media_get, ONE.get(), present=_item_with_usage, output=ITEM
).describe("Get one media item: filename, mimeType, size, dimensions, alt, caption, url, and usage (where it is used).")
write("media_create", "Register media", CreateInput, services.media_create).describe(
    "Register a file already in storage at storageKey; "
    "size and image measures are read from it, a mimeType it contradicts is refused. From a URL or base64 bytes, "
    "use media_upload."
)
write("media_upload", "Upload media", UploadInput, ingest.media_upload, UPLOAD.post(status=201)).describe(
    "Add a file to the media library from data (base64) or url (give one). The bytes decide the type "
    "(HTML and SVG are refused); images are measured; the same bytes again return the existing item."
)
own(
    "media_update", "Update media item", UpdateInput, services.media_update, ONE.put(), ONE.patch(), idempotent=True
).describe("Change a media item's alt, caption, width, height (null clears) or focalPoint.")
own.gone("media_delete", "Delete media item", DeleteInput, services.media_delete, ONE.delete("query")).describe(
    "Permanently delete a media item and its file. Refused with MEDIA_IN_USE (listing the uses) while content "
    "or settings use it, unless force: true."
)
REPAIRED = obj(
    {
        "scanned": INTEGER,
        "usages": INTEGER,
        "added": array(USE_FIX),
        "removed": array(USE_FIX),
        "addedCount": INTEGER,
        "removedCount": INTEGER,
        "retitled": INTEGER,
    },
    ["scanned", "usages", "added", "removed", "addedCount", "removedCount", "retitled"],
)
family("media", Perm.MEDIA_USAGE_REPAIR, output=REPAIRED, idempotent=True, target=audit_as("media/usage"))(
    "media_usage_repair",
    "Repair media usage index",
    RepairInput,
    usage_repair.media_usage_repair,
    Endpoint(f"{MEDIA}/usage/repair", "media-usage-repair").post(),
).describe(
    "Rebuild the media usage index from content and settings; mediaId: only that item's uses. Reports the "
    "uses added and removed (first 100 of each)."
)
signed(
    "media_upload_url",
    "Get a signed upload URL",
    UploadUrlInput,
    uploads.upload_ticket,
    present=_ticket,
    output=TICKET,
    target=audit_as("media/{payload[storageKey]}"),
).describe(
    "For large files: get a signed uploadUrl to PUT the raw bytes to (with Content-Type; expires at expiresAt), "
    "then call media_confirm with the storageKey."
)
signed("media_confirm", "Confirm signed upload", ConfirmInput, uploads.confirm, CONFIRM.post(status=201)).describe(
    "Register a file PUT to media_upload_url's uploadUrl as a media item (checked and measured like media_upload)."
)
