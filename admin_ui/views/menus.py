"""Menus: list, create and delete; the editor posts the whole ordered, nested item list at once."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from admin_ui import menu_links
from admin_ui.base import actor_for, admin_page, attempt, form_page, found_or_404, posted, run, status_for
from admin_ui.display import title_of
from content.entries import selectors as content_selectors
from content.schema import specs as schema
from emdash import json_input
from emdash.actor import Actor
from emdash.errors import EmDashError, ValidationError
from emdash.permissions import Perm
from menus import selectors

EDITOR_ONLY = {"title", "kind"}  # shown in the editor, not part of a menu item
SEARCH_PER_COLLECTION = 8


@admin_page(Perm.MENU_MANAGE, "GET", "POST")
def menu_list(request: HttpRequest) -> HttpResponse:
    outcome = posted(request, "menu_create", _new_menu, "Menu created.")
    if outcome and outcome.ok:
        return redirect("admin_ui:menu_edit", outcome.result["name"])
    return form_page(
        request, "admin_ui/menus/list.html", "menus", outcome, menus=selectors.menu_list(actor=actor_for(request))
    )


def _new_menu(post: Any) -> dict[str, Any]:
    return {"name": post.get("name", "").strip(), "label": post.get("label", "")}


def items_with_parents(raw: str) -> list[Any]:
    """The editor sends items in order with a nesting ``depth``; the service wants ``parentIndex``."""
    try:
        items = json_input.loads(raw or "[]")
    except ValueError:
        raise ValidationError.for_fields({"items": "could not be read; reload the page and try again"}) from None
    if not isinstance(items, list):
        raise ValidationError.for_fields({"items": "must be a list"})
    last_at_depth: list[int] = []
    out: list[Any] = []
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            out.append(item)
            continue
        depth = item.pop("depth", 0)
        depth = depth if isinstance(depth, int) and not isinstance(depth, bool) else 0
        depth = max(0, min(depth, len(last_at_depth)))
        del last_at_depth[depth:]
        item = {k: v for k, v in item.items() if v not in ("", None) and k not in EDITOR_ONLY}
        if depth:
            item["parentIndex"] = last_at_depth[depth - 1]
        last_at_depth.append(index)
        out.append(item)
    return out


def _editor_items(actor: Actor, menu: dict[str, Any]) -> list[dict[str, Any]]:
    describe = menu_links.Describer(actor)
    depth_of: dict[str, int] = {}
    items = []
    for item in menu["items"]:
        depth = depth_of[item["parentId"]] + 1 if item["parentId"] in depth_of else 0
        depth_of[item["id"]] = depth
        items.append(
            {
                "label": item["label"],
                "type": item["type"],
                "customUrl": item["customUrl"] or "",
                "referenceCollection": item["referenceCollection"] or "",
                "referenceId": item["referenceId"] or "",
                "target": item["target"] or "",
                "depth": depth,
                "title": describe.title(item),
                "kind": describe.kind(item),
            }
        )
    return items


@admin_page(Perm.MENU_MANAGE, "GET", "POST")
def menu_edit(request: HttpRequest, name: str) -> HttpResponse:
    actor = actor_for(request)
    with found_or_404("No such menu"):
        menu = selectors.menu_get(actor=actor, name=name)
    raw_items = None
    outcome = None
    if request.method == "POST":
        raw_items = request.POST.get("items_json", "[]")
        parsed = attempt(request, "menu_set_items", lambda: items_with_parents(raw_items), audited=False)
        outcome = (
            run(request, "menu_set_items", {"name": name, "items": parsed.result}, "Menu saved.")
            if parsed.ok
            else parsed
        )
        if outcome.ok:
            return redirect("admin_ui:menu_edit", name)
    context = {
        "menu": menu,
        "items_json": raw_items if raw_items is not None else json.dumps(_editor_items(actor, menu)),
        "kinds": menu_links.KINDS,
        "terms": menu_links.term_choices(actor),
        "collections": menu_links.collection_choices(),
        "nav_key": "menus",
        "picker_url": reverse("admin_ui:menu_content_search"),
    }
    return render(request, "admin_ui/menus/edit.html", context, status=status_for(outcome))


@admin_page(Perm.MENU_MANAGE, "POST")
def menu_delete(request: HttpRequest, name: str) -> HttpResponse:
    run(request, "menu_delete", {"name": name}, "Menu deleted.")
    return redirect("admin_ui:menus")


@admin_page(Perm.MENU_MANAGE)
def content_search(request: HttpRequest) -> JsonResponse:
    """The menu editor's picker: items (drafts included) whose title or slug contains ``q``, in every collection
    the user may read, through the same list selector as the content lists."""
    return _search(request, sorted(schema.current().collections))


@admin_page(Perm.CONTENT_READ_UNPUBLISHED)
def entry_search(request: HttpRequest) -> JsonResponse:
    """The references widget's picker: the same search, in the collections the field names (``collections``)."""
    wanted = [c for c in request.GET.get("collections", "").split(",") if c in schema.current().collections]
    return _search(request, sorted(set(wanted))[:10])


def _search(request: HttpRequest, collections: list[str]) -> JsonResponse:
    actor = actor_for(request)
    query = request.GET.get("q", "").strip()[:200]
    results: list[dict[str, Any]] = []
    if query:
        for slug in collections:
            spec = schema.current().collections[slug]
            try:
                page = content_selectors.entry_list(
                    actor=actor, collection=slug, search=query, limit=SEARCH_PER_COLLECTION, order_by="updated_at"
                ).present()
            except EmDashError:  # a collection this user may not list, or a refused search text
                continue
            results += [
                {
                    "collection": slug,
                    "collectionLabel": spec.label,
                    "id": item["id"],
                    "title": title_of(item),
                    "slug": item["slug"],
                    "status": item["status"],
                    "locale": item["locale"],
                }
                for item in page.items
            ]
    return JsonResponse({"query": query, "results": results})
