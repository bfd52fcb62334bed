"""The field-type table: for each type, its column, how a value is checked, stored and read back."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import regex
from django.db import models

from emdash.dates import iso, parse_iso

PATTERN_MAX_LENGTH = 500
PATTERN_TIMEOUT_SECONDS = 0.05
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
JSON_MAX_DEPTH = 200
CONTENT_SLUG_RE = regex.compile(r"^[a-z0-9](?:[a-z0-9_-]{0,198}[a-z0-9])?\Z")  # \Z: no trailing newline


def _identity(value: Any) -> Any:
    return value


def _is_number(value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an int beyond the float range
        return False


def json_problem(value: Any) -> str | None:
    """Why ``value`` is not plain JSON (NaN/Infinity, non-string keys, other Python objects), or None."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > JSON_MAX_DEPTH:
            return f"must not be nested more than {JSON_MAX_DEPTH} levels deep"
        if item is None or isinstance(item, str | bool | int):
            continue
        if isinstance(item, float):
            if not math.isfinite(item):
                return "must not contain NaN or Infinity"
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
        elif isinstance(item, dict):
            if not all(isinstance(k, str) for k in item):
                return "object keys must be strings"
            stack.extend((v, depth + 1) for v in item.values())
        else:
            return "must be JSON: objects, arrays, strings, numbers, true, false or null"
    return None


def _check_string(value: Any, _: FieldRules) -> str | None:
    return None if isinstance(value, str) else "must be a string"


def _check_number(value: Any, _: FieldRules) -> str | None:
    return None if _is_number(value) else "must be a finite number"


def _check_integer(value: Any, _: FieldRules) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return "must be an integer"
    return None if INT64_MIN <= value <= INT64_MAX else "must fit in 64 bits"


def _check_boolean(value: Any, _: FieldRules) -> str | None:
    return None if isinstance(value, bool) else "must be true or false"


def _check_datetime(value: Any, _: FieldRules) -> str | None:
    try:
        parse_iso(value)
    except ValueError as exc:
        return str(exc)
    return None


def _check_select(value: Any, rules: FieldRules) -> str | None:
    allowed = rules.options
    if not isinstance(value, str):
        return "must be a string"
    return None if value in allowed else f"must be one of: {', '.join(allowed)}"


def _check_multi_select(value: Any, rules: FieldRules) -> str | None:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return "must be a list of strings"
    bad = [v for v in value if v not in rules.options]
    if bad:
        return f"{', '.join(map(repr, bad))} not allowed; choose from: {', '.join(rules.options)}"
    return None if len(set(value)) == len(value) else "must not repeat a value"


def _check_portable_text(value: Any, _: FieldRules) -> str | None:
    """The strict check (content/portable_text.py); entry writes call it directly to report inner paths."""
    from content.portable_text import PortableTextError, normalize

    if problem := json_problem(value):
        return problem
    try:
        normalize(value)
    except PortableTextError as exc:
        return str(exc)
    return None


def _check_media_ref(value: Any, _: FieldRules) -> str | None:
    if not isinstance(value, dict) or not isinstance(value.get("id"), str) or not value["id"]:
        return 'must be a media reference object like {"id": "<media id>"}'
    return json_problem(value)


def _check_reference(value: Any, _: FieldRules) -> str | None:
    return None if isinstance(value, str) and value else "must be the id of an entry"


def _check_json(value: Any, _: FieldRules) -> str | None:
    return json_problem(value)  # services can be called without a request parser in front


def _check_slug(value: Any, _: FieldRules) -> str | None:
    if not isinstance(value, str) or not CONTENT_SLUG_RE.match(value):
        return "must be a slug: lowercase letters, digits, '-' or '_'"
    return None


@dataclass(frozen=True)
class FieldRules:
    """The parts of a field definition that value checks need."""

    min: float | None = None
    max: float | None = None
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None
    options: tuple[str, ...] = ()


@dataclass(frozen=True)
class FieldType:
    name: str
    column: Callable[..., models.Field]  # called with extra kwargs (unique, db_column)
    check: Callable[[Any, FieldRules], str | None]
    to_db: Callable[[Any], Any] = _identity
    from_db: Callable[[Any], Any] = _identity
    validation_keys: frozenset[str] = frozenset()
    in_summary: bool = True  # listed in content_list summaries
    text_like: bool = False  # minLength/maxLength/pattern apply to the string
    label: str = ""  # the schema builder's name for the type (editors, not developers): see _WORDS
    help: str = ""  # one line under the type choice saying what it is for


_TEXT_KEYS = frozenset({"minLength", "maxLength", "pattern"})
_NUM_KEYS = frozenset({"min", "max"})


