"""The 6 schema tools: collections and fields, each a real table or column."""

from __future__ import annotations

from typing import Any

from content import schema_services
from content.field_types import FIELD_TYPES
from content.schema import SUPPORTS
from emdash.actor import Actor
from emdash.permissions import Perm
from mcp_endpoint.registry import tool
from mcp_endpoint.schemas import COLLECTION, SLUG_PATTERN, obj, string

SCHEMA_SLUG = string(
    "Slug: lowercase letters, digits and '_', starting with a letter", pattern=SLUG_PATTERN, minLength=1, maxLength=63
)
FIELD = {
    "type": "object",
    "properties": {
        "slug": {"type": "string"},
        "label": {"type": "string"},
        "type": {"type": "string"},
        "required": {"type": "boolean"},
        "unique": {"type": "boolean"},
        "searchable": {"type": "boolean"},
        "translatable": {"type": "boolean"},
        "defaultValue": {},
        "validation": {"type": "object"},
        "options": {"type": "object"},
    },
    "required": ["slug", "label", "type"],
}
COLLECTION_OUT = {
    "type": "object",
    "properties": {
        "slug": {"type": "string"},
        "label": {"type": "string"},
        "labelSingular": {"type": "string"},
        "description": {"type": "string"},
        "icon": {"type": "string"},
        "supports": {"type": "array", "items": {"type": "string"}},
        "createdAt": {"type": ["string", "null"]},
        "updatedAt": {"type": ["string", "null"]},
        "fields": {"type": "array", "items": FIELD},
    },
    "required": ["slug", "label", "supports"],
}


@tool(
    "schema_list_collections",
    title="List collections",
    category="schema",
    perm=Perm.SCHEMA_READ,
    read_only=True,
    idempotent=True,
    description="List every content collection with its label, supported features and timestamps, sorted by slug.",
    input=obj({}),
    output={
        "type": "object",
        "properties": {"items": {"type": "array", "items": COLLECTION_OUT}},
        "required": ["items"],
    },
)
def schema_list_collections(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    return {"items": [c.as_dict(with_fields=False) for c in schema_services.collection_list(actor=actor)]}


@tool(
    "schema_get_collection",
    title="Get collection schema",
    category="schema",
    perm=Perm.SCHEMA_READ,
    read_only=True,
    idempotent=True,
    description="Get a collection with all its field definitions (slug, type, required, validation...). Call this "
    "before content_create or content_update to know which data keys and values are accepted.",
    input=obj({"slug": COLLECTION}, ("slug",)),
    output=COLLECTION_OUT,
)
def schema_get_collection(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    return schema_services.collection_get(actor=actor, slug=a["slug"]).as_dict()


@tool(
    "schema_create_collection",
    title="Create collection",
    category="schema",
    perm=Perm.SCHEMA_WRITE,
    description="Create a content collection and its database table. Add fields with schema_create_field.",
    input=obj(
        {
            "slug": SCHEMA_SLUG,
            "label": string("Display name (plural), e.g. Blog Posts", minLength=1, maxLength=200),
            "labelSingular": string("Singular display name", maxLength=200),
            "description": string("What the collection holds", maxLength=2000),
            "icon": string("Admin icon name", maxLength=100),
            "supports": {
                "type": "array",
                "items": {"type": "string", "enum": list(SUPPORTS)},
                "uniqueItems": True,
                "description": "Features (default ['drafts', 'revisions'])",
            },
        },
        ("slug", "label"),
    ),
    output=COLLECTION_OUT,
)
def schema_create_collection(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    return schema_services.collection_create(
        actor=actor,
        slug=a["slug"],
        label=a["label"],
        label_singular=a.get("labelSingular"),
        description=a.get("description"),
        icon=a.get("icon"),
        supports=a.get("supports"),
    ).as_dict()


@tool(
    "schema_delete_collection",
    title="Delete collection",
    category="schema",
    perm=Perm.SCHEMA_WRITE,
    destructive=True,
    description="Delete a collection and its table. Irreversible. A collection with content needs force: true.",
    input=obj(
        {"slug": COLLECTION, "force": {"type": "boolean", "description": "Delete even if it has content"}}, ("slug",)
    ),
    output={"type": "object", "properties": {"deleted": {"type": "string"}}, "required": ["deleted"]},
)
def schema_delete_collection(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    schema_services.collection_delete(actor=actor, slug=a["slug"], force=a.get("force", False))
    return {"deleted": a["slug"]}


@tool(
    "schema_create_field",
    title="Create field",
    category="schema",
    perm=Perm.SCHEMA_WRITE,
    description="Add a field (a new column) to a collection. select/multiSelect list allowed values in "
    "validation.options; reference names its target in options.collection.",
    input=obj(
        {
            "collection": COLLECTION,
            "slug": SCHEMA_SLUG,
            "label": string("Display name", minLength=1, maxLength=200),
            "type": {"type": "string", "enum": list(FIELD_TYPES), "description": "Field type"},
            "required": {"type": "boolean"},
            "unique": {"type": "boolean"},
            "defaultValue": {"description": "Default for new items (and existing ones)"},
            "validation": obj(
                {
                    "min": {"type": "number"},
                    "max": {"type": "number"},
                    "minLength": {"type": "integer", "minimum": 0},
                    "maxLength": {"type": "integer", "minimum": 0},
                    "pattern": {"type": "string", "maxLength": 500},
                    "options": {"type": "array", "items": {"type": "string"}},
                }
            ),
            "options": obj(
                {"collection": {"type": "string"}, "rows": {"type": "integer", "minimum": 1, "maximum": 100}}
            ),
            "searchable": {"type": "boolean"},
            "translatable": {"type": "boolean"},
        },
        ("collection", "slug", "label", "type"),
    ),
    output=FIELD,
)
def schema_create_field(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    return schema_services.field_create(
        actor=actor,
        collection=a["collection"],
        slug=a["slug"],
        label=a["label"],
        type=a["type"],
        required=a.get("required", False),
        unique=a.get("unique", False),
        default_value=a.get("defaultValue"),
        validation=a.get("validation"),
        options=a.get("options"),
        searchable=a.get("searchable", False),
        translatable=a.get("translatable", True),
    ).as_dict()


@tool(
    "schema_delete_field",
    title="Delete field",
    category="schema",
    perm=Perm.SCHEMA_WRITE,
    destructive=True,
    description="Remove a field from a collection, dropping its column and all its values. Irreversible.",
    input=obj({"collection": COLLECTION, "fieldSlug": COLLECTION}, ("collection", "fieldSlug")),
    output={
        "type": "object",
        "properties": {"deleted": {"type": "string"}, "collection": {"type": "string"}},
        "required": ["deleted", "collection"],
    },
)
def schema_delete_field(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    schema_services.field_delete(actor=actor, collection=a["collection"], field_slug=a["fieldSlug"])
    return {"deleted": a["fieldSlug"], "collection": a["collection"]}
