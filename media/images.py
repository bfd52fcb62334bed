"""Image work with Pillow: safe opening, upright orientation, sRGB, resizing with a focal point, clean encoding.

Everything that decodes pixels goes through :func:`open_checked`, which refuses decompression bombs and absurd
dimensions from the header alone, before a single pixel is decoded.
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, Any

from PIL import Image, ImageCms, ImageOps

from emdash.errors import EmDashError


class UnsupportedImage(EmDashError):
    """The file is no image we can make renditions of (not an image, animated, too large, corrupt)."""

    code, status = "UNSUPPORTED_IMAGE", 415


# Formats renditions are written in, and the MIME type of each.
ENCODERS = {"webp": "WEBP", "avif": "AVIF", "jpeg": "JPEG", "png": "PNG"}
MIME = {"webp": "image/webp", "avif": "image/avif", "jpeg": "image/jpeg", "png": "image/png"}
# Pillow refuses more than this many pixels (its own bomb guard warns at MAX_IMAGE_PIXELS; we make that an error).
MAX_PIXELS = Image.MAX_IMAGE_PIXELS or 89_478_485
MAX_SIDE = 30_000
_SRGB = ImageCms.createProfile("sRGB")


def too_large(width: int | None, height: int | None) -> bool:
    """Whether every rendition of an image this size would be refused (too many pixels or a side too long):
    results then offer only the original, as for animated images."""
    if not width or not height:
        return False
    return width * height > MAX_PIXELS or max(width, height) > MAX_SIDE


@dataclass(frozen=True)
class Box:
    """A rendition request after the size rules: target width/height (0 = free), fit, focal point."""

    width: int
    height: int
    fit: str
    focal_x: float = 0.5
    focal_y: float = 0.5


@contextmanager
def open_checked(handle: IO[bytes]) -> Iterator[Image.Image]:
    """Open an image and check its size from the header; nothing is decoded yet."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(handle)
            width, height = image.size
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise UnsupportedImage("The image has too many pixels to process") from None
    except Exception:
        raise UnsupportedImage("The file is not an image this server can resize") from None
    try:
        if too_large(width, height) or min(width, height) < 1:
            raise UnsupportedImage("The image's dimensions are too large to process")
        yield image
    finally:
        image.close()


def upright_size(image: Image.Image) -> tuple[int, int]:
    """The displayed size: EXIF orientations 5-8 swap width and height."""
    try:
        orientation = image.getexif().get(0x0112, 1)
    except Exception:
        orientation = 1
    width, height = image.size
    return (height, width) if orientation in (5, 6, 7, 8) else (width, height)


def is_animated(image: Image.Image) -> bool:
    return bool(getattr(image, "is_animated", False)) and int(getattr(image, "n_frames", 1)) > 1


def prepare(image: Image.Image) -> Image.Image:
    """Decoded, upright, in sRGB and in RGB or RGBA; no metadata carried over."""
    upright = ImageOps.exif_transpose(image) or image
    icc = upright.info.get("icc_profile")
    has_alpha = upright.mode in ("RGBA", "LA", "PA") or (upright.mode == "P" and "transparency" in upright.info)
    converted = upright.convert("RGBA" if has_alpha else "RGB")
    if icc:
        converted = _to_srgb(converted, icc)
    converted.info = {}
    return converted


def _to_srgb(image: Image.Image, icc: bytes) -> Image.Image:
    try:
        source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        return ImageCms.profileToProfile(image, source, _SRGB, outputMode=image.mode) or image
    except Exception:  # a broken profile: keep the pixels as they are (as browsers do)
        return image


def has_alpha(image: Image.Image) -> bool:
    if image.mode != "RGBA":
        return False
    return alpha_low(image) < 255


def alpha_low(image: Image.Image) -> int:
    """The lowest alpha value of an RGBA image (255: fully opaque)."""
    extrema: Any = image.getchannel("A").getextrema()
    return int(extrema[0] if isinstance(extrema, tuple) else extrema)


