"""The 16 content tools: thin adapters over content.services and content.selectors."""

from __future__ import annotations

from typing import Any

from content import selectors, services
from emdash.actor import Actor
from emdash.permissions import Perm
from mcp_endpoint.registry import tool
from mcp_endpoint.schemas import (
    COLLECTION,
    CURSOR,
    DATA,
    DELETED,
    ID,
    ITEM,
    ITEM_ONLY,
    ITEM_WITH_REV,
    LOCALE,
    SLUG,
    TERMS_IN,
    limit,
    obj,
    page_of,
    string,
)
from taxonomy.selectors import assigned_terms

ORDER_BY = sorted(selectors.ORDER_FIELDS)
TARGET = {"collection": COLLECTION, "id": ID}
SUMMARY = {**ITEM, "description": "An item summary: metadata and short field values (no long text or rich text)"}


@tool(
    "content_list",
    title="List content",
    category="content",
    perm=Perm.CONTENT_READ,
    read_only=True,
    idempotent=True,
    description="List items in a collection, newest first by default, with optional status filter and cursor "
    "pagination. Summaries leave out long text and rich-text fields; call content_get for the full item.",
    input=obj(
        {
            "collection": COLLECTION,
            "status": {
                "type": "string",
                "enum": ["draft", "published", "scheduled"],
                "description": "Filter by status",
            },
            "limit": limit(50, 100),
            "cursor": CURSOR,
            "orderBy": {"type": "string", "enum": ORDER_BY, "description": "Sort field (snake_case or camelCase)"},
            "order": {"type": "string", "enum": ["asc", "desc"], "description": "Sort direction (default desc)"},
            "locale": LOCALE,
        },
        ("collection",),
    ),
    output=page_of(SUMMARY),
)
def content_list(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    return selectors.entry_list(
        actor=actor,
        collection=a["collection"],
        status=a.get("status"),
        locale=a.get("locale"),
        order_by=a.get("orderBy", "created_at"),
        order=a.get("order", "desc"),
        limit=a.get("limit", 50),
        cursor=a.get("cursor"),
    ).to_dict()


@tool(
    "content_get",
    title="Get content item",
    category="content",
    perm=Perm.CONTENT_READ,
    read_only=True,
    idempotent=True,
    description="Get one item by ID or slug with all field values, metadata, liveData when a draft is pending, and "
    "the _rev token to pass to content_update for conflict detection.",
    input=obj({**TARGET, "locale": LOCALE}, ("collection", "id")),
    output=ITEM_WITH_REV,
)
def content_get(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    entry = selectors.entry_get(actor=actor, collection=a["collection"], id=a["id"], locale=a.get("locale"))
    return {"item": _with_terms(entry), "_rev": entry.rev}


def _with_terms(entry: Any) -> dict[str, Any]:
    """The item plus its taxonomy terms (one query)."""
    return {**entry.to_dict(), "terms": assigned_terms(collection=entry.spec.slug, entry_id=entry.id)}


@tool(
    "content_create",
    title="Create content item",
    category="content",
    perm=Perm.CONTENT_CREATE,
    description="Create an item. data keys must be field slugs of the collection (call schema_get_collection "
    "first). Created as a draft unless status is published. The slug is generated from the title when omitted.",
    input=obj(
        {
            "collection": COLLECTION,
            "data": DATA,
            "slug": SLUG,
            "status": {
                "type": "string",
                "enum": ["draft", "published"],
                "description": "Initial status (default draft)",
            },
            "locale": LOCALE,
            "translationOf": string("ID of the item this one translates", minLength=1, maxLength=200),
            "terms": TERMS_IN,
        },
        ("collection", "data"),
    ),
    output=ITEM_WITH_REV,
)
def content_create(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    entry = services.entry_create(
        actor=actor,
        collection=a["collection"],
        data=a["data"],
        slug=a.get("slug"),
        status=a.get("status"),
        locale=a.get("locale"),
        translation_of=a.get("translationOf"),
        terms=a.get("terms"),
    )
    return {"item": _with_terms(entry) if "terms" in a else entry.to_dict(), "_rev": entry.rev}


@tool(
    "content_update",
    title="Update content item",
    category="content",
    perm=Perm.CONTENT_EDIT_OWN,
    description="Update an item. Send only the fields to change. On a published item the edit becomes a draft "
    "until content_publish. Pass _rev from content_get to refuse the write if someone changed the item meanwhile.",
    input=obj(
        {
            **TARGET,
            "data": DATA,
            "slug": SLUG,
            "status": {"type": "string", "enum": ["draft", "published"], "description": "New status"},
            "_rev": string("Revision token from content_get", minLength=1, maxLength=100),
            "terms": TERMS_IN,
        },
        ("collection", "id"),
    ),
    output=ITEM_WITH_REV,
)
def content_update(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    entry = services.entry_update(
        actor=actor,
        collection=a["collection"],
        id=a["id"],
        data=a.get("data"),
        slug=a.get("slug"),
        status=a.get("status"),
        rev=a.get("_rev"),
        terms=a.get("terms"),
    )
    return {"item": _with_terms(entry) if "terms" in a else entry.to_dict(), "_rev": entry.rev}


@tool(
    "content_delete",
    title="Move content to trash",
    category="content",
    perm=Perm.CONTENT_EDIT_OWN,
    destructive=True,
    description="Soft-delete an item: it moves to the trash. Undo with content_restore; remove for good with "
    "content_permanent_delete.",
    input=obj(TARGET, ("collection", "id")),
    output=DELETED,
)
def content_delete(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    services.entry_trash(actor=actor, collection=a["collection"], id=a["id"])
    return {"deleted": True}


@tool(
    "content_restore",
    title="Restore from trash",
    category="content",
    perm=Perm.CONTENT_EDIT_OWN,
    description="Restore a soft-deleted item from the trash.",
    input=obj(TARGET, ("collection", "id")),
    output={
        "type": "object",
        "properties": {"restored": {"type": "boolean"}, "item": ITEM},
        "required": ["restored", "item"],
    },
)
def content_restore(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    entry = services.entry_restore(actor=actor, collection=a["collection"], id=a["id"])
    return {"restored": True, "item": entry.to_dict()}


@tool(
    "content_permanent_delete",
    title="Delete permanently",
    category="content",
    perm=Perm.CONTENT_DELETE_PERMANENT,
    destructive=True,
    description="Permanently and irreversibly delete an item that is already in the trash, with its revisions.",
    input=obj(TARGET, ("collection", "id")),
    output=DELETED,
)
def content_permanent_delete(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    services.entry_delete_permanently(actor=actor, collection=a["collection"], id=a["id"])
    return {"deleted": True}


def _lifecycle(name: str, title: str, description: str, action: Any, **flags: Any) -> None:
    @tool(
        name,
        title=title,
        category="content",
        perm=Perm.CONTENT_EDIT_OWN,
        description=description,
        input=obj(TARGET, ("collection", "id")),
        output=ITEM_ONLY,
        **flags,
    )
    def handler(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
        return {"item": action(actor=actor, collection=a["collection"], id=a["id"]).to_dict()}


_lifecycle(
    "content_publish",
    "Publish content",
    "Publish an item: the current draft goes live on the site. Later edits become a new draft.",
    services.entry_publish,
    idempotent=True,
)
_lifecycle(
    "content_unpublish",
    "Unpublish content",
    "Take a published item off the site; it becomes a draft and keeps its content.",
    services.entry_unpublish,
    idempotent=True,
)
_lifecycle(
    "content_unschedule",
    "Cancel scheduled publishing",
    "Cancel a scheduled publish. Idempotent: an item with no schedule is returned unchanged.",
    services.entry_unschedule,
    idempotent=True,
)
_lifecycle(
    "content_discard_draft",
    "Discard draft",
    "Throw away the pending draft and return to the live version (items published at least once).",
    services.entry_discard_draft,
    destructive=True,
    idempotent=True,
)


@tool(
    "content_schedule",
    title="Schedule publishing",
    category="content",
    perm=Perm.CONTENT_EDIT_OWN,
    description="Publish an item automatically at a future time. A published item keeps serving its live version "
    "until then, when its pending draft goes live.",
    input=obj(
        {
            **TARGET,
            "scheduledAt": string("Future ISO 8601 date-time, e.g. 2026-06-01T09:00:00Z", minLength=1, maxLength=64),
        },
        ("collection", "id", "scheduledAt"),
    ),
    output=ITEM_ONLY,
)
def content_schedule(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    entry = services.entry_schedule(actor=actor, collection=a["collection"], id=a["id"], scheduled_at=a["scheduledAt"])
    return {"item": entry.to_dict()}


@tool(
    "content_compare",
    title="Compare draft and live",
    category="content",
    perm=Perm.CONTENT_READ_UNPUBLISHED,
    read_only=True,
    idempotent=True,
    description="Compare the live (published) values of an item with its current draft.",
    input=obj(TARGET, ("collection", "id")),
    output={
        "type": "object",
        "properties": {
            "hasChanges": {"type": "boolean"},
            "live": {"type": ["object", "null"]},
            "draft": {"type": "object"},
        },
        "required": ["hasChanges", "live", "draft"],
    },
)
def content_compare(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    return selectors.entry_compare(actor=actor, collection=a["collection"], id=a["id"])


@tool(
    "content_list_trashed",
    title="List trash",
    category="content",
    perm=Perm.CONTENT_READ_UNPUBLISHED,
    read_only=True,
    idempotent=True,
    description="List soft-deleted items of a collection, most recently deleted first.",
    input=obj({"collection": COLLECTION, "limit": limit(50, 100), "cursor": CURSOR}, ("collection",)),
    output=page_of(SUMMARY),
)
def content_list_trashed(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    return selectors.entry_list_trashed(
        actor=actor, collection=a["collection"], limit=a.get("limit", 50), cursor=a.get("cursor")
    ).to_dict()


@tool(
    "content_duplicate",
    title="Duplicate content",
    category="content",
    perm=Perm.CONTENT_CREATE,
    description="Copy an item as a new draft: title gets ' (Copy)', a new slug is generated.",
    input=obj(TARGET, ("collection", "id")),
    output=ITEM_ONLY,
)
def content_duplicate(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    return {"item": services.entry_duplicate(actor=actor, collection=a["collection"], id=a["id"]).to_dict()}


@tool(
    "content_translations",
    title="List translations",
    category="content",
    perm=Perm.CONTENT_READ,
    read_only=True,
    idempotent=True,
    description="List the locale variants of an item (its translation group).",
    input=obj(TARGET, ("collection", "id")),
    output={
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
    },
)
def content_translations(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    return selectors.entry_translations(actor=actor, collection=a["collection"], id=a["id"])
