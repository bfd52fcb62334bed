"""What the media operations return, typed once: the presenter's return type and the output JSON Schema."""

from __future__ import annotations

from typing import Annotated, Required, TypedDict

from pydantic import Field

from content.entries.outputs import Timestamp
from emdash.operations.shapes import STRING
from emdash.operations.typed import Schema, schema_of


class FocalPoint(TypedDict):
    x: float
    y: float


RENDITIONS = {
    "type": ["object", "null"],
    "description": "Ready rendition URLs (thumbnail, medium, large, openGraph); null for non-images",
    "additionalProperties": STRING,
}


class Usage(TypedDict, total=False):
    """One place a media item is used; settings uses carry no id or title."""

    collection: Required[str]
    id: str
    title: str
    field: Required[str]


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
    focalPoint: Annotated[FocalPoint, Field(description="Where cover crops stay centred (0..1)")]
    renditions: Annotated[dict[str, str] | None, Schema(RENDITIONS)]
    srcset: Annotated[str | None, Field(description="For <img srcset>: resized versions and their widths")]
    authorId: int | None
    usageCount: int
    usage: Annotated[list[Usage], Field(description='Where it is used (media_get); collection "settings": a setting')]
    createdAt: Timestamp
    updatedAt: Timestamp


MEDIA_ITEM = schema_of(Media, "A media item with its public url")
