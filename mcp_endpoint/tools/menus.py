"""The 6 menu tools: thin adapters over menus.services and menus.selectors."""

from __future__ import annotations

from typing import Any

from emdash.actor import Actor
from emdash.permissions import Perm
from mcp_endpoint.registry import tool
from mcp_endpoint.schemas import DELETED, obj, string
from menus import selectors, services
from menus.models import MenuItem

NAME = string("Menu name, e.g. primary", minLength=1, maxLength=services.NAME_MAX_LENGTH)
LABEL = string("Display name", minLength=1, maxLength=services.LABEL_MAX_LENGTH)
NULLABLE = {"type": ["string", "null"]}
ITEM_OUT = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "label": {"type": "string"},
        "type": {"type": "string", "enum": list(MenuItem.TYPES)},
        "url": {**NULLABLE, "description": "Resolved link; null while the target is unpublished or gone"},
        "customUrl": NULLABLE,
        "referenceCollection": NULLABLE,
        "referenceId": NULLABLE,
        "reference": {
            "type": ["object", "null"],
            "properties": {"collection": {"type": "string"}, "id": NULLABLE},
        },
        "titleAttr": NULLABLE,
        "target": NULLABLE,
        "cssClasses": NULLABLE,
        "parentId": NULLABLE,
        "parentIndex": {"type": ["integer", "null"]},
        "position": {"type": "integer"},
    },
    "required": ["id", "label", "type", "url", "parentId", "position"],
}
MENU_PROPERTIES: dict[str, Any] = {
    "name": {"type": "string"},
    "label": {"type": "string"},
    "itemCount": {"type": "integer"},
    "createdAt": NULLABLE,
    "updatedAt": NULLABLE,
}
MENU_OUT = {
    "type": "object",
    "properties": {**MENU_PROPERTIES, "items": {"type": "array", "items": ITEM_OUT}},
    "required": ["name", "label", "itemCount", "items"],
}
ITEM_IN = obj(
    {
        "label": LABEL,
        "type": {
            "type": "string",
            "enum": list(MenuItem.TYPES),
            "description": "custom (customUrl), page/post (referenceId of an item; referenceCollection defaults "
            "to pages/posts), taxonomy (referenceCollection = taxonomy name, referenceId = term slug or ID), "
            "collection (referenceCollection = collection slug)",
        },
        "customUrl": string("custom items only: https://..., /site/path or #anchor", maxLength=2048),
        "referenceCollection": string("Collection slug, or taxonomy name for taxonomy items", maxLength=63),
        "referenceId": string("ID or slug of the referenced item or term", maxLength=200),
        "titleAttr": string("HTML title attribute", maxLength=200),
        "target": {"type": "string", "enum": list(MenuItem.TARGETS), "description": "Link target"},
        "cssClasses": string("CSS class names separated by spaces", maxLength=200),
        "parentIndex": {
            "type": ["integer", "null"],
            "minimum": 0,
            "description": "Index in this list of the parent item; must be an earlier item",
        },
    },
    ("label", "type"),
)


@tool(
    "menu_list",
    title="List menus",
    category="menu",
    perm=Perm.MENU_READ,
    read_only=True,
    idempotent=True,
    description="List navigation menus by name, with their labels and item counts.",
    input=obj({}),
    output={
        "type": "object",
        "properties": {
            "items": {
                "type": "array",
                "items": {"type": "object", "properties": MENU_PROPERTIES, "required": ["name", "label", "itemCount"]},
            }
        },
        "required": ["items"],
    },
)
def menu_list(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    return {"items": selectors.menu_list(actor=actor)}


@tool(
    "menu_get",
    title="Get menu",
    category="menu",
    perm=Perm.MENU_READ,
    read_only=True,
    idempotent=True,
    description="Get a menu with its items in order (parents before children). Each item has its resolved url, "
    "and the keys menu_set_items accepts (parentIndex included), so a list can be edited and sent back.",
    input=obj({"name": NAME}, ("name",)),
    output=MENU_OUT,
)
def menu_get(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    return selectors.menu_get(actor=actor, name=a["name"])


@tool(
    "menu_create",
    title="Create menu",
    category="menu",
    perm=Perm.MENU_MANAGE,
    description="Create an empty menu. name (lowercase letters, digits, '_', starting with a letter) is how "
    "templates find it and cannot change later. Add items with menu_set_items.",
    input=obj({"name": NAME, "label": LABEL}, ("name", "label")),
    output=MENU_OUT,
)
def menu_create(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    return selectors.menu_detail(services.menu_create(actor=actor, name=a["name"], label=a["label"]))


@tool(
    "menu_update",
    title="Update menu",
    category="menu",
    perm=Perm.MENU_MANAGE,
    idempotent=True,
    description="Change a menu's label. The name is immutable.",
    input=obj({"name": NAME, "label": LABEL}, ("name", "label")),
    output=MENU_OUT,
)
def menu_update(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    return selectors.menu_detail(services.menu_update(actor=actor, name=a["name"], label=a["label"]))


@tool(
    "menu_delete",
    title="Delete menu",
    category="menu",
    perm=Perm.MENU_MANAGE,
    destructive=True,
    description="Delete a menu and all its items.",
    input=obj({"name": NAME}, ("name",)),
    output=DELETED,
)
def menu_delete(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    services.menu_delete(actor=actor, name=a["name"])
    return {"deleted": True}


@tool(
    "menu_set_items",
    title="Replace menu items",
    category="menu",
    perm=Perm.MENU_MANAGE,
    idempotent=True,
    description="Replace all items of a menu with this ordered list, atomically: if any item is invalid nothing "
    "changes and every problem is reported. Nest an item with parentIndex, the index of an EARLIER item. "
    "References must exist: page/post items an item of the collection, taxonomy items a term.",
    input=obj(
        {"name": NAME, "items": {"type": "array", "maxItems": services.MAX_ITEMS, "items": ITEM_IN}},
        ("name", "items"),
    ),
    output={
        "type": "object",
        "properties": {"name": {"type": "string"}, "itemCount": {"type": "integer"}},
        "required": ["name", "itemCount"],
    },
)
def menu_set_items(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    count = services.menu_set_items(actor=actor, name=a["name"], items=a["items"])
    return {"name": a["name"], "itemCount": count}