def _cover_crop(width: int, height: int, box: Box) -> tuple[int, int, int, int]:
    """The largest region of the box's aspect ratio, centred on the focal point as far as the edges allow."""
    aspect = box.width / box.height
    crop_w, crop_h = (width, round(width / aspect)) if width / height < aspect else (round(height * aspect), height)
    crop_w, crop_h = max(1, min(crop_w, width)), max(1, min(crop_h, height))
    left = min(max(round(box.focal_x * width - crop_w / 2), 0), width - crop_w)
    top = min(max(round(box.focal_y * height - crop_h / 2), 0), height - crop_h)
    return left, top, left + crop_w, top + crop_h


def _scale_within(width: int, height: int, max_w: int, max_h: int) -> tuple[int, int]:
    """Fit inside max_w x max_h (0 = unbounded), never larger than the original."""
    scale = min(1.0, max_w / width if max_w else 1.0, max_h / height if max_h else 1.0)
    return max(1, round(width * scale)), max(1, round(height * scale))


def cover_size(width: int, height: int, box: Box) -> tuple[int, int]:
    """The size of a ``cover`` rendition of an upright ``width`` x ``height`` image (what og:image:width and
    og:image:height announce before anything is rendered)."""
    region = _cover_crop(width, height, box)
    crop_w, crop_h = region[2] - region[0], region[3] - region[1]
    if crop_w > box.width:  # the region is scaled down to the box; when smaller, its pixels are kept as they are
        return box.width, box.height
    return min(box.width, crop_w), min(box.height, crop_h)


def resize(image: Image.Image, box: Box, background: str = "") -> Image.Image:
    """Resize a prepared image to the box; never upscaled (a rendition is at most the original's size)."""
    width, height = image.size
    if box.fit == "cover" and box.width and box.height:
        region = _cover_crop(width, height, box)
        target = cover_size(width, height, box)
        return image.resize(target, Image.Resampling.LANCZOS, box=region, reducing_gap=3.0)
    target = _scale_within(width, height, box.width, box.height)
    resized = image if target == (width, height) else image.resize(target, Image.Resampling.LANCZOS, reducing_gap=3.0)
    if box.fit != "contain" or not (box.width and box.height):
        return resized
    # contain: letterbox onto the box (shrunk with the image when the image is smaller than the box)
    shrink = min(1.0, max(width / box.width, height / box.height))
    canvas_size = (max(target[0], round(box.width * shrink)), max(target[1], round(box.height * shrink)))
    fill = (0, 0, 0, 0) if resized.mode == "RGBA" else (background or "#ffffff")
    canvas = Image.new(resized.mode, canvas_size, fill)
    canvas.paste(resized, ((canvas_size[0] - target[0]) // 2, (canvas_size[1] - target[1]) // 2))
    return canvas


def encode(image: Image.Image, fmt: str, quality: int) -> bytes:
    """The image in ``fmt`` with no metadata at all (no EXIF, GPS, XMP or ICC profile: sRGB is implied)."""
    out = io.BytesIO()
    if fmt == "jpeg" and image.mode != "RGB":
        image = _flatten(image)
    image.info = {}
    options: dict[str, object] = {"exif": b"", "icc_profile": None}
    if fmt == "jpeg":
        options.update(quality=quality, optimize=True, progressive=True)
    elif fmt == "webp":
        options.update(quality=quality, method=4)
    elif fmt == "avif":
        options.update(quality=quality, speed=8)
    elif fmt == "png":
        options = {"optimize": False, "compress_level": 6}
    image.save(out, format=ENCODERS[fmt], **options)
    return out.getvalue()


def _flatten(image: Image.Image) -> Image.Image:
    base = Image.new("RGB", image.size, (255, 255, 255))
    base.paste(image, mask=image.getchannel("A") if image.mode == "RGBA" else None)
    return base


def decode_scaled(image: Image.Image, box: Box) -> Image.Image:
    """Let a JPEG decode at 1/2, 1/4 or 1/8 scale when the rendition is that much smaller (libjpeg's DCT
    scaling: much faster than decoding every pixel), then :func:`prepare` it."""
    if image.format == "JPEG" and (box.width or box.height):
        width, height = upright_size(image)
        ratios = [r for r in (box.width / width if box.width else 0, box.height / height if box.height else 0) if r]
        scale = min(1.0, max(ratios) if box.fit == "cover" else min(ratios))
        need = (max(1, int(width * scale) + 1), max(1, int(height * scale) + 1))
        if upright_size(image) != image.size:
            need = (need[1], need[0])
        image.draft("RGB", need)
    return prepare(image)
