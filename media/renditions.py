"""Renditions: which sizes, fits and formats exist, how a request names one, and the key it is stored under.

``/_emdash/media/{id}/{width}x{height}/{fit}.{format}`` (SPEC 11). Widths and heights come from a bounded list
(``EMDASH_IMAGE_SIZES``; 0 keeps the ratio; 1200x630 for Open Graph is always allowed) so nobody can make the
server render unbounded variants. A rendition's storage key hashes everything that decides its pixels (the
original's bytes, size, fit, format, quality, focal point for ``cover``, the pipeline's version): the same key
always holds the same bytes, and any change makes a new key.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from emdash.conf import emdash_settings
from emdash.errors import ValidationError
from emdash.numbers import plain_int
from media.images import MIME, Box

FITS = ("cover", "contain", "inside")
FORMATS = ("webp", "avif", "jpeg", "png", "auto")
OPEN_GRAPH = (1200, 630)
# Bump when the pipeline's output changes (resampling, encoder options): every key changes with it.
PIPELINE = "1"
PREFIX = "renditions"
# The few ready URLs media results carry, and the widths of their srcset (capped at the original's width).
PRESET_WIDTHS = (320, 640, 960, 1280, 1920)


def sizes() -> tuple[int, ...]:
    return tuple(sorted({int(size) for size in emdash_settings.IMAGE_SIZES if int(size) > 0}))


def quality(fmt: str) -> int:
    configured = emdash_settings.IMAGE_QUALITY
    value = configured.get(fmt, 80) if isinstance(configured, dict) else configured
    return max(1, min(int(value), 100))


@dataclass(frozen=True)
class Spec:
    """A rendition as the URL names it (``fmt`` may still be ``auto``)."""

    width: int
    height: int
    fit: str
    fmt: str

    @property
    def path(self) -> str:
        return f"{self.width}x{self.height}/{self.fit}.{self.fmt}"


def parse(size: str, fit: str, fmt: str) -> Spec:
    """The spec a URL asks for, or VALIDATION_ERROR naming what is outside the allowed lists."""
    problems: dict[str, str] = {}
    width = height = 0
    parts = size.split("x")
    numbers = [plain_int(part) if len(part) <= 5 else None for part in parts]  # 5 digits at most each
    # Written the one way (no leading zeros): "0640x0" would be an alias a cache in front keeps as another image.
    if len(numbers) != 2 or None in numbers or any(str(n) != part for n, part in zip(numbers, parts, strict=True)):
        problems["size"] = "must be WIDTHxHEIGHT, e.g. 640x0 (plain numbers, no leading zeros)"
    else:
        width, height = int(parts[0]), int(parts[1])
        allowed = {0, *sizes()}
        if (width, height) != OPEN_GRAPH and (width not in allowed or height not in allowed):
            problems["size"] = f"width and height must each be 0 or one of {', '.join(map(str, sizes()))}"
    if fit not in FITS:
        problems["fit"] = f"must be one of {', '.join(FITS)}"
    if fmt not in FORMATS:
        problems["format"] = f"must be one of {', '.join(FORMATS)}"
    if problems:
        raise ValidationError.for_fields(problems, prefix="Invalid rendition")
    return Spec(width, height, fit, fmt)


def negotiate(fmt: str, accept: str, transparent: bool) -> str:
    """``auto``: AVIF or WebP where the client accepts them, else PNG for transparency, else JPEG."""
    if fmt != "auto":
        return fmt
    offered = {part.split(";")[0].strip().lower() for part in accept.split(",")}
    for candidate in ("avif", "webp"):
        if MIME[candidate] in offered:
            return candidate
    return "png" if transparent else "jpeg"


def box(spec: Spec, focal_x: float, focal_y: float) -> Box:
    return Box(spec.width, spec.height, spec.fit, focal_x, focal_y)


def version(content_hash: str, focal_x: float, focal_y: float) -> str:
    """Changes when the file or the focal point changes: the ``v`` of versioned (immutable) rendition URLs."""
    return hashlib.sha256(f"{content_hash}|{focal_x:.4f}|{focal_y:.4f}|{PIPELINE}".encode()).hexdigest()[:12]


def key(media_id: str, content_hash: str, spec: Spec, fmt: str, focal: tuple[float, float]) -> str:
    """``renditions/<media id>/<digest>.<ext>``: one folder per original (deleted with it), a digest per output."""
    fx, fy = focal if spec.fit == "cover" else (0.5, 0.5)
    recipe = f"{content_hash}|{spec.width}x{spec.height}|{spec.fit}|{fmt}|{quality(fmt)}|{fx:.4f},{fy:.4f}|{PIPELINE}"
    digest = hashlib.sha256(recipe.encode()).hexdigest()[:32]
    return f"{PREFIX}/{media_id.lower()}/{digest}.{'jpg' if fmt == 'jpeg' else fmt}"


def folder(media_id: str) -> str:
    return f"{PREFIX}/{media_id.lower()}/"


def renditionable(mime_type: Any) -> bool:
    """Raster images Pillow reads; SVG and everything else are served as they are."""
    return isinstance(mime_type, str) and mime_type in RASTER


RASTER = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp", "image/bmp", "image/tiff", "image/avif"})
