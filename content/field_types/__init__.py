"""Field types: one class per family, registered by name; :data:`FIELD_TYPES` is the only lookup.

Each type owns its column, value checks, storage conversions, filters, search text, display, admin widget,
JSON Schema and Markdown handling (the parts are listed in ``base.PARTS``). Adding a type is one class with
``@register`` in a module imported below; the order of these imports is the order types are listed in.
"""

from __future__ import annotations

# ruff: noqa: I001  (the family modules register their types on import: this order is the listed order)
from content.field_types import text as text
from content.field_types import numbers as numbers
from content.field_types import boolean as boolean
from content.field_types import moments as moments
from content.field_types import choices as choices
from content.field_types import rich_text as rich_text
from content.field_types import media as media
from content.field_types import reference as reference
from content.field_types import references as references
from content.field_types import json_value as json_value
from content.field_types import slug as slug
from content.field_types.base import (
    CONTENT_SLUG_RE,
    INT64_MAX,
    INT64_MIN,
    PARTS,
    PATTERN_MAX_LENGTH,
    FieldRules,
    FieldType,
    compile_pattern,
    json_problem,
)
from content.field_types.registry import FIELD_TYPES, register, unregister

__all__ = [
    "CONTENT_SLUG_RE",
    "FIELD_TYPES",
    "INT64_MAX",
    "INT64_MIN",
    "PARTS",
    "PATTERN_MAX_LENGTH",
    "FieldRules",
    "FieldType",
    "compile_pattern",
    "json_problem",
    "register",
    "unregister",
]
