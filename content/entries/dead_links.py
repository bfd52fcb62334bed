"""Links to items deleted since they were stored (``reference`` and ``references`` values).

Deleting an item leaves the items linking to it alone (SPEC 10): reads hide the link, and the stored id stays until
the linking item is written again. Values read back from storage (a draft under review, a revision being restored,
the source of a copy) are therefore checked without their dead links, and an edit that writes back an id the item
already held is not refused for it: the id is dropped. A write naming a missing item the item did not hold is still
a validation error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from content.field_types.base import FieldType
from content.schema.specs import CollectionSpec, FieldSpec
from content.schema.validation import live_ids


def _linking(spec: CollectionSpec) -> list[FieldSpec]:
    return [f for f in spec.fields if type(f.kind).entry_links is not FieldType.entry_links]


def _links(field: FieldSpec, value: Any) -> list[tuple[str, str]]:
    """(collection, id) of each item a stored value links to."""
    if value is None:
        return []
    return [(target, entry_id) for _, target, entry_id in field.kind.entry_links(value, field.options)]


def _gone(pairs: set[tuple[str, str]]) -> set[str]:
    """The ids of ``pairs`` that name no live item (trashed, deleted for good); a dropped collection's are left
    alone: that is a schema problem, reported as such by the checks."""
    wanted: dict[str, set[str]] = {}
    for collection, entry_id in pairs:
        wanted.setdefault(collection, set()).add(entry_id)
    live = live_ids(wanted)
    return {entry_id for slug, ids in wanted.items() if (found := live[slug]) is not None for entry_id in ids - found}


def without_dead_links(spec: CollectionSpec, values: dict[str, Any]) -> dict[str, Any]:
    """Stored ``values`` with their links to items that are gone dropped (one query per target collection)."""
    fields = [f for f in _linking(spec) if values.get(f.slug) is not None]
    gone = _gone({pair for f in fields for pair in _links(f, values[f.slug])})
    if not gone:
        return values
    return {**values, **{f.slug: _drop(f, values[f.slug], gone) for f in fields}}


def forgiven(spec: CollectionSpec, data: Any, stored: Callable[[], dict[str, Any]]) -> Any:
    """Written ``data`` without the ids of gone items that the item's ``stored`` values already held."""
    if not isinstance(data, dict):
        return data
    fields = [f for f in _linking(spec) if f.slug in data and not f.kind.is_empty(data[f.slug])]
    if not fields:
        return data
    held = stored()
    pairs = {pair for f in fields for pair in _links(f, held.get(f.slug))}
    gone = _gone(pairs) if pairs else set()
    if not gone:
        return data
    return {**data, **{f.slug: _drop(f, data[f.slug], gone) for f in fields}}


def _drop(field: FieldSpec, value: Any, gone: set[str]) -> Any:
    dropped = field.kind.drop_entries(value, gone)
    return None if field.kind.is_empty(dropped) else dropped
