"""The 6 menu operations (MCP tools and REST routes): menus and their ordered, nestable items."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from emdash.actor import Actor
from emdash.operations import NULLABLE, READ, WHOLE, Endpoint, Input, audit_as, family, reference, under
from emdash.operations.shapes import INTEGER, NULLABLE_INTEGER, NULLABLE_STRING, STRING, array, items_of, obj, shared
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

ITEM_OUT = obj(
    {
        "id": STRING,
        "label": STRING,
        "type": {"type": "string", "enum": list(MenuItem.TYPES)},
        "url": {**NULLABLE_STRING, "description": "Resolved link; null while the target is unpublished or gone"},
        "customUrl": NULLABLE_STRING,
        "referenceCollection": NULLABLE_STRING,
        "referenceId": NULLABLE_STRING,
        "reference": {**obj({"collection": STRING, "id": NULLABLE_STRING}), "type": ["object", "null"]},
        "titleAttr": NULLABLE_STRING,
        "target": NULLABLE_STRING,
        "cssClasses": NULLABLE_STRING,
        "parentId": NULLABLE_STRING,
        "parentIndex": NULLABLE_INTEGER,
        "position": INTEGER,
        "translationGroup": STRING,
    },
    ["id", "label", "type", "url", "parentId", "position"],
)
MENU_PROPERTIES: dict[str, Any] = {
    "id": INTEGER,
    "name": STRING,
    "locale": STRING,
    "translationGroup": STRING,
    "label": STRING,
    "itemCount": INTEGER,
    "createdAt": NULLABLE_STRING,
    "updatedAt": NULLABLE_STRING,
}
MENU_OUT = shared(
    obj(
        {**MENU_PROPERTIES, "items": array(ITEM_OUT)},
        ["name", "label", "itemCount", "items"],
        "A menu with its items in order",
    ),
    "menu_get",
)
MENUS_OUT = items_of(shared(obj(MENU_PROPERTIES, ["name", "label", "itemCount"]), "menu_get", note="without items"))
COUNT_OUT = obj({"name": STRING, "itemCount": INTEGER}, ["name", "itemCount"])
VARIANTS_OUT = obj(
    {
        "translationGroup": STRING,
        "translations": array(
            shared(obj(MENU_PROPERTIES, ["name", "label", "itemCount"]), "menu_get", note="no items")
        ),
    },
    ["translationGroup", "translations"],
)
Locale = Annotated[str, reference("Locale, e.g. fr (default: the default locale)", 16)]


class MenuItemInput(Input):
    id: Annotated[str, reference("The id menu_get gave the item: it keeps its id and translation group", 26)] | None = (
        None
    )
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
    locale: Locale | None = None


class ListInput(Input):
    locale: Annotated[str, reference("Only this locale's menus", 16)] | None = None


class LabelInput(NameInput):
    label: Label


class CreateInput(Input):
    name: NewName
    label: Label
    locale: Locale | None = None
    translation_of: Annotated[str, reference("Id, or name, of this menu in another locale", 63)] | None = None


class SetItemsInput(NameInput):
    items: list[MenuItemInput] = Field(description="The new items, in order", max_length=services.MAX_ITEMS)


def set_items(*, actor: Actor, name: str, items: list[MenuItemInput], locale: str | None = None) -> dict[str, Any]:
    # The service checks references and nesting on the wire keys (its problems are keyed items.<i>.<key>).
    wire = [item.model_dump(by_alias=True, exclude_unset=True) for item in items]
    count = services.menu_set_items(actor=actor, name=name, items=wire, locale=locale)
    return {"name": name, "itemCount": count}


def _detail(menu: Any, args: Any) -> dict[str, Any]:
    return selectors.menu_detail(menu)


MENUS = Endpoint(API, "api-menus")
ONE = Endpoint(f"{API}/<str:name>", "api-menu")
ITEMS = Endpoint(f"{API}/<str:name>/items", "api-menu-items")
read = family("menu", Perm.MENU_READ, **READ)
manage = family("menu", Perm.MENU_MANAGE, target=audit_as("menus/{name}"))
# menu_create and menu_update answer the whole menu, as menu_get does.
change = family("menu", Perm.MENU_MANAGE, target=audit_as("menus/{name}"), present=_detail, output=MENU_OUT)

read(
    "menu_list",
    "List menus",
    ListInput,
    selectors.menu_list,
    MENUS.get("query"),
    present=under("items"),
    output=MENUS_OUT,
).describe("List the navigation menus by name (each locale's variant), with labels and item counts.")
read("menu_get", "Get menu", NameInput, selectors.menu_get, ONE.get("query"), output=MENU_OUT).describe(
    "Get a menu with its items in order (parents first), each with its resolved url and the keys "
    "menu_set_items accepts, so the list can be edited and sent back."
)
change("menu_create", "Create menu", CreateInput, services.menu_create, MENUS.post(status=201)).describe(
    "Create an empty menu; add items with menu_set_items."
)
change("menu_update", "Update menu", LabelInput, services.menu_update, ONE.put(), idempotent=True).describe(
    "Change a menu's label (its name cannot change)."
)
manage.gone("menu_delete", "Delete menu", NameInput, services.menu_delete, ONE.delete("query")).describe(
    "Delete a menu and its items."
)
read(
    "menu_translations",
    "List menu translations",
    NameInput,
    selectors.menu_translations,
    Endpoint(f"{API}/<str:name>/translations", "api-menu-translations").get("query"),
    present=lambda result, args: result,
    output=VARIANTS_OUT,
).describe("A menu's locale variants (its translation group); menu_create translationOf adds one.")
manage(
    "menu_set_items", "Replace menu items", SetItemsInput, set_items, ITEMS.put(), output=COUNT_OUT, idempotent=True
).describe(
    "Replace all of a menu's items with this ordered list, all or nothing (every problem is "
    "reported). Referenced items and terms must exist. Returns {name, itemCount}."
)
