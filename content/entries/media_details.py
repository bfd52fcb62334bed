"""Image, file and rich-text values shown with their media's details (url, size, renditions, srcset): one media
query for a whole page of items, however many references it holds."""

from __future__ import annotations

from typing import Any

from content import hooks
from content.field_types.base import FieldType
from content.schema.specs import CollectionSpec


def show_media(spec: CollectionSpec, datas: list[dict[str, Any]]) -> None:
    """Replace, in place, each value of ``datas`` that names media by the value with their details."""
    fields = [f for f in spec.fields if type(f.kind).with_media is not FieldType.with_media]
    targets = [(data, f) for data in datas for f in fields if data.get(f.slug) is not None]
    ids = {media_id for data, f in targets for _, media_id in f.kind.media_links(data[f.slug])}
    if not ids:
        return
    found = hooks.media_details(ids)
    for data, f in targets:
        data[f.slug] = f.kind.with_media(data[f.slug], found)
