"""Checks on schema definitions: slugs, labels, a collection's features, a field's type, rules and options.

Each check adds to ``problems`` (keyed by the wire name) so one call reports every mistake at once; the
services raise ``ValidationError`` from them. Values themselves are checked by :mod:`content.schema.validation`.
"""

from __future__ import annotations

import re
from typing import Any

from content.field_types import FIELD_TYPES, FieldType, compile_pattern
from content.schema import specs as schema
from content.schema.specs import DEFAULT_SUPPORTS, SUPPORTS, CollectionSpec, FieldSpec
from content.schema.validation import normalise as normalise_value
from emdash.errors import InvalidSlug, ReservedSlug

SLUG_RE = re.compile(r"^[a-z][a-z0-9_]*$")
SLUG_MAX_LENGTH = 63
LABEL_MAX_LENGTH = 200
RESERVED_COLLECTION_SLUGS = frozenset(
    {
        "content",
        "media",
        "users",
        "revisions",
        "taxonomies",
        "options",
        "audit_logs",
        # names our own routes, tables and apps use
        "schema",
        "search",
        "settings",
        "menus",
        "taxonomy",
        "terms",
        "tokens",
        "oauth",
        "mcp",
        "api",
        "admin",
        "auth",
        "emdash",
        "tasks",
        "sessions",
        "static",  # STATIC_URL: a proxy serves /static/ from the collected files, never the entries
    }
)
MAX_SELECT_OPTIONS = 500


def check_slug(value: Any, what: str, reserved: frozenset[str]) -> str:
    if not isinstance(value, str) or not SLUG_RE.fullmatch(value) or len(value) > SLUG_MAX_LENGTH:
        raise InvalidSlug(
            f"Invalid {what} slug {value!r}: use lowercase letters, digits and '_', starting with a letter, "
            f"at most {SLUG_MAX_LENGTH} characters"
        )
    if value in reserved:
        raise ReservedSlug(f"'{value}' is reserved and cannot be used as a {what} slug")
    return value


def check_label(value: Any, name: str, problems: dict[str, str], *, required: bool = True) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()) or len(value) > LABEL_MAX_LENGTH:
        problems[name] = f"must be a non-empty string of at most {LABEL_MAX_LENGTH} characters"
        return ""
    return value.strip()


def check_supports(value: Any, problems: dict[str, str]) -> list[str]:
    if value is None:
        return list(DEFAULT_SUPPORTS)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        problems["supports"] = f"must be a list drawn from: {', '.join(SUPPORTS)}"
        return []
    unknown = [v for v in value if v not in SUPPORTS]
    if unknown:
        problems["supports"] = f"unknown {', '.join(unknown)}; choose from: {', '.join(SUPPORTS)}"
    return [s for s in SUPPORTS if s in value]  # canonical order, no repeats


VALIDATION_RULES = ("min", "max", "minLength", "maxLength", "pattern", "options")
# What a rule a type requires holds, for the message when it is missing.
REQUIRED_WHAT = {"options": "the list of allowed values"}


def _rule_problem(kind: FieldType, type: str, key: str, value: Any) -> str | None:
    """What is wrong with one validation rule of a field of this type, if anything."""
    if key not in VALIDATION_RULES:
        return f"unknown rule (known: {', '.join(VALIDATION_RULES)})"
    if key not in kind.validation_keys:
        return f"does not apply to {type} fields"
    if key in {"min", "max"} and (isinstance(value, bool) or not isinstance(value, int | float)):
        return "must be a number"
    if key in {"minLength", "maxLength"} and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
        return "must be a non-negative integer"
    if key == "pattern":
        return compile_pattern(value)
    if key == "options" and (
        not isinstance(value, list)
        or not value
        or len(value) > MAX_SELECT_OPTIONS
        or not all(isinstance(v, str) and v for v in value)
        or len(set(value)) != len(value)
    ):
        return f"must be a list of 1-{MAX_SELECT_OPTIONS} distinct non-empty strings"
    return None


def _check_rules(kind: FieldType, type: str, validation: dict[str, Any], problems: dict[str, str]) -> None:
    for key, value in validation.items():
        if problem := _rule_problem(kind, type, key, value):
            problems[f"validation.{key}"] = problem
    for low, high in (("min", "max"), ("minLength", "maxLength")):
        lo, hi = validation.get(low), validation.get(high)
        if isinstance(lo, int | float) and isinstance(hi, int | float) and lo > hi and high not in problems:
            problems[f"validation.{low}"] = f"must not exceed {high}"
    for rule in kind.required_rules:
        if rule not in validation:
            problems[f"validation.{rule}"] = f"{type} fields need {REQUIRED_WHAT[rule]}"


def _option_problem(collection: CollectionSpec, kind: FieldType, key: str, value: Any) -> str | None:
    if key == "collection":
        if not kind.takes_target:
            return "only reference fields name a target collection"
        if not isinstance(value, str) or (value not in schema.current().collections and value != collection.slug):
            return "must be the slug of an existing collection"
        return None
    if key == "collections":
        if "collections" not in kind.option_keys:
            return "only references fields name target collections"
        known = schema.current().collections
        if (
            not isinstance(value, list)
            or not 1 <= len(value) <= 10
            or not all(isinstance(v, str) and (v in known or v == collection.slug) for v in value)
            or len(set(value)) != len(value)
        ):
            return "must list 1 to 10 slugs of existing collections, each once"
        return None
    if key == "rows":
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 100:
            return "must be an integer from 1 to 100"
        return None
    return f"unknown option (known for this type: {', '.join(sorted(kind.option_keys))})"


def _object(value: Any, name: str, problems: dict[str, str]) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        problems[name] = "must be an object"
        return {}
    return value


def check_field_definition(
    collection: CollectionSpec, *, type: Any, label: Any, validation: Any, options: Any, flags: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any], dict[str, str]]:
    """(validation, options, problems) for a field's definition in ``collection``."""
    problems: dict[str, str] = {}
    check_label(label, "label", problems)
    for name, value in flags.items():
        if not isinstance(value, bool):
            problems[name] = "must be true or false"
    if not isinstance(type, str) or type not in FIELD_TYPES:
        problems["type"] = f"must be one of: {', '.join(FIELD_TYPES)}"
        return {}, {}, problems
    validation = _object(validation, "validation", problems)
    options = _object(options, "options", problems)
    kind = FIELD_TYPES[type]
    _check_rules(kind, type, validation, problems)
    for key, value in options.items():
        if problem := _option_problem(collection, kind, key, value):
            problems[f"options.{key}"] = problem
    if kind.takes_target and "collection" not in options:
        problems["options.collection"] = f"{type} fields need the target collection's slug"
    if "collections" in kind.option_keys and "collections" not in options:
        problems["options.collections"] = f'{type} fields need the target collections\' slugs, e.g. ["posts"]'
    return validation, options, problems


def reference_default_problem(spec: CollectionSpec, new: FieldSpec, value: Any) -> str | None:
    """A default naming entries must name live items of their target, or every item created without one would
    fail."""
    for _, target_slug, entry_id in new.kind.entry_links(normalise_value(new, value), new.options):
        target = spec if target_slug == spec.slug else schema.current().get(target_slug)
        if not target.model.objects.filter(id=entry_id, deleted_at__isnull=True).exists():
            return f"no item with id '{value}' in '{target_slug}'"
    return None
