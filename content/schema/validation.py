"""Checking entry values against a collection's fields: every problem is reported in one error."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from content import hooks
from content.schema import specs as schema
from content.schema.dynamic import field_attname
from content.schema.specs import CollectionSpec, FieldSpec
from emdash.errors import ValidationError
from emdash.text import PROBLEM as BAD_TEXT
from emdash.text import find_bad_text


def normalise(field: FieldSpec, value: Any) -> Any:
    """Canonical JSON form of a value that passed its checks (stored in rows and revisions alike)."""
    return None if value is None else field.kind.normalize(value)


def check_value(field: FieldSpec, value: Any) -> str | None:
    """The problem with one non-empty value, or None."""
    kind, rules = field.kind, field.rules
    problem = kind.check(value, rules)
    if not problem and find_bad_text(value) is not None:  # after the type check, which bounds JSON nesting
        problem = BAD_TEXT
    return problem or kind.constraints(value, rules)


def validate_data(
    spec: CollectionSpec,
    data: Any,
    *,
    partial: bool,
    entry_id: str | None = None,
    problems: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Validate ``data`` for a create (``partial=False``) or an update; return the normalised values.

    Raises one VALIDATION_ERROR naming every bad field (plus any ``problems`` the caller collected).
    """
    problems = dict(problems or {})
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ValidationError.for_fields({"data": "must be an object mapping field slugs to values"})
    fields = spec.field_map
    clean: dict[str, Any] = {}
    for key, value in data.items():
        field = fields.get(key)
        if field is None:
            known = ", ".join(fields) or "none"
            problems[f"data.{key}"] = f"unknown field (fields of '{spec.slug}': {known})"
            continue
        found = len(problems)
        if not field.kind.is_empty(value):
            value = field.kind.prepare(value, f"data.{key}", problems)  # e.g. Markdown -> Portable Text
            if value is not None:  # entries named by slug -> ids (references)
                value = field.kind.resolve(value, field.options, f"data.{key}", problems, find_entries)
        if value is None or field.kind.is_empty(value):
            if len(problems) > found:  # the value could not be read
                continue
            if field.required:
                problems[f"data.{key}"] = "is required"
            else:
                clean[key] = None
            continue
        problem = check_value(field, value)
        if problem:
            problems[f"data.{key}"] = problem
        else:
            clean[key] = normalise(field, value)
    if not partial:
        for field in spec.fields:
            if field.slug in clean or f"data.{field.slug}" in problems:
                continue
            if field.default_value is not None:
                clean[field.slug] = normalise(field, field.default_value)
            elif field.required:
                problems[f"data.{field.slug}"] = "is required"
    _check_references(spec, clean, problems)
    _check_media_refs(spec, clean, problems)
    _check_unique(spec, clean, entry_id, problems)
    if problems:
        raise ValidationError.for_fields(problems)
    return clean


def find_entry(collections: list[str], ident: str, only: str | None = None) -> tuple[str, str] | None:
    """The first live item of ``collections`` (or of ``only``) with id or slug ``ident``: (collection, id)."""
    return find_entries(collections, [(ident, only)])[0]


def find_entries(collections: list[str], wanted: list[tuple[str, str | None]]) -> list[tuple[str, str] | None]:
    """:func:`find_entry` for each ``(ident, only)`` of ``wanted``, in one query per collection looked in: an id
    wins over a slug, and among items sharing a slug the first locale."""
    current = schema.current().collections
    found: list[tuple[str, str] | None] = [None] * len(wanted)
    named = [only for _, only in wanted if only is not None]  # looked in even when not among ``collections``
    for slug in dict.fromkeys([*collections, *named]):
        spec = current.get(slug)
        todo = [i for i, (ident, only) in enumerate(wanted) if found[i] is None and only in (None, slug)]
        todo = [i for i in todo if len(wanted[i][0]) <= 200]
        if spec is None or not todo:
            continue
        ids = {wanted[i][0].upper() for i in todo}
        slugs = {wanted[i][0] for i in todo}
        rows = spec.model.objects.filter(deleted_at__isnull=True).filter(Q(id__in=ids) | Q(slug__in=slugs))
        by_id: dict[str, str] = {}
        by_slug: dict[str, str] = {}
        for entry_id, entry_slug in rows.order_by("-locale").values_list("id", "slug"):
            by_id[entry_id] = entry_id
            by_slug[entry_slug] = entry_id  # ordered by locale descending: the first locale's item stays
        for i in todo:
            ident = wanted[i][0]
            hit = by_id.get(ident.upper()) or by_slug.get(ident)
            if hit is not None:
                found[i] = (slug, hit)
    return found


