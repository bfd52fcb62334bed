"""JSON Schema of what the content operations return (MCP outputSchema, OpenAPI responses)."""

from __future__ import annotations

from typing import Any

from emdash.operations.shapes import (
    BOOLEAN,
    INTEGER,
    NULLABLE_INTEGER,
    NULLABLE_STRING,
    STRING,
    array,
    copy,
    obj,
    shared,
)


def field_values(description: str, *, nullable: bool = False) -> dict[str, Any]:
    """An item's field values: keyed by the collection's field slugs, so open by design (schema_get_collection
    gives each field's type)."""
    return {
        "type": ["object", "null"] if nullable else "object",
        "additionalProperties": True,
        "description": description,
    }


SEO = obj(
    {
        "title": STRING,
        "description": STRING,
        "image": obj({"id": STRING, "alt": STRING}),
        "canonical": STRING,
        "noindex": BOOLEAN,
    },
    description="Per-item SEO (the draft's when one is pending)",
)

# Said once on the item ("dates ... ISO 8601 UTC") rather than on each of its five date properties.
DATETIME = NULLABLE_STRING

ITEM_SHAPE = obj(
    {
        "id": STRING,
        "collection": STRING,
        "slug": STRING,
        "status": {"type": "string", "enum": ["draft", "published", "scheduled"]},
        "locale": STRING,
        "translationGroup": STRING,
        "authorId": NULLABLE_INTEGER,
        "createdAt": DATETIME,
        "updatedAt": DATETIME,
        "publishedAt": DATETIME,
        "scheduledAt": DATETIME,
        "deletedAt": DATETIME,
        "hasDraft": BOOLEAN,
        "data": field_values("Field values keyed by field slug (the draft's, when one is pending and may be read)"),
        "liveData": field_values("The published values, when a draft is pending"),
        "draftSlug": {"type": "string", "description": "A new slug waiting for publish (slug is the live one)"},
        "seo": shared(SEO, "content_get", "item.seo"),
        "liveSeo": copy(SEO, "content_get", "item.seo", "The live SEO, when the draft changes it"),
        "terms": {
            "type": "object",
            "description": "Taxonomy terms by taxonomy name (content_get)",
            "additionalProperties": array(
                obj({"id": STRING, "slug": STRING, "label": STRING}, ["id", "slug", "label"])
            ),
        },
    },
    ["id", "collection", "slug", "status", "locale", "data"],
    "A content item; dates in ISO 8601 UTC",
)
ITEM = shared(ITEM_SHAPE, "content_get", "item")
ITEM_WITH_REV = obj(
    {"item": ITEM, "_rev": STRING},
    ["item", "_rev"],  # _rev's use is said once, by content_update's input
)
ITEM_ONLY = obj({"item": ITEM}, ["item"])
SUMMARY = shared(ITEM_SHAPE, "content_get", "item", "data without long text and rich-text fields")
RESTORED = obj({"restored": BOOLEAN, "item": ITEM}, ["restored", "item"])
COMPARE = obj(
    {
        "hasChanges": BOOLEAN,
        "live": field_values("The published values; null if the item was never published", nullable=True),
        "draft": field_values("The draft's values"),
        "liveSlug": NULLABLE_STRING,
        "draftSlug": STRING,
        "liveSeo": copy(
            {**SEO, "type": ["object", "null"]}, "content_get", "item.seo", "The live SEO; null if never published"
        ),
        "draftSeo": copy(SEO, "content_get", "item.seo", "The draft's SEO"),
    },
    ["hasChanges", "live", "draft"],
)
TRANSLATION = obj(
    {"id": STRING, "locale": STRING, "slug": STRING, "status": STRING, "updatedAt": NULLABLE_STRING},
    ["id", "locale", "slug", "status"],
)
TRANSLATIONS = obj(
    {"translationGroup": STRING, "translations": array(TRANSLATION)}, ["translationGroup", "translations"]
)
REVISION = obj(
    {
        "id": STRING,
        "kind": STRING,
        "createdAt": STRING,
        "authorId": NULLABLE_INTEGER,
        "data": field_values("The field values this revision saved"),
    },
    ["id", "createdAt", "data"],
)
REVISIONS = obj({"items": array(REVISION), "total": INTEGER}, ["items", "total"])