def _nullable(column: type[models.Field], **fixed: Any) -> Callable[..., models.Field]:
    """The column factory: every field column is nullable (items may predate the field)."""
    return functools.partial(column, null=True, **fixed)


_TEXT_COLUMN = _nullable(models.TextField)
_JSON_COLUMN = _nullable(models.JSONField)


def _text_type(name: str, check: Callable[[Any, FieldRules], str | None], **extra: Any) -> FieldType:
    """A type whose value is a string the length and pattern rules apply to."""
    return FieldType(name, _TEXT_COLUMN, check, validation_keys=_TEXT_KEYS, text_like=True, **extra)


FIELD_TYPES: dict[str, FieldType] = {
    t.name: t
    for t in [
        _text_type("string", _check_string),
        _text_type("text", _check_string, in_summary=False),
        FieldType("number", _nullable(models.FloatField), _check_number, validation_keys=_NUM_KEYS),
        FieldType("integer", _nullable(models.BigIntegerField), _check_integer, validation_keys=_NUM_KEYS),
        FieldType("boolean", _nullable(models.BooleanField), _check_boolean),
        FieldType("datetime", _nullable(models.DateTimeField), _check_datetime, to_db=parse_iso, from_db=iso),
        FieldType("select", _TEXT_COLUMN, _check_select, validation_keys=frozenset({"options"})),
        FieldType(
            "multiSelect",
            _JSON_COLUMN,
            _check_multi_select,
            validation_keys=frozenset({"options", "minLength", "maxLength"}),
        ),
        FieldType("portableText", _JSON_COLUMN, _check_portable_text, in_summary=False),
        FieldType("image", _JSON_COLUMN, _check_media_ref),
        FieldType("file", _JSON_COLUMN, _check_media_ref),
        FieldType("reference", _nullable(models.CharField, max_length=26), _check_reference),
        FieldType("json", _JSON_COLUMN, _check_json, in_summary=False),
        _text_type("slug", _check_slug),
    ]
}

# The schema builder's words for each type: a name an editor knows and one line on what it is for.
_WORDS: dict[str, tuple[str, str]] = {
    "string": ("Short text", "One line: a title, a name, a subtitle."),
    "text": ("Long text", "Several lines of plain text, without formatting."),
    "number": ("Number", "Any number, decimals allowed: a price, a rating."),
    "integer": ("Whole number", "A count or a position, without decimals."),
    "boolean": ("Yes / no", "A checkbox: featured, sticky, hidden."),
    "datetime": ("Date and time", "A moment: an event's start, a deadline."),
    "select": ("Choice", "One value from a list you define."),
    "multiSelect": ("Multiple choice", "Any number of values from a list you define."),
    "portableText": ("Rich text", "Formatted text with headings, lists, links and images: an article's body."),
    "image": ("Image", "A picture from the media library."),
    "file": ("File", "A document or download from the media library."),
    "reference": ("Link to another item", "One item of a collection you choose: a related post, an author page."),
    "json": ("Structured data (JSON)", "Free-form data for developers; editors see a JSON text box."),
    "slug": ("Slug", "A URL-safe name: lowercase letters, digits, '-' and '_'."),
}
FIELD_TYPES = {name: replace(t, label=_WORDS[name][0], help=_WORDS[name][1]) for name, t in FIELD_TYPES.items()}


def check_constraints(value: Any, field_type: FieldType, rules: FieldRules) -> str | None:
    """Length, range and pattern rules, after the type check has passed."""
    if field_type.text_like or field_type.name == "multiSelect":
        size = len(value)
        unit = "characters" if field_type.text_like else "values"
        if rules.min_length is not None and size < rules.min_length:
            return f"must have at least {rules.min_length} {unit}"
        if rules.max_length is not None and size > rules.max_length:
            return f"must have at most {rules.max_length} {unit}"
    if field_type.name in {"number", "integer"}:
        if rules.min is not None and value < rules.min:
            return f"must be at least {rules.min:g}"
        if rules.max is not None and value > rules.max:
            return f"must be at most {rules.max:g}"
    if rules.pattern and field_type.text_like:
        try:
            if not regex.search(rules.pattern, value, timeout=PATTERN_TIMEOUT_SECONDS):
                return f"must match the pattern {rules.pattern}"
        except TimeoutError:
            return "could not be checked against the pattern in time; use a simpler value or pattern"
    return None


def compile_pattern(pattern: Any) -> str | None:
    """Problem with a user-supplied pattern, or None when it is usable."""
    if not isinstance(pattern, str) or not pattern:
        return "pattern must be a non-empty string"
    if len(pattern) > PATTERN_MAX_LENGTH:
        return f"pattern must be at most {PATTERN_MAX_LENGTH} characters"
    try:
        regex.compile(pattern)
    except regex.error as exc:
        return f"pattern is not a valid regular expression ({exc})"
    return None
