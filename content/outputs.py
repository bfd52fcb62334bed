"""JSON Schema of what the content operations return (MCP outputSchema, OpenAPI responses)."""

from __future__ import annotations

from typing import Any

from emdash.operations.shapes import shared


def field_values(description: str, *, nullable: bool = False) -> dict[str, Any]:
    """An item's field values: keyed by the collection's field slugs, so open by design (schema_get_collection
    gives each field's type)."""
    return {
        "type": ["object", "null"] if nullable else "object",
        "additionalProperties": True,
        "description": description,
    }


SEO = {
    "type": "object",
    "description": "Per-item SEO (the draft's when one is pending)",
    "properties": {
        "title": {"type": "string"},
        "description": {"type": "string"},
        "image": {"type": "object", "properties": {"id": {"type": "string"}, "alt": {"type": "string"}}},
        "canonical": {"type": "string"},
        "noindex": {"type": "boolean"},
    },
}

# Said once on the item ("dates ... ISO 8601 UTC") rather than on each of its five date properties.
DATETIME = {"type": ["string", "null"]}

ITEM_SHAPE = {
    "type": "object",
    "description": "A content item: metadata, field values in data, liveData when a draft is pending; dates in "
    "ISO 8601 UTC",
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
        "data": field_values("Field values keyed by field slug (the draft's, when one is pending and may be read)"),
        "liveData": field_values("The published values, when a draft is pending"),
        "draftSlug": {"type": "string", "description": "A new slug waiting for publish (slug is the live one)"},
        "seo": SEO,
        "liveSeo": {**SEO, "description": "The live SEO, when the draft changes it"},
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
ITEM = shared(ITEM_SHAPE, "content_get", "item")


ITEM_WITH_REV = {
    "type": "object",
    "properties": {"item": ITEM, "_rev": {"type": "string", "description": "Pass back to content_update"}},
    "required": ["item", "_rev"],
}
ITEM_ONLY = {"type": "object", "properties": {"item": ITEM}, "required": ["item"]}
SUMMARY = shared(ITEM_SHAPE, "content_get", "item", "data without long text and rich-text fields")
RESTORED = {
    "type": "object",
    "properties": {"restored": {"type": "boolean"}, "item": ITEM},
    "required": ["restored", "item"],
}
COMPARE = {
    "type": "object",
    "properties": {
        "hasChanges": {"type": "boolean"},
        "live": field_values("The published values; null if the item was never published", nullable=True),
        "draft": field_values("The draft's values"),
        "liveSlug": {"type": ["string", "null"]},
        "draftSlug": {"type": "string"},
        "liveSeo": {**SEO, "type": ["object", "null"], "description": "The live SEO; null if never published"},
        "draftSeo": {**SEO, "description": "The draft's SEO"},
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
        "data": field_values("The field values this revision saved"),
    },
    "required": ["id", "createdAt", "data"],
}
REVISIONS = {
    "type": "object",
    "properties": {"items": {"type": "array", "items": REVISION}, "total": {"type": "integer"}},
    "required": ["items", "total"],
}