def live_ids(wanted: dict[str, set[str]]) -> dict[str, set[str] | None]:
    """Of each collection's ``wanted`` ids, those naming live items (neither trashed nor deleted for good): one
    query per collection; None for a collection that no longer exists."""
    if not wanted:
        return {}  # most writes link to nothing: no schema read (inside a write's transaction, a query)
    current = schema.current().collections
    live: dict[str, set[str] | None] = {}
    for slug, ids in wanted.items():
        target = current.get(slug)
        found = target.model.objects.filter(id__in=ids, deleted_at__isnull=True) if target is not None else None
        live[slug] = set(found.values_list("id", flat=True)) if found is not None else None
    return live


def _check_references(spec: CollectionSpec, clean: dict[str, Any], problems: dict[str, str]) -> None:
    """Values naming entries (reference fields) must name live items of their target collection: one query per
    target collection for every link of the write, however many it holds."""
    links = [
        (f"data.{field.slug}{suffix}", target_slug, entry_id)
        for field in spec.fields
        if clean.get(field.slug) is not None
        for suffix, target_slug, entry_id in field.kind.entry_links(clean[field.slug], field.options)
    ]
    wanted: dict[str, set[str]] = {}
    for _, target_slug, entry_id in links:
        wanted.setdefault(target_slug, set()).add(entry_id)
    live = live_ids(wanted)
    for path, target_slug, entry_id in links:  # problems in the order the fields list them, as before
        found_ids = live[target_slug]
        if found_ids is None:
            problems[path] = f"target collection '{target_slug}' no longer exists"
        elif entry_id not in found_ids:
            problems[path] = f"no item with id '{entry_id}' in '{target_slug}'"


def _check_media_refs(spec: CollectionSpec, clean: dict[str, Any], problems: dict[str, str]) -> None:
    """Values naming media items (image and file values, inline images of rich text) must name existing ones:
    one query for every reference of the write."""
    links = [
        (suffix != "", f"data.{field.slug}{suffix}", media_id)
        for field in spec.fields
        if clean.get(field.slug) is not None
        for suffix, media_id in field.kind.media_links(clean[field.slug])
    ]
    links.sort(key=lambda link: link[0])  # whole values before the references inside them, as problems list them
    refs = {path: media_id for _, path, media_id in links}
    if not refs:
        return
    found = hooks.existing_media_ids(set(refs.values()))
    for path, media_id in refs.items():
        if media_id not in found:
            problems[path] = f"no media item with id '{media_id[:100]}'"


def check_publishable(spec: CollectionSpec, values: dict[str, Any], entry_id: str) -> None:
    """A draft's unique values may have been taken by another item since the draft was saved."""
    problems: dict[str, str] = {}
    _check_unique(spec, values, entry_id, problems)
    if problems:
        raise ValidationError.for_fields(problems, prefix="Cannot publish: invalid value")


def _check_unique(spec: CollectionSpec, clean: dict[str, Any], entry_id: str | None, problems: dict[str, str]) -> None:
    for field in spec.fields:
        value = clean.get(field.slug)
        if not field.unique or value is None or f"data.{field.slug}" in problems:
            continue
        lookup = {field_attname(field.slug): field.kind.to_db(value)}
        taken = spec.model.objects.filter(**lookup).exclude(id=entry_id or "").exists()
        if taken:
            problems[f"data.{field.slug}"] = "must be unique; another item already has this value"
