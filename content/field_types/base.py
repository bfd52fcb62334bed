"""The field-type base class: every part a type owns, and the value checks several families share.

A part is a method or attribute every registered type has (:data:`PARTS`); the families define the ones with
no sensible default (column, type check, filters, search text, JSON Schema), which are abstract here, and may
override the defaults (identity storage, plain display, one-line text input...). Nothing outside the
``content.field_types`` package branches on a type's name: it asks the type object.
"""

from __future__ import annotations

import json
import math
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar

import django_filters
import regex
from django.db import models

from content.media_values import Details

PATTERN_MAX_LENGTH = 500
PATTERN_TIMEOUT_SECONDS = 0.05
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
JSON_MAX_DEPTH = 200
CONTENT_SLUG_RE = regex.compile(r"^[a-z0-9](?:[a-z0-9_-]{0,198}[a-z0-9])?\Z")  # \Z: no trailing newline

# The parts of a field type, as the completeness test checks them.
PARTS = (
    "name",
    "label",
    "help",
    "example",
    "column",
    "validation_keys",
    "required_rules",
    "option_keys",
    "check",
    "constraints",
    "prepare",
    "is_empty",
    "normalize",
    "to_db",
    "from_db",
    "entry_links",
    "resolve",
    "drop_entries",
    "entry_refs",
    "with_entries",
    "media_links",
    "with_media",
    "in_summary",
    "filters",
    "search_text",
    "display",
    "multiline",
    "widget",
    "input_type",
    "input_step",
    "zoned",
    "to_form",
    "from_form",
    "json_schema",
    "has_markdown",
    "to_markdown",
    "markdown_media",
)

Problems = dict[str, str]
Filters = dict[str, django_filters.Filter]


@dataclass(frozen=True)
class FieldRules:
    """The parts of a field definition that value checks need."""

    min: float | None = None
    max: float | None = None
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None
    options: tuple[str, ...] = ()


def is_number(value: Any) -> bool:
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


def size_problem(size: int, rules: FieldRules, unit: str) -> str | None:
    if rules.min_length is not None and size < rules.min_length:
        return f"must have at least {rules.min_length} {unit}"
    if rules.max_length is not None and size > rules.max_length:
        return f"must have at most {rules.max_length} {unit}"
    return None


def stripped(raw: str) -> str | None:
    """A posted form value with surrounding space removed; None when nothing is left."""
    return raw.strip() or None


