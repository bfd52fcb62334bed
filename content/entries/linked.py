"""Values that name other items (``references`` fields) shown with each target's id, collection, slug, title and
status: one query per target collection for a whole page of items."""

from __future__ import annotations

from typing import Any

from content.field_types.base import FieldType
from content.schema import specs as schema
from content.schema.dynamic import field_attname
from content.schema.specs import CollectionSpec


def _linking(spec: CollectionSpec) -> list[Any]:
    return [f for f in spec.fields if type(f.kind).entry_refs is not FieldType.entry_refs]


def show_targets(spec: CollectionSpec, datas: list[dict[str, Any]], *, published_only: bool) -> None:
    """Replace, in place, each linking value of ``datas`` by its targets' details; gone targets (and, for readers
    of published content only, unpublished ones) are left out."""
    fields = _linking(spec)
    if not fields:
        return
    wanted: dict[str, set[str]] = {}
    for data in datas:
        for field in fields:
            for collection, entry_id in field.kind.entry_refs(data.get(field.slug)):
                wanted.setdefault(collection, set()).add(entry_id)
    found = details(wanted, published_only=published_only)
    for data in datas:
        for field in fields:
            if data.get(field.slug) is not None:
                data[field.slug] = field.kind.with_entries(data[field.slug], found)


def details(wanted: dict[str, set[str]], *, published_only: bool) -> dict[tuple[str, str], dict[str, Any]]:
    """``{(collection, id): {id, collection, slug, title, status}}`` of the live items named, one query per
    collection."""
    found: dict[tuple[str, str], dict[str, Any]] = {}
    current = schema.current().collections
    for collection, ids in wanted.items():
        target = current.get(collection)
        if target is None:
            continue
        qs = target.model.objects.filter(id__in=ids, deleted_at__isnull=True)
        if published_only:
            qs = qs.filter(status="published")
        title = target.title_field
        columns = ["id", "slug", "status", *([field_attname(title.slug)] if title else [])]
        for row in qs.values_list(*columns):
            found[(target.slug, row[0])] = {
                "id": row[0],
                "collection": target.slug,
                "slug": row[1],
                "title": row[3] if title else None,
                "status": row[2],
            }
    return found
