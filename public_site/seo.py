"""SEO and Open Graph metadata for a page: title, description, canonical URL, image."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.html import strip_tags

from accounts.auth import site_origin
from media import responsive
from public_site import query

DESCRIPTION_LENGTH = 200


def origin(request: HttpRequest, site: dict[str, Any]) -> str:
    """The public origin: the url setting, else EMDASH_SITE_URL / the request's."""
    configured = site.get("url")
    return configured.rstrip("/") if isinstance(configured, str) and configured else site_origin(request)


def _og_image(ref: Any) -> dict[str, Any] | None:
    """The Open Graph image of a media reference: a value a read already showed with its media's details (it
    has a ``mimeType``), or a bare ``{"id"}`` / ``{"mediaId"}`` looked up (the SEO image, the site's default).
    The reference's own alt wins over the library's."""
    if not isinstance(ref, dict):
        return None
    media = ref if "mimeType" in ref else query.media(ref.get("id") or ref.get("mediaId"))
    image = responsive.open_graph(media) if media else None
    if image is not None and isinstance(ref.get("alt"), str) and ref["alt"]:
        image["alt"] = ref["alt"]
    return image


def _field_image(data: dict[str, Any]) -> dict[str, Any] | None:
    """The first image field's (the read showed it with its media's details: no query)."""
    for value in data.values():
        if isinstance(value, dict) and "mimeType" in value and (image := _og_image(value)):
            return image
    return None


def _absolute(base: str, url: str | None) -> str | None:
    return base + url if url and url.startswith("/") else url


def page_meta(request: HttpRequest, site: dict[str, Any], subject: dict[str, Any] | None) -> dict[str, Any]:
    """``{title, description, url, canonical, image (+ _width, _height, _alt), type, noindex}`` for the <head>;
    ``subject`` is an entry or ``{title}``. An entry's own SEO (title, description, image, canonical, noindex)
    wins over its fields; the image is the 1200x630 cover rendition (SPEC 11)."""
    site_title = site.get("title") or "EmDash"
    separator = (site.get("seo") or {}).get("titleSeparator") or "·"
    subject = subject or {}
    raw = subject.get("data")
    data: dict[str, Any] = raw if isinstance(raw, dict) else {}
    own = subject.get("seo")
    seo: dict[str, Any] = own if isinstance(own, dict) else {}
    own_title = seo.get("title") or data.get("title") or subject.get("title")
    title = f"{own_title} {separator} {site_title}" if own_title else site_title
    description = seo.get("description") or data.get("excerpt") or site.get("tagline") or ""
    base = origin(request, site)
    default = (site.get("seo") or {}).get("defaultOgImage") or {}
    image = _og_image(seo.get("image")) or _field_image(data) or _og_image(default)
    if image is None and isinstance(default.get("url"), str):
        image = {"url": default["url"], "width": None, "height": None, "alt": ""}
    url = base + request.path
    return {
        "title": title,
        "own_title": own_title or site_title,
        "description": strip_tags(str(description))[:DESCRIPTION_LENGTH],
        "url": url,
        "canonical": _absolute(base, seo.get("canonical")) or url,
        "image": _absolute(base, image["url"]) if image else None,
        "image_width": image and image["width"],
        "image_height": image and image["height"],
        "image_alt": (image and image["alt"]) or "",
        "type": "article" if data else "website",
        "site_name": site_title,
        "published": subject.get("publishedAt"),
        "noindex": bool(seo.get("noindex")),
    }
