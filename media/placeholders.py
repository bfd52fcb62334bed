"""What a page shows while an image loads: its BlurHash and its dominant colour, computed once at upload.

BlurHash comes from the ``blurhash`` package (pure Python, no build step on any supported Python; maintained),
fed a 32-px thumbnail, so the cost is the same small one for any image size (about 10 ms). Wolt's C encoder
(``blurhash-python``) was set aside: it calls ``Image.getdata``, which Pillow 14 removes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import blurhash
from PIL import Image, ImageOps

from media.images import alpha_low

# Detail of the BlurHash: 4 horizontal x 3 vertical components (a 28-character hash), the usual choice.
COMPONENTS = (4, 3)
THUMB = 32


@dataclass(frozen=True)
class Placeholders:
    blurhash: str = ""
    dominant_color: str = ""
    has_alpha: bool | None = None


def compute(image: Image.Image) -> Placeholders:
    """Placeholders of an open (not yet decoded) image; a file Pillow cannot fully decode gets none."""
    try:
        image.draft("RGB", (THUMB * 4, THUMB * 4))  # JPEG: decode at a reduced scale
        upright = ImageOps.exif_transpose(image) or image
        thumb = upright.convert("RGBA")
        thumb.thumbnail((64, 64))
    except Exception:  # a truncated or exotic image still gets its dimensions
        return Placeholders()
    return Placeholders(_blurhash(thumb), dominant_colour(thumb), alpha_low(thumb) < 255)


def _blurhash(thumb: Image.Image) -> str:
    small = thumb.copy()
    small.thumbnail((THUMB, THUMB))
    try:
        rgb = small.convert("RGB")
        raw, (width, height) = rgb.tobytes(), rgb.size
        rows = [[list(raw[(y * width + x) * 3 : (y * width + x) * 3 + 3]) for x in range(width)] for y in range(height)]
        return str(blurhash.encode(rows, *COMPONENTS))
    except Exception:
        return ""


def dominant_colour(thumb: Image.Image) -> str:
    """The most common colour (5 bits a channel, opaque pixels only) of an RGBA thumbnail, as ``#rrggbb``."""
    raw = thumb.tobytes()
    pixels = [(raw[i], raw[i + 1], raw[i + 2]) for i in range(0, len(raw) - 3, 4) if raw[i + 3] >= 128]
    if not pixels:
        return ""
    buckets = Counter((r >> 3, g >> 3, b >> 3) for r, g, b in pixels)
    top = buckets.most_common(1)[0][0]
    chosen = [p for p in pixels if (p[0] >> 3, p[1] >> 3, p[2] >> 3) == top]
    r, g, b = (sum(p[i] for p in chosen) // len(chosen) for i in range(3))
    return f"#{r:02x}{g:02x}{b:02x}"
