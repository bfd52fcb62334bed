"""What the media operations return, typed once: the presenter's return type and the output JSON Schema."""

from __future__ import annotations

from typing import Required, TypedDict

from content.entries.outputs import Timestamp
from emdash.operations.typed import schema_of


class Media(TypedDict, total=False):
    id: Required[str]
    filename: Required[str]
    mimeType: Required[str]
    size: int | None
    width: int | None
    height: int | None
    alt: str
    caption: str
    url: Required[str]
    storageKey: Required[str]
    contentHash: str | None
    blurhash: str | None
    dominantColor: str | None
    authorId: int | None
    createdAt: Timestamp
    updatedAt: Timestamp


MEDIA_ITEM = schema_of(Media, "A media item with its public url")
