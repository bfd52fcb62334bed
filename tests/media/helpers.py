"""Builders for media tests: image bytes, files placed in storage, registered items."""

from __future__ import annotations

import io
import itertools
from typing import Any

from django.core.files.base import ContentFile
from PIL import Image

from emdash.actor import Actor
from media import services, storage
from media.models import MediaItem

_seq = itertools.count(1)


def image_bytes(
    fmt: str = "PNG", size: tuple[int, int] = (40, 20), colour: tuple[int, int, int] = (200, 16, 32)
) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, colour).save(buffer, format=fmt)
    return buffer.getvalue()


PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def place(content: bytes, key: str | None = None, ext: str = ".png") -> str:
    """Put bytes into the media storage and return the key."""
    key = key or f"incoming/file-{next(_seq)}{ext}"
    saved = storage.storage().save(key, ContentFile(content))
    assert saved == key
    return key


def make_media(by: Actor, *, content: bytes | None = None, mime_type: str = "image/png", **extra: Any) -> MediaItem:
    ext = {"image/png": ".png", "image/jpeg": ".jpg", "application/pdf": ".pdf"}.get(mime_type, ".bin")
    key = place(image_bytes() if content is None else content, ext=ext)
    return services.media_create(
        actor=by, filename=extra.pop("filename", f"file{ext}"), mime_type=mime_type, storage_key=key, **extra
    )


def media_rows(*ids: str) -> list[MediaItem]:
    """Media items with these ids and no stored file: enough for content fields that reference media."""
    return [
        MediaItem.objects.create(id=i, filename=f"{i}.png", mime_type="image/png", storage_key=f"refs/{i}.png")
        for i in ids
    ]