class FieldType(ABC):
    """One family of field values. Registered instances are shared: they hold no per-field state."""

    name: ClassVar[str]
    label: ClassVar[str]  # the schema builder's name for the type
    help: ClassVar[str]  # one line for the schema builder
    example: ClassVar[Any]  # a valid value (tests and documentation)
    # Validation rules (field.validation keys) and options (field.options keys) a field of this type accepts;
    # the required ones must be given when the field is created.
    validation_keys: ClassVar[frozenset[str]] = frozenset()
    required_rules: ClassVar[tuple[str, ...]] = ()
    option_keys: ClassVar[frozenset[str]] = frozenset({"rows"})
    in_summary: ClassVar[bool] = True  # listed in content_list summaries (long values are not)
    multiline: ClassVar[bool] = False  # shown as a block of text in read-only views
    widget: ClassVar[str] = "input"  # the admin form widget (admin_ui.widgets names them)
    input_type: ClassVar[str] = "text"  # the <input type> of the "input" widget
    input_step: ClassVar[str] = ""  # its step attribute, for numbers
    zoned: ClassVar[bool] = False  # typed and shown in the site's time zone
    has_markdown: ClassVar[bool] = False  # ``markdown: true`` reads convert the value (to_markdown)

    @property
    def takes_choices(self) -> bool:
        """The field lists its allowed values (``validation.options``)."""
        return "options" in self.required_rules

    @property
    def takes_target(self) -> bool:
        """The field names a target collection (``options.collection``)."""
        return "collection" in self.option_keys

    # Storage -----------------------------------------------------------------------------------------------

    @abstractmethod
    def column(self, **extra: Any) -> models.Field:
        """The dynamic table's column (always nullable: items may predate the field); ``extra``: db_column, unique."""

    def to_db(self, value: Any) -> Any:
        return value

    def from_db(self, value: Any) -> Any:
        return value

    # Validation --------------------------------------------------------------------------------------------

    @abstractmethod
    def check(self, value: Any, rules: FieldRules) -> str | None:
        """The problem with a non-empty value's type and shape, or None."""

    def constraints(self, value: Any, rules: FieldRules) -> str | None:
        """Length, range and pattern rules, after :meth:`check` has passed."""
        return None

    def prepare(self, value: Any, path: str, problems: Problems) -> Any:
        """The value to check, converted from another accepted input form (Markdown); None with a problem
        added when it cannot be read, None without one when it is empty."""
        return value

    def is_empty(self, value: Any) -> bool:
        """An empty value stands for "no value" (stored as null; refused when required)."""
        return value is None or value == "" or value == [] or value == {}

    def normalize(self, value: Any) -> Any:
        """The canonical JSON form of a checked value (rows and revisions store the same)."""
        return value

    def entry_links(self, value: Any, options: dict[str, Any]) -> list[tuple[str, str, str]]:
        """(path suffix, target collection, item id) for each entry the value names; writes check they exist."""
        return []

    def resolve(self, value: Any, options: dict[str, Any], path: str, problems: Problems, find: Any) -> Any:
        """The value with the entries it names by slug resolved (``find(collections, [(ident, collection), ...])``
        gives ``(collection, id)`` or None for each, in one query per collection); problems added for the ones that
        cannot be. Most types name none."""
        return value

    def drop_entries(self, value: Any, ids: set[str]) -> Any:
        """The value (as written or as stored) without its links to the items ``ids`` (upper-case ids)."""
        return value

    def entry_refs(self, value: Any) -> list[tuple[str, str]]:
        """(collection, id) of each entry a stored value shows with its details on reads (none by default)."""
        return []

    def with_entries(self, value: Any, found: dict[tuple[str, str], dict[str, Any]]) -> Any:
        """The value as reads show it, given the details of the entries :meth:`entry_refs` named."""
        return value

    def media_links(self, value: Any) -> list[tuple[str, str]]:
        """(path suffix, media id) for each media item the value names; writes check they exist, reads show
        their details."""
        return []

    def with_media(self, value: Any, found: Details) -> Any:
        """The value as reads show it, each media reference with its item's details (content.media_values)."""
        return value

    def drop_media(self, value: Any, ids: set[str]) -> Any:
        """The stored value without its references to the media items ``ids`` (a revision restored after they
        were deleted: content.entries.dead_media)."""
        return value

    # Reading -----------------------------------------------------------------------------------------------

    @abstractmethod
    def filters(self, name: str, column: str, rules: FieldRules) -> Filters:
        """``content_list`` filters on this field: ``{name[.op]: django-filter Filter}`` (none: not filterable)."""

    @abstractmethod
    def search_text(self, value: Any) -> str:
        """The plain text of a non-empty value that full-text search indexes ("" when it has no words)."""

    def display(self, value: Any) -> str:
        """A non-empty value as read-only text (comparisons, a translation's source)."""
        if isinstance(value, dict | list):
            return json.dumps(value, indent=2, ensure_ascii=False)
        return str(value)

    def to_markdown(self, value: Any, media_urls: dict[str, str]) -> Any:
        """The value ``markdown: true`` reads return (rich text as Markdown; other values unchanged)."""
        return value

    def markdown_media(self, value: Any) -> list[str]:
        """Media ids :meth:`to_markdown` needs the URLs of."""
        return []

    @abstractmethod
    def json_schema(self, rules: FieldRules, options: dict[str, Any]) -> dict[str, Any]:
        """The JSON Schema of a value a write accepts (null, "no value", aside)."""

    # The admin form ----------------------------------------------------------------------------------------

    def to_form(self, value: Any) -> Any:
        """A stored value (None: none) as the admin widget's value."""
        return "" if value is None else value

    def from_form(self, raw: str, previous: Any) -> Any:
        """A posted text value as the value to store (None: empty); ValueError says why it cannot be read."""
        return stripped(raw)

    def __repr__(self) -> str:
        return f"<field type {self.name}>"
