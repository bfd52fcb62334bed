"""Menu reads: the list, one menu with its ordered items and their resolved URLs, and a tree for templates.

Menus are public. A reference item's ``url`` points at published, non-trashed content only (so drafts'
slugs never leak to visitors); it is null while the target is unpublished, trashed or gone.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count

from content.entries import rows
from content.links import entry_path
from content.schema import specs as schema
from emdash.actor import Actor
from emdash.dates import iso
from emdash.permissions import Perm, require
from menus.models import Menu, MenuItem
from menus.services import get_menu
from taxonomy.selectors import term_paths


def collection_path(collection: str) -> str:
    return f"/{collection}/"


def menu_list(*, actor: Actor, locale: str | None = None) -> list[dict[str, Any]]:
    """Every menu, or those of ``locale``."""
    require(actor, Perm.MENU_READ)
    qs = Menu.objects.annotate(item_count=Count("items")).order_by("name", "locale")
    if locale is not None:
        qs = qs.filter(locale=rows.resolve_locale(locale))
    return [_menu(m, m.item_count) for m in qs]


def menu_translations(*, actor: Actor, name: Any, locale: Any = None) -> dict[str, Any]:
    """A menu's locale variants (its translation group), as content_translations answers an item's."""
    require(actor, Perm.MENU_READ)
    menu = get_menu(name, locale=locale)
    group = menu.translation_group or str(menu.pk)
    variants = Menu.objects.filter(translation_group=group).annotate(item_count=Count("items")).order_by("locale")
    return {"translationGroup": group, "translations": [_menu(m, m.item_count) for m in variants]}


def _menu(menu: Menu, item_count: int) -> dict[str, Any]:
    return {
        "id": menu.pk,
        "name": menu.name,
        "locale": menu.locale,
        "translationGroup": menu.translation_group or str(menu.pk),
        "label": menu.label,
        "itemCount": item_count,
        "createdAt": iso(menu.created_at),
        "updatedAt": iso(menu.updated_at),
    }


def resolve_urls(items: list[MenuItem]) -> dict[str, str | None]:
    """Item ID -> public URL: one query per referenced collection plus one for all terms."""
    collections = schema.current().collections
    entries: dict[str, list[str]] = {}
    terms: list[str] = []
    for item in items:
        if item.type in ("page", "post") and item.reference_collection in collections:
            entries.setdefault(item.reference_collection, []).append(item.reference_id)
        elif item.type == "taxonomy":
            terms.append(item.reference_id)
    entry_urls: dict[tuple[str, str], str] = {}
    for collection, ids in entries.items():
        published = rows.published_by_id(collections[collection], ids, "id", "slug")
        entry_urls.update({(collection, entry_id): entry_path(collection, slug) for entry_id, slug in published})
    term_urls = term_paths(terms)
    urls: dict[str, str | None] = {}
    for item in items:
        if item.type == "custom":
            urls[item.id] = item.custom_url
        elif item.type == "taxonomy":
            urls[item.id] = term_urls.get(item.reference_id)
        elif item.type == "collection":
            urls[item.id] = (
                collection_path(item.reference_collection) if item.reference_collection in collections else None
            )
        else:
            urls[item.id] = entry_urls.get((item.reference_collection, item.reference_id))
    return urls


def _item(item: MenuItem, url: str | None, index_of: dict[str, int]) -> dict[str, Any]:
    reference = None
    if item.type != "custom":
        reference = {"collection": item.reference_collection, "id": item.reference_id or None}
    return {
        "id": item.id,
        "label": item.label,
        "type": item.type,
        "url": url,
        "customUrl": item.custom_url or None,
        "referenceCollection": item.reference_collection or None,
        "referenceId": item.reference_id or None,
        "reference": reference,
        "titleAttr": item.title_attr or None,
        "target": item.target or None,
        "cssClasses": item.css_classes or None,
        "parentId": item.parent_id,
        "parentIndex": index_of.get(item.parent_id) if item.parent_id else None,
        "position": item.position,
        "translationGroup": item.translation_group or item.id,
    }


def _items(menu: Menu) -> list[dict[str, Any]]:
    items = list(MenuItem.objects.filter(menu=menu).order_by("position"))
    urls = resolve_urls(items)
    index_of = {item.id: index for index, item in enumerate(items)}
    return [_item(item, urls[item.id], index_of) for item in items]


def menu_get(*, actor: Actor, name: Any, locale: Any = None) -> dict[str, Any]:
    """The menu with its items in order (parents before their children)."""
    require(actor, Perm.MENU_READ)
    return menu_detail(get_menu(name, locale=locale))


def menu_detail(menu: Menu) -> dict[str, Any]:
    """A menu the caller already holds (e.g. from a write service) with its items; no permission check."""
    items = _items(menu)
    return {**_menu(menu, len(items)), "items": items}


def menu_tree(*, actor: Actor, name: Any, locale: Any = None) -> dict[str, Any]:
    """For templates: ``{name, label, items: [{label, url, target, titleAttr, cssClasses, children}]}``, the
    variant of ``locale`` or else the default locale's.

    Items whose target is not public (url null) are left out, with the items nested under them."""
    require(actor, Perm.MENU_READ)
    menu = get_menu(name, locale=locale, fallback=True)
    nodes: dict[str, dict[str, Any]] = {}
    roots: list[dict[str, Any]] = []
    for item in _items(menu):  # parents come first, so a missing parent means it was left out
        if item["url"] is None or (item["parentId"] is not None and item["parentId"] not in nodes):
            continue
        node = {
            "id": item["id"],
            "label": item["label"],
            "url": item["url"],
            "type": item["type"],
            "target": item["target"],
            "titleAttr": item["titleAttr"],
            "cssClasses": item["cssClasses"],
            "children": [],
        }
        nodes[item["id"]] = node
        (nodes[item["parentId"]]["children"] if item["parentId"] else roots).append(node)
    return {"name": menu.name, "label": menu.label, "locale": menu.locale, "items": roots}
