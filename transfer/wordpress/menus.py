"""Navigation menus (``nav_menu`` terms and their ``nav_menu_item`` posts) → menus, items in order and nested.

WordPress menu slugs become valid menu names (``all-pages`` → ``all_pages``). An item pointing at something that
was not imported is skipped and reported; the rest of the menu is kept. A custom link menus refuse
(``javascript:void(0)``, ``mailto:``) links to ``#`` instead, so the item and its children stay.
"""

from __future__ import annotations

from typing import Any

from content.entries.slugs import slugify
from emdash.actor import Actor
from emdash.errors import EmDashError
from emdash.numbers import plain_int
from emdash.safe_urls import url_problem
from menus.models import Menu
from menus.services import menu_create, menu_set_items
from transfer.wordpress import wxr
from transfer.wordpress.collections import TAXONOMIES
from transfer.wordpress.report import Links, Report


def menu_name(slug: str) -> str:
    name = slugify(slug).replace("-", "_")[:63]
    return name if name[:1].isalpha() else f"menu_{name}"[:63]


def _item(nav: wxr.Item, links: Links, titles: dict[int, str]) -> dict[str, Any] | str:
    """A menu_set_items entry, or why the item cannot be kept."""
    kind, target = wxr.value(nav.meta, "_menu_item_type"), wxr.value(nav.meta, "_menu_item_object_id")
    item: dict[str, Any] = {"label": nav.title or titles.get(plain_int(target) or 0, "")}
    if kind == "custom":
        item.update(type="custom", customUrl=wxr.value(nav.meta, "_menu_item_url") or "#")
    elif kind == "post_type":
        link = links.get("item", target)
        if link is None:
            return f"it points at post {target}, which was not imported"
        item.update(
            type="page" if link.collection == "pages" else "post",
            referenceCollection=link.collection,
            referenceId=link.target,
        )
    elif kind == "taxonomy":
        taxonomy = wxr.value(nav.meta, "_menu_item_object")
        term = links.get("term_id", target)
        if taxonomy not in TAXONOMIES or term is None:
            return f"it points at {taxonomy} term {target}, which was not imported"
        item.update(type="taxonomy", referenceCollection=TAXONOMIES[taxonomy], referenceId=term.target)
    else:
        return f"menu items of type '{kind}' have no equivalent here"
    if not item["label"]:
        item["label"] = "Untitled"
    if wxr.value(nav.meta, "_menu_item_target") == "_blank":
        item["target"] = "_blank"
    return item


def import_menus(site: wxr.Site, actor: Actor, links: Links, report: Report) -> None:
    titles = {item.post_id: item.title for item in site.items}
    navs = [i for i in site.items if i.post_type == "nav_menu_item"]
    for term in (t for t in site.terms if t.taxonomy == "nav_menu"):
        name = menu_name(term.slug)
        if links.get("menu", term.slug) is not None or Menu.objects.filter(name=name).exists():
            report.existing["menus"] += 1
            continue
        members = sorted((n for n in navs if ("nav_menu", term.slug) in n.terms), key=lambda n: n.menu_order)
        items: list[dict[str, Any]] = []
        position: dict[int, int] = {}
        for nav in members:
            made = _item(nav, links, titles)
            if isinstance(made, str):
                report.skip(f"menu item {nav.post_id} of menu {term.slug}", made)
                continue
            problem = url_problem(made["customUrl"]) if made["type"] == "custom" else None
            if problem is not None:  # javascript:void(0) on a dropdown's parent, mailto:, a bare "about/"...
                report.notes.append(
                    f"menu {term.slug}: item {nav.post_id}'s link {made['customUrl'][:100]!r} {problem}: it links to #"
                )
                made["customUrl"] = "#"
            parent = wxr.value(nav.meta, "_menu_item_menu_item_parent")
            parent_id = plain_int(parent)
            if parent_id is not None and parent_id in position:
                made["parentIndex"] = position[parent_id]
            position[nav.post_id] = len(items)
            items.append(made)
        try:
            menu_create(actor=actor, name=name, label=term.name or name)
            menu_set_items(actor=actor, name=name, items=items)
        except EmDashError as exc:
            report.skip(f"menu {term.slug}", str(exc))
            continue
        links.add("menu", term.slug, name)
        report.created["menus"] += 1
        report.created["menu items"] += len(items)
