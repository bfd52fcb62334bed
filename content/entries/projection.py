"""Asking for less (SPEC 10): ``fields`` on content_get and content_list keeps only the named data fields.

System fields (id, collection, slug, status, dates, authorId, seo, terms, ...) are always returned; only the
collection's own fields in ``data`` (and ``liveData``, a pending draft's live values) are narrowed. An unknown
name is refused before anything is read, with the collection's fields listed, so the caller can correct it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from content.schema.specs import CollectionSpec
from emdash.errors import ValidationError, known

# The parts of an item that hold the collection's field values; everything else is a system field.
DATA_KEYS = ("data", "liveData")


def split(raw: Any) -> list[str]:
    """``fields`` as a list of names: a list as it is, and comma-separated strings split (REST sends
    ``?fields=title,excerpt`` or ``?fields=title&fields=excerpt``); blanks dropped, first spelling kept."""
    parts = raw if isinstance(raw, list | tuple) else [raw]
    names = (name.strip() for part in parts if isinstance(part, str) for name in part.split(","))
    return list(dict.fromkeys(name for name in names if name))


def check(spec: CollectionSpec, fields: Sequence[str] | None) -> frozenset[str] | None:
    """The names to keep, or None for every field. VALIDATION_ERROR (changing nothing) for an unknown name."""
    if fields is None:
        return None
    names = split(list(fields))
    if not names:
        raise ValidationError.for_fields({"fields": "must name at least one field"}, prefix="Invalid arguments")
    slugs = [field.slug for field in spec.fields]
    unknown = [name for name in names if name not in slugs]
    if unknown:
        listed = known(slugs, none="the collection has no fields")
        message = f"unknown field(s) {', '.join(unknown[:10])} in '{spec.slug}' ({listed})"
        raise ValidationError.for_fields({"fields": message}, prefix="Invalid arguments")
    return frozenset(names)


def project(items: Iterable[Any], keep: frozenset[str] | None) -> None:
    """Narrow each item's field values to ``keep``, in place (system fields untouched). Items are the presenters'
    dicts (typed as ``Item``, a TypedDict, hence ``Any`` here)."""
    if keep is None:
        return
    for item in items:
        for key in DATA_KEYS:
            values = item.get(key)
            if isinstance(values, dict):
                item[key] = {name: value for name, value in values.items() if name in keep}
