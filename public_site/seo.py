"""SEO and Open Graph metadata for a page: title, description, canonical URL, image."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.html import strip_tags

from accounts.auth import site_origin
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


def _own_image(seo: dict[str, Any]) -> str | None:
    ref = seo.get("image")
    media = query.media(ref["id"]) if isinstance(ref, dict) and ref.get("id") else None
    return str(media["url"]) if media and str(media.get("mimeType", "")).startswith("image/") else None


def _absolute(base: str, url: str | None) -> str | None:
    return base + url if url and url.startswith("/") else url


def page_meta(request: HttpRequest, site: dict[str, Any], subject: dict[str, Any] | None) -> dict[str, Any]:
    """``{title, description, url, canonical, image, type, noindex}`` for the <head>; ``subject`` is an entry
    or ``{title}``. An entry's own SEO (title, description, image, canonical, noindex) wins over its fields."""
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
    image = _own_image(seo) or (_image_url(subject) if data else None)
    if image is None:
        image = ((site.get("seo") or {}).get("defaultOgImage") or {}).get("url")
    url = base + request.path
    return {
        "title": title,
        "own_title": own_title or site_title,
        "description": strip_tags(str(description))[:DESCRIPTION_LENGTH],
        "url": url,
        "canonical": _absolute(base, seo.get("canonical")) or url,
        "image": _absolute(base, image),
        "type": "article" if data else "website",
        "site_name": site_title,
        "published": subject.get("publishedAt"),
        "noindex": bool(seo.get("noindex")),
    }
