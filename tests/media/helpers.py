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


def swapped_rgb_profile() -> bytes:
    """A minimal ICC v2 RGB display profile whose red and green primaries are sRGB's green and red: a pixel
    (255, 0, 0) tagged with it is pure green in sRGB. (No RGB profile but sRGB can be made with ImageCms.)"""
    import struct

    def s15(value: float) -> bytes:
        return struct.pack(">i", round(value * 65536))

    def xyz(x: float, y: float, z: float) -> bytes:
        return b"XYZ \0\0\0\0" + s15(x) + s15(y) + s15(z)

    d50 = (0.9642, 1.0, 0.8249)
    gamma = b"curv\0\0\0\0" + struct.pack(">IH", 1, 0x0233) + b"\0\0"  # gamma 2.2 (u8Fixed8)
    text = b"swapped\0"
    desc = b"desc\0\0\0\0" + struct.pack(">I", len(text)) + text + b"\0" * 8 + b"\0\0\0" + b"\0" * 67
    tags = [
        (b"desc", desc),
        (b"wtpt", xyz(*d50)),
        (b"rXYZ", xyz(0.3851, 0.7169, 0.0971)),  # sRGB's green
        (b"gXYZ", xyz(0.4361, 0.2225, 0.0139)),  # sRGB's red
        (b"bXYZ", xyz(0.1431, 0.0606, 0.7141)),
        (b"rTRC", gamma),
        (b"gTRC", gamma),
        (b"bTRC", gamma),
    ]
    offset = 128 + 4 + 12 * len(tags)
    table, data = b"", b""
    for signature, payload in tags:
        payload += b"\0" * (-len(payload) % 4)
        table += signature + struct.pack(">II", offset + len(data), len(payload))
        data += payload
    total = offset + len(data)
    header = (
        struct.pack(">I", total)
        + b"\0\0\0\0"
        + struct.pack(">I", 0x02100000)
        + b"mntrRGB XYZ "
        + b"\0" * 12
        + b"acsp"
        + b"\0" * 24
        + struct.pack(">I", 0)
        + s15(d50[0])
        + s15(d50[1])
        + s15(d50[2])
        + b"\0" * 48
    )
    assert len(header) == 128
    return header + struct.pack(">I", len(tags)) + table + data
