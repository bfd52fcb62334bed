"""JSON Schema of what the content operations return (MCP outputSchema, OpenAPI responses)."""

from __future__ import annotations

from typing import Any

DATETIME = {"type": ["string", "null"], "description": "ISO 8601 date-time in UTC"}

ITEM = {
    "type": "object",
    "description": "A content item: metadata, field values in data, and liveData when a draft is pending",
    "properties": {
        "id": {"type": "string"},
        "collection": {"type": "string"},
        "slug": {"type": "string"},
        "status": {"type": "string", "enum": ["draft", "published", "scheduled"]},
        "locale": {"type": "string"},
        "translationGroup": {"type": "string"},
        "authorId": {"type": ["integer", "null"]},
        "createdAt": DATETIME,
        "updatedAt": DATETIME,
        "publishedAt": DATETIME,
        "scheduledAt": DATETIME,
        "deletedAt": DATETIME,
        "hasDraft": {"type": "boolean"},
        "data": {"type": "object"},
        "liveData": {"type": "object"},
        "terms": {
            "type": "object",
            "description": "Taxonomy terms by taxonomy name (content_get)",
            "additionalProperties": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"id": {"type": "string"}, "slug": {"type": "string"}, "label": {"type": "string"}},
                    "required": ["id", "slug", "label"],
                },
            },
        },
    },
    "required": ["id", "collection", "slug", "status", "locale", "data"],
}


def page_of(item: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"items": {"type": "array", "items": item}, "nextCursor": {"type": "string"}},
        "required": ["items"],
    }


ITEM_WITH_REV = {
    "type": "object",
    "properties": {"item": ITEM, "_rev": {"type": "string", "description": "Pass back to content_update"}},
    "required": ["item", "_rev"],
}
ITEM_ONLY = {"type": "object", "properties": {"item": ITEM}, "required": ["item"]}
DELETED = {"type": "object", "properties": {"deleted": {"type": "boolean"}}, "required": ["deleted"]}
SUMMARY = {**ITEM, "description": "An item summary: metadata and short field values (no long text or rich text)"}
RESTORED = {
    "type": "object",
    "properties": {"restored": {"type": "boolean"}, "item": ITEM},
    "required": ["restored", "item"],
}
COMPARE = {
    "type": "object",
    "properties": {
        "hasChanges": {"type": "boolean"},
        "live": {"type": ["object", "null"]},
        "draft": {"type": "object"},
    },
    "required": ["hasChanges", "live", "draft"],
}
TRANSLATIONS = {
    "type": "object",
    "properties": {
        "translationGroup": {"type": "string"},
        "translations": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "id": {"type": "string"},
                    "locale": {"type": "string"},
                    "slug": {"type": "string"},
                    "status": {"type": "string"},
                    "updatedAt": {"type": ["string", "null"]},
                },
                "required": ["id", "locale", "slug", "status"],
            },
        },
    },
    "required": ["translationGroup", "translations"],
}
REVISION = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "kind": {"type": "string"},
        "createdAt": {"type": "string"},
        "authorId": {"type": ["integer", "null"]},
        "data": {"type": "object"},
    },
    "required": ["id", "createdAt", "data"],
}
REVISIONS = {
    "type": "object",
    "properties": {"items": {"type": "array", "items": REVISION}, "total": {"type": "integer"}},
    "required": ["items", "total"],
}
