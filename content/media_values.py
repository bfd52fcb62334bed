"""Media references as reads show them: the stored ``{"id", "alt"?, ...}`` plus the media item's details.

An image or file value, and the ``asset`` of a Portable Text image, is stored as a reference. Reads add what a
page or a client needs to show it without another call (SPEC 11): the url, the mime type and file name, the
upright width and height, the placeholders, the ready rendition URLs and a ``srcset``. The stored ``alt`` and
``caption`` win over the library's. The added keys are never stored: writes drop them (a client may send back a
value it read), and reads recompute them, so they follow the library (a new focal point, a replaced file).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Required, TypedDict

from pydantic import Field


class MediaValue(TypedDict, total=False):
    """An image/file value or inline image asset as reads show it; alt, caption and the placeholders only when
    there are some."""

    id: Required[str]
    alt: str
    caption: str
    url: str
    mimeType: str
    filename: str
    width: int | None
    height: int | None
    blurhash: str
    dominantColor: str
    focalPoint: Annotated[dict[str, float], Field(description="{x, y} in 0..1, when not the centre")]
    renditions: Annotated[dict[str, str] | None, Field(description="thumbnail, medium, large, openGraph")]
    srcset: str | None


# The keys reads add from the media item (alt and caption are the reference's own when it has them).
OWN = frozenset({"id", "alt", "caption"})
ADDED = frozenset(MediaValue.__annotations__) - OWN
Details = Mapping[str, MediaValue]  # by upper-case media id, as the media app hands them over


def stored(value: dict[str, Any]) -> dict[str, Any]:
    """The reference without the keys reads add."""
    return {key: item for key, item in value.items() if key not in ADDED}


def shown(value: Any, found: Details) -> Any:
    """The reference with its media's details (the stored alt and caption win); a reference to an item that is
    gone is shown as stored."""
    if not isinstance(value, dict) or not isinstance(value.get("id"), str):
        return value
    own = stored(value)
    details = found.get(value["id"].upper())
    if details is None:
        return own
    merged: dict[str, Any] = {**details, **own}
    for key in ("alt", "caption"):  # an empty own text falls back to the library's
        if not own.get(key) and details.get(key):
            merged[key] = details[key]
    return merged
