"""``markdown: true`` on content_get / content_list: portableText values of presented items as Markdown."""

from __future__ import annotations

from typing import Any

from content import hooks, markdown
from content.portable_text import image_ids
from content.schema import specs as schema


def _pt_values(spec_fields: list[str], items: list[dict[str, Any]]) -> list[tuple[dict[str, Any], str]]:
    """(values dict, field slug) of every portableText value in the items' data and liveData."""
    found: list[tuple[dict[str, Any], str]] = []
    for item in items:
        for part in ("data", "liveData"):
            values = item.get(part)
            if isinstance(values, dict):
                found.extend((values, slug) for slug in spec_fields if isinstance(values.get(slug), list))
    return found


def convert(collection: str, items: list[dict[str, Any]]) -> None:
    """Replace, in place, each portableText value by its Markdown (one media query for all images)."""
    spec = schema.get_collection(collection)
    slugs = [f.slug for f in spec.fields if f.type == "portableText"]
    targets = _pt_values(slugs, items)
    ids = {media_id for values, slug in targets for media_id in image_ids(values[slug])}
    urls = hooks.media_urls_by_id(ids)
    for values, slug in targets:
        values[slug] = markdown.from_portable_text(values[slug], urls)
