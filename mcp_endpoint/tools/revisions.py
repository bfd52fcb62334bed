"""The 2 revision tools."""

from __future__ import annotations

from typing import Any

from content import selectors, services
from emdash.actor import Actor
from emdash.permissions import Perm
from mcp_endpoint.registry import tool
from mcp_endpoint.schemas import COLLECTION, ID, ITEM_WITH_REV, limit, obj, string

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


@tool(
    "revision_list",
    title="List revisions",
    category="revision",
    perm=Perm.CONTENT_READ_UNPUBLISHED,
    read_only=True,
    idempotent=True,
    description="List an item's saved revisions, newest first, with the values each one held.",
    input=obj({"collection": COLLECTION, "id": ID, "limit": limit(20, 50)}, ("collection", "id")),
    output={
        "type": "object",
        "properties": {"items": {"type": "array", "items": REVISION}, "total": {"type": "integer"}},
        "required": ["items", "total"],
    },
)
def revision_list(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    return selectors.revision_list(actor=actor, collection=a["collection"], id=a["id"], limit=a.get("limit", 20))


@tool(
    "revision_restore",
    title="Restore revision",
    category="revision",
    perm=Perm.CONTENT_EDIT_OWN,
    description="Make a revision's values the item's new draft. It is not published; call content_publish after.",
    input=obj({"revisionId": string("Revision ID from revision_list", minLength=1, maxLength=26)}, ("revisionId",)),
    output=ITEM_WITH_REV,
)
def revision_restore(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    entry = services.revision_restore(actor=actor, revision_id=a["revisionId"])
    return {"item": entry.to_dict(), "_rev": entry.rev}
