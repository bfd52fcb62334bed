"""The schema builder: collections and their fields (editors read it; admins change it)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect

from admin_ui.base import actor_for, admin_page, form_page, found_or_404, posted, run
from content.field_types import FIELD_TYPES
from content.schema import services as schema_services
from content.schema.specs import SUPPORTS
from emdash.permissions import Perm, can


@admin_page(Perm.SCHEMA_READ, "GET", "POST")
def collections(request: HttpRequest) -> HttpResponse:
    actor = actor_for(request)
    outcome = posted(request, "schema_create_collection", _collection_form, "Collection created.")
    if outcome and outcome.ok:
        return redirect("admin_ui:schema_collection", outcome.result["slug"])
    return form_page(
        request,
        "admin_ui/schema/collections.html",
        "schema",
        outcome,
        collections=schema_services.collection_list(actor=actor),
        can_write=can(actor, Perm.SCHEMA_WRITE),
        supports=SUPPORTS,
        default_supports=("drafts", "revisions"),
    )


def _collection_form(post: Any, *, slug: str | None = None) -> dict[str, Any]:
    """The create (``slug`` from the form) or settings (``slug`` from the URL) form as operation input."""
    raw: dict[str, Any] = {
        "slug": slug if slug is not None else post.get("slug", "").strip(),
        "label": post.get("label", "").strip(),
        "description": post.get("description", ""),
        "supports": post.getlist("supports"),
    }
    if singular := post.get("label_singular", "").strip():
        raw["labelSingular"] = singular
    if slug is not None and "icon" in post:
        raw["icon"] = post.get("icon", "").strip()
    return raw


def _rules(post: Any, kind: str) -> dict[str, Any]:
    """validation and options from a field form (only what the type uses)."""
    raw: dict[str, Any] = {}
    if kind in ("select", "multiSelect"):
        raw["validation"] = {"options": [o.strip() for o in post.get("choices", "").split(",") if o.strip()]}
    if kind == "reference" and "target" in post:
        raw["options"] = {"collection": post.get("target", "")}
    return raw


def _field_form(post: Any, kind: str) -> dict[str, Any]:
    flags = {name: name in post for name in ("required", "unique", "searchable", "translatable")}
    return {"label": post.get("label", "").strip(), **flags, **_rules(post, kind)}


@admin_page(Perm.SCHEMA_READ, "GET", "POST")
def collection(request: HttpRequest, slug: str) -> HttpResponse:
    actor = actor_for(request)
    with found_or_404("No such collection"):
        spec = schema_services.collection_get(actor=actor, slug=slug)

    def new_field(post: Any) -> dict[str, Any]:
        kind = post.get("type", "")
        return {"collection": spec.slug, "slug": post.get("slug", "").strip(), "type": kind, **_field_form(post, kind)}

    outcome = posted(request, "schema_create_field", new_field, "Field added.")
    if outcome and outcome.ok:
        return redirect("admin_ui:schema_collection", spec.slug)
    return form_page(
        request,
        "admin_ui/schema/collection.html",
        "schema",
        outcome,
        spec=spec,
        supports=SUPPORTS,
        types=list(FIELD_TYPES),
        targets=schema_services.collection_list(actor=actor),
        can_write=can(actor, Perm.SCHEMA_WRITE),
    )


@admin_page(Perm.SCHEMA_WRITE, "POST")
def collection_settings(request: HttpRequest, slug: str) -> HttpResponse:
    run(request, "schema_update_collection", _collection_form(request.POST, slug=slug), "Collection saved.")
    return redirect("admin_ui:schema_collection", slug)


@admin_page(Perm.SCHEMA_READ, "GET", "POST")
def field_edit(request: HttpRequest, slug: str, field: str) -> HttpResponse:
    actor = actor_for(request)
    with found_or_404("No such collection"):
        spec = schema_services.collection_get(actor=actor, slug=slug)
    found = spec.get_field(field)
    if found is None:
        raise Http404("No such field")

    def changes(post: Any) -> dict[str, Any]:
        return {"collection": spec.slug, "fieldSlug": found.slug, **_field_form(post, found.type)}

    outcome = posted(request, "schema_update_field", changes, "Field saved.")
    if outcome and outcome.ok:
        return redirect("admin_ui:schema_collection", spec.slug)
    return form_page(
        request,
        "admin_ui/schema/field.html",
        "schema",
        outcome,
        spec=spec,
        field=found,
        targets=schema_services.collection_list(actor=actor),
        can_write=can(actor, Perm.SCHEMA_WRITE),
        form=request.POST if outcome else None,
    )


@admin_page(Perm.SCHEMA_WRITE, "POST")
def field_move(request: HttpRequest, slug: str, field: str) -> HttpResponse:
    """The up/down buttons: a plain form post, so reordering works without JavaScript."""
    position = request.POST.get("position", "")
    raw = {"collection": slug, "fieldSlug": field, "position": int(position) if position.isdigit() else position}
    run(request, "schema_update_field", raw, "Field moved.")
    return redirect("admin_ui:schema_collection", slug)


@admin_page(Perm.SCHEMA_WRITE, "POST")
def collection_delete(request: HttpRequest, slug: str) -> HttpResponse:
    raw = {"slug": slug, "force": request.POST.get("force") == "1"}
    outcome = run(request, "schema_delete_collection", raw, "Collection deleted.")
    return redirect("admin_ui:schema") if outcome.ok else redirect("admin_ui:schema_collection", slug)


@admin_page(Perm.SCHEMA_WRITE, "POST")
def field_delete(request: HttpRequest, slug: str, field: str) -> HttpResponse:
    run(request, "schema_delete_field", {"collection": slug, "fieldSlug": field}, "Field deleted.")
    return redirect("admin_ui:schema_collection", slug)
