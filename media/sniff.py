"""What a file really is: MIME types against the allowlist, and Pillow for images (type, size, colour)."""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from typing import IO, Any

from PIL import Image

from emdash.conf import emdash_settings
from emdash.errors import ValidationError
from media import placeholders
from media.images import is_animated, upright_size

MIME_RE = re.compile(r"^[a-z0-9][a-z0-9!#$&^_.+-]{0,62}/[a-z0-9][a-z0-9!#$&^_.+-]{0,62}$")
SVG = "image/svg+xml"
ALIASES = {
    "image/jpg": "image/jpeg",
    "image/pjpeg": "image/jpeg",
    "image/x-png": "image/png",
    "image/ico": "image/x-icon",
    "image/vnd.microsoft.icon": "image/x-icon",
    "image/x-ms-bmp": "image/bmp",
    "image/x-bmp": "image/bmp",
}
# The raster formats we let Pillow detect, and the MIME type each one really is. A short list on purpose:
# Pillow's looser detectors (TGA, MPEG...) could mistake a video or a PDF for an image.
FORMAT_MIME = {
    "JPEG": "image/jpeg",
    "MPO": "image/jpeg",  # multi-picture JPEG from phone cameras
    "PNG": "image/png",
    "GIF": "image/gif",
    "WEBP": "image/webp",
    "BMP": "image/bmp",
    "TIFF": "image/tiff",
    "ICO": "image/x-icon",
    "AVIF": "image/avif",
}
NO_PLACEHOLDERS = placeholders.Placeholders()
PLACEHOLDER_MAX_PIXELS = 25_000_000  # placeholders are only worth it when decoding is cheap


def normalise_type(value: Any) -> str:
    """A lowercase ``type/subtype`` (aliases such as image/jpg folded in); VALIDATION_ERROR otherwise."""
    text = value.strip().lower() if isinstance(value, str) else ""
    if not MIME_RE.match(text):
        raise ValidationError.for_fields({"mimeType": "must be a MIME type such as image/png"})
    return ALIASES.get(text, text)


def is_allowed(mime_type: str) -> bool:
    """Listed exactly, or under a ``type/*`` wildcard. SVG can carry scripts, so only an explicit entry allows it."""
    for entry in emdash_settings.MEDIA_ALLOWED_TYPES:
        pattern = str(entry).strip().lower()
        if pattern == mime_type:
            return True
        if pattern.endswith("/*") and mime_type.startswith(pattern[:-1]) and mime_type != SVG:
            return True
    return False


def check_allowed(mime_type: str) -> None:
    if not is_allowed(mime_type):
        allowed = ", ".join(map(str, emdash_settings.MEDIA_ALLOWED_TYPES))
        raise ValidationError.for_fields({"mimeType": f"{mime_type} is not an allowed media type (allowed: {allowed})"})


def _formats() -> list[str]:
    Image.init()
    return [name for name in FORMAT_MIME if name in Image.OPEN]


def decodable_types() -> set[str]:
    """Image types Pillow can check here: a file declared as one of them must really be one."""
    return {FORMAT_MIME[name] for name in _formats()}


@dataclass(frozen=True)
class Inspection:
    mime_type: str
    width: int | None = None
    height: int | None = None
    placeholders: placeholders.Placeholders = NO_PLACEHOLDERS
    animated: bool = False

    @property
    def dominant_color(self) -> str:
        return self.placeholders.dominant_color


def inspect(handle: IO[bytes], declared: str | None) -> Inspection:
    """Check the bytes against the declared type (None: take what the bytes say). Raises VALIDATION_ERROR for
    a mismatch, a file that is not what it claims, or an image too large to decode safely."""
    head = handle.read(4096)
    handle.seek(0)
    found = _open_image(handle)
    if found is not None:
        if declared is not None and declared != found.mime_type:
            raise ValidationError.for_fields(
                {"file": f"the content is {found.mime_type}, not {declared} as declared"}, prefix="Invalid file"
            )
        return found
    if declared is None:
        raise ValidationError.for_fields(
            {"mimeType": "the file type could not be detected; send it with a Content-Type"}, prefix="Invalid file"
        )
    if declared in decodable_types():
        problem = f"is not a valid {declared} image"
    elif declared == "application/pdf" and not head.startswith(b"%PDF-"):
        problem = "is not a PDF document"
    elif declared == SVG and b"<svg" not in head.lower():
        problem = "is not an SVG document"
    elif declared != SVG and _looks_active(head):  # e.g. an HTML page sent as video/mp4
        problem = "looks like HTML, XML or SVG (active content is not accepted)"
    else:
        return Inspection(declared)
    raise ValidationError.for_fields({"file": problem}, prefix="Invalid file")


XML = "application/xml"
XML_TYPES = frozenset({XML, "text/xml", "application/rss+xml"})


def inspect_xml(handle: IO[bytes]) -> Inspection:
    """An XML document (a WordPress export an admin uploads for ``import_wordpress``, SPEC 12): it must start
    as XML does; it is kept as ``application/xml`` and, like every non-image, only ever served as an attachment
    with ``nosniff`` and a sandbox CSP, so the markup inside it never runs."""
    head = handle.read(4096)
    handle.seek(0)
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if not (text.startswith(b"<?xml") or text.startswith(b"<rss")):
        raise ValidationError.for_fields({"file": "is not an XML document"}, prefix="Invalid file")
    return Inspection(XML)


_ACTIVE_MARKERS = (b"<html", b"<!doctype html", b"<script", b"<svg", b"<?xml", b"<body", b"<iframe")


def _looks_active(head: bytes) -> bool:
    """Markup a browser could run if it were ever served inline, whatever type the caller claims."""
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    return text.startswith(b"<") and any(marker in text for marker in _ACTIVE_MARKERS)


def _open_image(handle: IO[bytes]) -> Inspection | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(handle, formats=_formats()) as image:
                width, height = upright_size(image)  # what a browser displays (EXIF orientation applied)
                mime_type = FORMAT_MIME[str(image.format)]
                fill = placeholders.compute(image) if width * height <= PLACEHOLDER_MAX_PIXELS else None
                animated = is_animated(image)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ValidationError.for_fields(
            {"file": "the image has too many pixels to process"}, prefix="Invalid file"
        ) from None
    except Exception:  # Pillow raises many types for files that are not (valid) images
        return None
    return Inspection(mime_type, width, height, fill or NO_PLACEHOLDERS, animated)
