"""Template tags of the query API: ``{% load emdash_site %}`` then read published content in templates.

{% get_entries "posts" limit=5 as posts %}   {% get_entry "pages" "about" as page %}
{% get_menu "primary" as menu %}            {% get_terms "category" as categories %}
{% get_site_settings as site %}             {% search_results q as results %}
{% portable_text item.data.body %}          {{ item.data.cover|media_item }}
{% media_img cover sizes="(max-width: 600px) 100vw, 600px" %}   (responsive <img>: srcset, placeholder colour)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.utils.safestring import SafeString

from emdash.errors import EmDashError
from media import responsive
from public_site import query
from public_site.portable_text import render

register = template.Library()


@register.simple_tag
def get_entries(
    collection: str, limit: int = 10, order_by: str = "published_at", order: str = "desc", locale: str | None = None
) -> list[dict[str, Any]]:
    try:
        return list(query.entry_list(collection, order_by=order_by, order=order, limit=limit, locale=locale)["items"])
    except EmDashError:
        return []


@register.simple_tag
def get_entry(collection: str, slug: str, locale: str | None = None) -> dict[str, Any] | None:
    return query.entry(collection, slug, locale=locale)


@register.simple_tag
def get_menu(name: str, locale: str | None = None) -> dict[str, Any] | None:
    return query.menu(name, locale=locale)


@register.simple_tag
def get_terms(taxonomy: str, locale: str | None = None) -> list[dict[str, Any]]:
    return query.terms(taxonomy, locale=locale)


@register.simple_tag
def get_site_settings() -> dict[str, Any]:
    return query.site_settings()


@register.simple_tag
def search_results(q: str, limit: int = 20) -> list[dict[str, Any]]:
    return query.search(q, limit=limit)


@register.simple_tag
def portable_text(blocks: Any) -> SafeString:
    """Portable Text as safe HTML (text escaped, unsafe links dropped, images from the media library)."""
    return render(blocks, resolve_image=query.media)


@register.filter
def media_item(ref: Any) -> Mapping[str, Any] | None:
    """A media reference as an item with its ``url``, ``srcset`` and size: an image/file value of an entry the
    query API read is one already (no query); a bare ``{"id": ...}`` or ``{"mediaId": ...}`` is looked up."""
    if not isinstance(ref, dict):
        return None
    if "mimeType" in ref:  # shown with its media's details by the read (content.media_values)
        return ref if ref.get("url") else None
    media_id = ref.get("id") or ref.get("mediaId")
    return query.media(media_id) if media_id else None


@register.simple_tag
def media_img(item: Any, sizes: str = responsive.DEFAULT_SIZES, alt: str | None = None) -> SafeString:
    """``<img src srcset sizes width height loading=lazy decoding=async>`` for a media item (from
    ``media_item``), with its dominant colour as the placeholder; nothing for a missing item."""
    if not isinstance(item, dict) or not item.get("url"):
        return SafeString("")
    return responsive.img(item, sizes=sizes, alt=alt)
