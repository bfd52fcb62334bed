"""JSON Schema fragments shared by the tool definitions not yet in the operation table.

Output fragments moved to :mod:`content.outputs`; they are re-exported here for the remaining tool modules.
"""

from __future__ import annotations

from typing import Any

from content.outputs import DATETIME, DELETED, ITEM, ITEM_ONLY, ITEM_WITH_REV, page_of  # noqa: F401
from content.schema_checks import SLUG_MAX_LENGTH, SLUG_RE

SLUG_PATTERN = SLUG_RE.pattern


def obj(properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = list(required)
    return schema


def string(description: str, **extra: Any) -> dict[str, Any]:
    return {"type": "string", "description": description, **extra}


def limit(default: int, maximum: int) -> dict[str, Any]:
    return {
        "type": "integer",
        "minimum": 1,
        "maximum": maximum,
        "default": default,
        "description": f"Maximum number of items (1-{maximum}, default {default})",
    }


COLLECTION = string("Collection slug, e.g. posts", minLength=1, maxLength=SLUG_MAX_LENGTH)
ID = string("Item ID (ULID) or slug", minLength=1, maxLength=200)
LOCALE = string("Locale, e.g. en or fr (only meaningful when i18n is enabled)", minLength=1, maxLength=16)
CURSOR = string("Opaque cursor from the previous page's nextCursor", minLength=1, maxLength=2048)
SLUG = string("URL slug: lowercase letters, digits, '-' or '_'", minLength=1, maxLength=200)
DATA = {"type": "object", "description": "Field values keyed by field slug (see schema_get_collection)"}
NULLABLE_STRING = {"type": ["string", "null"]}
TERMS_IN = {
    "type": "object",
    "description": 'Taxonomy terms by taxonomy name, e.g. {"category": ["news"], "tag": []}; replaces the '
    "item's terms of each taxonomy named (see taxonomy_list and taxonomy_list_terms)",
    "maxProperties": 20,
    "additionalProperties": {
        "type": "array",
        "maxItems": 100,
        "items": {"type": "string", "minLength": 1, "maxLength": 200},
    },
}
