"""``markdown: true`` on content_get / content_list: rich-text values of presented items as Markdown."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from content import hooks
from content.field_types import FieldType
from content.schema import specs as schema


def _values(
    fields: list[tuple[str, FieldType]], items: Iterable[Mapping[str, Any]]
) -> list[tuple[dict[str, Any], str, FieldType]]:
    """(values dict, field slug, type) of every value of ``fields`` in the items' data and liveData."""
    found: list[tuple[dict[str, Any], str, FieldType]] = []
    for item in items:
        for part in ("data", "liveData"):
            values = item.get(part)
            if isinstance(values, dict):
                found.extend((values, slug, kind) for slug, kind in fields if values.get(slug) is not None)
    return found


def convert(collection: str, items: Iterable[Mapping[str, Any]]) -> None:
    """Replace, in place, each rich-text value by its Markdown (one media query for all images)."""
    spec = schema.get_collection(collection)
    fields = [(f.slug, f.kind) for f in spec.fields if f.kind.has_markdown]
    targets = _values(fields, items)
    ids = {media_id for values, slug, kind in targets for media_id in kind.markdown_media(values[slug])}
    urls = hooks.media_urls_by_id(ids)
    for values, slug, kind in targets:
        values[slug] = kind.to_markdown(values[slug], urls)
