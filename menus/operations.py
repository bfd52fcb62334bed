"""The 6 menu operations (MCP tools and REST routes): menus and their ordered, nestable items."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from content.outputs import DELETED
from emdash.actor import Actor
from emdash.operations import NULLABLE, WHOLE, Input, NoInput, Route, family, reference
from emdash.operations.shapes import shared
from emdash.permissions import Perm
from menus import selectors, services
from menus.models import MenuItem

API = "_emdash/api/menus"
Name = Annotated[str, reference("Menu name, e.g. primary", services.NAME_MAX_LENGTH)]
# menu_create's name is new: its rule is published (a-z, 0-9, _, starting with a letter; fixed for good).
NewName = Annotated[
    str,
    Field(
        description="Name templates find the menu by: a-z, 0-9 and _, starting with a letter; cannot change",
        min_length=1,
        max_length=services.NAME_MAX_LENGTH,
    ),
]
Label = Annotated[str, Field(description="Display name", min_length=1, max_length=services.LABEL_MAX_LENGTH)]
NULLABLE_STRING = {"type": ["string", "null"]}

ITEM_OUT = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "label": {"type": "string"},
        "type": {"type": "string", "enum": list(MenuItem.TYPES)},
        "url": {**NULLABLE_STRING, "description": "Resolved link; null while the target is unpublished or gone"},
        "customUrl": NULLABLE_STRING,
        "referenceCollection": NULLABLE_STRING,
        "referenceId": NULLABLE_STRING,
        "reference": {
            "type": ["object", "null"],
            "properties": {"collection": {"type": "string"}, "id": NULLABLE_STRING},
        },
        "titleAttr": NULLABLE_STRING,
        "target": NULLABLE_STRING,
        "cssClasses": NULLABLE_STRING,
        "parentId": NULLABLE_STRING,
        "parentIndex": {"type": ["integer", "null"]},
        "position": {"type": "integer"},
    },
    "required": ["id", "label", "type", "url", "parentId", "position"],
}
MENU_PROPERTIES: dict[str, Any] = {
    "name": {"type": "string"},
    "label": {"type": "string"},
    "itemCount": {"type": "integer"},
    "createdAt": NULLABLE_STRING,
    "updatedAt": NULLABLE_STRING,
}
MENU_OUT = shared(
    {
        "type": "object",
        "description": "A menu with its items in order",
        "properties": {**MENU_PROPERTIES, "items": {"type": "array", "items": ITEM_OUT}},
        "required": ["name", "label", "itemCount", "items"],
    },
    "menu_get",
)
MENUS_OUT = {
    "type": "object",
    "properties": {
        "items": {
            "type": "array",
            "items": shared(
                {"type": "object", "properties": MENU_PROPERTIES, "required": ["name", "label", "itemCount"]},
                "menu_get",
                note="without items",
            ),
        }
    },
    "required": ["items"],
}
COUNT_OUT = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "itemCount": {"type": "integer"}},
    "required": ["name", "itemCount"],
}


class MenuItemInput(Input):
    label: Label
    type: Literal[tuple(MenuItem.TYPES)] = Field(  # type: ignore[valid-type]
        description="custom: customUrl; page/post: referenceId (referenceCollection defaults to pages/posts); "
        "taxonomy: referenceCollection = taxonomy, referenceId = term; collection: referenceCollection",
    )
    custom_url: str | None = Field(None, description="https://..., /path or #anchor (custom items)", max_length=2048)
    reference_collection: str | None = Field(
        None, description="Collection slug (taxonomy name for taxonomy items)", max_length=63
    )
    reference_id: str | None = Field(None, description="Id or slug of the item or term", max_length=200)
    title_attr: str | None = Field(None, description="HTML title attribute", max_length=200)
    target: Literal[tuple(MenuItem.TARGETS)] | None = Field(None, description="Link target")  # type: ignore[valid-type]
    css_classes: str | None = Field(None, description="CSS class names separated by spaces", max_length=200)
    # The bound inside the union, so the schema says "minimum" (on the field pydantic would print "ge").
    parent_index: Annotated[Annotated[int, Field(ge=0), WHOLE] | None, NULLABLE] = Field(
        None, description="Index of the parent item, an earlier one in this list"
    )


class NameInput(Input):
    name: Name


class LabelInput(NameInput):
    label: Label


class CreateInput(Input):
    name: NewName
    label: Label


class SetItemsInput(NameInput):
    items: list[MenuItemInput] = Field(description="The new items, in order", max_length=services.MAX_ITEMS)


def set_items(*, actor: Actor, name: str, items: list[MenuItemInput]) -> dict[str, Any]:
    # The service checks references and nesting on the wire keys (its problems are keyed items.<i>.<key>).
    wire = [item.model_dump(by_alias=True, exclude_unset=True) for item in items]
    return {"name": name, "itemCount": services.menu_set_items(actor=actor, name=name, items=wire)}


def _detail(menu: Any, args: Any) -> dict[str, Any]:
    return selectors.menu_detail(menu)


def _target(args: Any, payload: Any) -> str:
    return f"menus/{args.name}"


ONE = f"{API}/<str:name>"
read = family(perm=Perm.MENU_READ, category="menu", read_only=True, idempotent=True)
manage = family(perm=Perm.MENU_MANAGE, category="menu", target=_target)
# menu_create and menu_update answer the whole menu, as menu_get does.
change = family(perm=Perm.MENU_MANAGE, category="menu", target=_target, present=_detail, output_schema=MENU_OUT)

read(
    "menu_list",
    title="List menus",
    description="List the navigation menus by name, with labels and item counts.",
    input=NoInput,
    service=selectors.menu_list,
    present=lambda rows, args: {"items": rows},
    output_schema=MENUS_OUT,
    routes=(Route("GET", API, name="api-menus"),),
)
read(
    "menu_get",
    title="Get menu",
    description="Get a menu with its items in order (parents first), each with its resolved url and the keys "
    "menu_set_items accepts, so the list can be edited and sent back.",
    input=NameInput,
    service=selectors.menu_get,
    output_schema=MENU_OUT,
    routes=(Route("GET", ONE, name="api-menu"),),
)
change(
    "menu_create",
    title="Create menu",
    description="Create an empty menu; add items with menu_set_items.",
    input=CreateInput,
    service=services.menu_create,
    routes=(Route("POST", API, args="body", status=201, name="api-menus"),),
)
change(
    "menu_update",
    title="Update menu",
    description="Change a menu's label (its name cannot change).",
    input=LabelInput,
    service=services.menu_update,
    idempotent=True,
    routes=(Route("PUT", ONE, args="body", name="api-menu"),),
)
manage(
    "menu_delete",
    title="Delete menu",
    description="Delete a menu and its items.",
    input=NameInput,
    service=services.menu_delete,
    present=lambda result, args: {"deleted": True},
    output_schema=DELETED,
    destructive=True,
    routes=(Route("DELETE", ONE, name="api-menu"),),
)
manage(
    "menu_set_items",
    title="Replace menu items",
    description="Replace all of a menu's items with this ordered list, all or nothing (every problem is "
    "reported). Referenced items and terms must exist. Returns {name, itemCount}.",
    input=SetItemsInput,
    service=set_items,
    output_schema=COUNT_OUT,
    idempotent=True,
    routes=(Route("PUT", f"{ONE}/items", args="body", name="api-menu-items"),),
)
