"""A media item's renditions as API results, MCP results and templates show them: a few ready URLs, a
``srcset``, and the ``<img>`` markup built from them.

:func:`describe` is the one place that decides which renditions an item advertises; media results
(``media.presenters.item``) carry it, and so can an image field's output.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any
from urllib.parse import urljoin

from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from emdash.conf import emdash_settings
from media import renditions
from media.images import Box, cover_size, too_large
from media.renditions import Spec

# The ready URLs every image result carries: name -> (target width, height, fit, format).
PRESETS = {
    "thumbnail": (320, 320, "cover", "webp"),
    "medium": (960, 0, "inside", "auto"),
    "large": (1920, 0, "inside", "auto"),
    "openGraph": (*renditions.OPEN_GRAPH, "cover", "jpeg"),
}
DEFAULT_SIZES = "(max-width: 960px) 100vw, 960px"


def _allowed(target: int, sizes: tuple[int, ...]) -> int:
    """The configured size nearest above ``target`` (else the largest): presets follow EMDASH_IMAGE_SIZES."""
    return next((size for size in sizes if size >= target), sizes[-1] if sizes else 0)


def url(media_id: str, spec: Spec, version: str) -> str:
    """The versioned (immutable) address of one rendition, absolute against EMDASH_SITE_URL when set."""
    return _Addresses(media_id, version).of(spec)


_PROBE = "MEDIAID"  # stands for the id while the route is reversed (ids are ULIDs: nothing to escape)


@functools.lru_cache(maxsize=16)
def _route(script_prefix: str, urlconf: Any, root_urlconf: str, site: str) -> str:
    """The rendition route with ``MEDIAID`` for the id, reversed once per URL configuration (a page of 50 images
    names hundreds of renditions; reversing each was most of the cost of presenting them)."""
    probe = reverse("media-rendition", kwargs={"id": _PROBE, "size": "0x0", "name": "cover.webp"})
    base = probe.removesuffix("/0x0/cover.webp")
    return urljoin(site, base) if site else base


class _Addresses:
    """The rendition URLs of one item."""

    def __init__(self, media_id: str, version: str) -> None:
        site = str(emdash_settings.SITE_URL or "")
        route = _route(get_script_prefix(), get_urlconf(), str(settings.ROOT_URLCONF), site)
        self.base = route.replace(_PROBE, media_id)
        self.version = version

    def of(self, spec: Spec) -> str:
        return f"{self.base}/{spec.path}?v={self.version}"


def describe(
    *,
    media_id: str,
    mime_type: str,
    width: int | None,
    content_hash: str,
    focal: tuple[float, float],
    animated: bool = False,
    height: int | None = None,
) -> dict[str, Any]:
    """``{renditions: {name: url}, srcset}`` for an image Pillow can resize; ``{renditions: None, srcset:
    None}`` for anything else (files, SVG, animated images: a rendition would lose the animation; images too
    large to decode: every rendition would be 415)."""
    sizes = renditions.sizes()
    if animated or not renditions.renditionable(mime_type) or not sizes or too_large(width, height):
        return {"renditions": None, "srcset": None}
    addresses = _Addresses(media_id, renditions.version(content_hash, *focal))
    ready = {}
    for name, (w, h, fit, fmt) in PRESETS.items():
        if (w, h) != renditions.OPEN_GRAPH:  # the Open Graph size is always allowed; the others follow the list
            w, h = _allowed(w, sizes), h and _allowed(h, sizes)
        spec = Spec(w, h, fit, fmt)
        ready[name] = addresses.of(spec)
    return {"renditions": ready, "srcset": _srcset(addresses, width, sizes)}


def _srcset(addresses: _Addresses, width: int | None, sizes: tuple[int, ...]) -> str | None:
    """One candidate per configured width below the original's, plus the original's own width (asked for
    as the next size up: renditions are never upscaled, so it comes back at the original's width)."""
    if not width:
        return None
    candidates = [(size, size) for size in sizes if size <= width]
    above = next((size for size in sizes if size > width), None)
    if above is not None and (not candidates or candidates[-1][0] != width):
        candidates.append((above, width))
    return ", ".join(f"{addresses.of(Spec(ask, 0, 'inside', 'auto'))} {real}w" for ask, real in candidates)


def _object_position(focal: Any) -> str:
    """``x% y%`` of a focal point off the centre, "" otherwise."""
    if not isinstance(focal, Mapping) or not all(isinstance(focal.get(k), int | float) for k in ("x", "y")):
        return ""
    x, y = float(focal["x"]), float(focal["y"])
    return "" if (x, y) == (0.5, 0.5) else f"{x * 100:.4g}% {y * 100:.4g}%"


def img(item: Mapping[str, Any], *, sizes: str = DEFAULT_SIZES, alt: str | None = None) -> SafeString:
    """``<img src srcset sizes width height loading=lazy decoding=async data-placeholder data-focal>`` for a
    presented media item. ``data-placeholder`` is its dominant colour: the theme's script paints it behind the
    image until the pixels arrive, and ``data-focal`` its focal point, the ``object-position`` of a picture the
    page's CSS crops (a ``style`` attribute would need the Content-Security-Policy loosened)."""
    srcset = item.get("srcset")
    src = (item.get("renditions") or {}).get("medium") or item.get("url") or ""
    parts = [format_html('<img src="{}" alt="{}"', src, item.get("alt", "") if alt is None else alt)]
    if srcset:
        parts.append(format_html(' srcset="{}" sizes="{}"', srcset, sizes))
    if item.get("width") and item.get("height"):
        parts.append(format_html(' width="{}" height="{}"', item["width"], item["height"]))
    if colour := item.get("dominantColor"):
        parts.append(format_html(' data-placeholder="{}"', colour))
    if position := _object_position(item.get("focalPoint")):
        parts.append(format_html(' data-focal="{}"', position))
    parts.append(mark_safe(' loading="lazy" decoding="async">'))
    return mark_safe("".join(parts))


def open_graph(item: Mapping[str, Any]) -> dict[str, Any] | None:
    """``{url, width, height, alt}`` of a presented image as a page's Open Graph image: its 1200x630 cover
    rendition, sized as that rendition comes out (never upscaled: a smaller original gives a smaller crop);
    the original for images without renditions (SVG); None for anything that is not an image."""
    if not str(item.get("mimeType", "")).startswith("image/") or not item.get("url"):
        return None
    width, height = item.get("width"), item.get("height")
    ready = (item.get("renditions") or {}).get("openGraph")
    if ready and width and height:
        width, height = cover_size(int(width), int(height), Box(*renditions.OPEN_GRAPH, "cover"))
    return {"url": ready or item["url"], "width": width, "height": height, "alt": item.get("alt") or ""}
