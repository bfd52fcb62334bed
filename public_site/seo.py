"""SEO and Open Graph metadata for a page: title, description, canonical URL, image."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.html import strip_tags

from emdash.auth import site_origin
from public_site import query

DESCRIPTION_LENGTH = 200


def origin(request: HttpRequest, site: dict[str, Any]) -> str:
    """The public origin: the url setting, else EMDASH_SITE_URL / the request's."""
    configured = site.get("url")
    return configured.rstrip("/") if isinstance(configured, str) and configured else site_origin(request)


def _image_url(item: dict[str, Any]) -> str | None:
    data = item.get("data")
    for value in data.values() if isinstance(data, dict) else []:
        if isinstance(value, dict) and value.get("id"):
            media = query.media(value["id"])
            if media and str(media.get("mimeType", "")).startswith("image/"):
                return str(media["url"])
    return None


def page_meta(request: HttpRequest, site: dict[str, Any], subject: dict[str, Any] | None) -> dict[str, Any]:
    """``{title, description, url, image, type}`` for the <head>; ``subject`` is an entry or ``{title}``."""
    site_title = site.get("title") or "EmDash"
    separator = (site.get("seo") or {}).get("titleSeparator") or "·"
    subject = subject or {}
    raw = subject.get("data")
    data: dict[str, Any] = raw if isinstance(raw, dict) else {}
    own_title = data.get("title") or subject.get("title")
    title = f"{own_title} {separator} {site_title}" if own_title else site_title
    description = data.get("excerpt") or site.get("tagline") or ""
    base = origin(request, site)
    image = _image_url(subject) if data else None
    if image is None:
        image = ((site.get("seo") or {}).get("defaultOgImage") or {}).get("url")
    if image and image.startswith("/"):
        image = base + image
    return {
        "title": title,
        "own_title": own_title or site_title,
        "description": strip_tags(str(description))[:DESCRIPTION_LENGTH],
        "url": base + request.path,
        "image": image,
        "type": "article" if data else "website",
        "site_name": site_title,
        "published": subject.get("publishedAt"),
    }
