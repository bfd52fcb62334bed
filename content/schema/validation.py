"""Checking entry values against a collection's fields: every problem is reported in one error."""

from __future__ import annotations

from typing import Any

from content import hooks, markdown
from content.field_types import check_constraints, json_problem
from content.portable_text import PortableTextError, normalize
from content.schema import specs as schema
from content.schema.dynamic import field_attname
from content.schema.specs import CollectionSpec, FieldSpec
from emdash.dates import iso, parse_iso
from emdash.errors import ValidationError
from emdash.text import PROBLEM as BAD_TEXT
from emdash.text import find_bad_text

MEDIA_FIELD_TYPES = ("image", "file")


def _is_empty(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


def _normalise(field: FieldSpec, value: Any) -> Any:
    """Canonical JSON form of a value that passed its checks (stored in rows and revisions alike)."""
    if value is None:
        return None
    if field.type == "datetime":
        return iso(parse_iso(value))
    if field.type == "reference":
        return value.upper() if len(value) == 26 else value
    return value


def check_value(field: FieldSpec, value: Any) -> str | None:
    """The problem with one non-empty value, or None."""
    kind = field.kind
    problem = kind.check(value, field.rules)
    if not problem and find_bad_text(value) is not None:  # after the type check, which bounds JSON nesting
        problem = BAD_TEXT
    return problem or check_constraints(value, kind, field.rules)


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
        if value is None or (_is_empty(value) and field.type != "json"):
            if field.required:
                problems[f"data.{key}"] = "is required"
            else:
                clean[key] = None
            continue
        if field.type == "portableText":
            found = len(problems)
            value = _portable_text(f"data.{key}", value, problems)
            if value is None:
                if len(problems) == found:  # no problem: Markdown with no blocks (whitespace) is empty
                    if field.required:
                        problems[f"data.{key}"] = "is required"
                    else:
                        clean[key] = None
                continue
        problem = check_value(field, value)
        if problem:
            problems[f"data.{key}"] = problem
        else:
            clean[key] = _normalise(field, value)
    if not partial:
        for field in spec.fields:
            if field.slug in clean or f"data.{field.slug}" in problems:
                continue
            if field.default_value is not None:
                clean[field.slug] = _normalise(field, field.default_value)
            elif field.required:
                problems[f"data.{field.slug}"] = "is required"
    _check_references(spec, clean, problems)
    _check_media_refs(spec, clean, problems)
    _check_unique(spec, clean, entry_id, problems)
    if problems:
        raise ValidationError.for_fields(problems)
    return clean


def _portable_text(path: str, value: Any, problems: dict[str, str]) -> list[dict[str, Any]] | None:
    """A Portable Text value (or a Markdown string, converted) checked strictly; problems name the inner path."""
    if isinstance(value, str):
        if find_bad_text(value) is not None:
            problems[path] = BAD_TEXT
            return None
        try:
            value = markdown.to_portable_text(value, hooks.media_ids_by_url(markdown.image_urls(value)))
        except markdown.ImageNotFound as exc:
            problems[path] = str(exc)
            return None
        if not value:
            return None
    elif problem := json_problem(value):  # before normalize copies it: bounds the nesting depth
        problems[path] = problem
        return None
    try:
        return normalize(value)
    except PortableTextError as exc:
        problems[path + exc.path] = exc.message
        return None


def _check_references(spec: CollectionSpec, clean: dict[str, Any], problems: dict[str, str]) -> None:
    for field in spec.fields:
        value = clean.get(field.slug)
        if field.type != "reference" or value is None:
            continue
        target_slug = field.options.get("collection")
        try:
            target = schema.current().get(target_slug)
        except Exception:
            problems[f"data.{field.slug}"] = f"target collection '{target_slug}' no longer exists"
            continue
        exists = target.model.objects.filter(id=value, deleted_at__isnull=True).exists()
        if not exists:
            problems[f"data.{field.slug}"] = f"no item with id '{value}' in '{target_slug}'"


def _check_media_refs(spec: CollectionSpec, clean: dict[str, Any], problems: dict[str, str]) -> None:
    """Image and file values must name existing media items: one query for every reference of the write."""
    refs = {
        f"data.{field.slug}": clean[field.slug]["id"]
        for field in spec.fields
        if field.type in MEDIA_FIELD_TYPES and isinstance(clean.get(field.slug), dict)
    }
    for field in spec.fields:  # inline images of rich text: the same rule, reported at the block's path
        if field.type == "portableText" and isinstance(clean.get(field.slug), list):
            for index, block in enumerate(clean[field.slug]):
                if block.get("_type") == "image":
                    refs[f"data.{field.slug}[{index}].asset.id"] = block["asset"]["id"]
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
