"""The schema builder: collections and their fields (editors read it; admins change it)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect

from admin_ui.base import actor_for, admin_page, form_page, found_or_404, posted, run
from content.field_types import FIELD_TYPES
from content.schema import services as schema_services
from content.schema.specs import SUPPORTS, CollectionSpec
from emdash.numbers import plain_int
from emdash.permissions import Perm, can

TYPE_CHOICES = [(name, t.label or name, t.help) for name, t in FIELD_TYPES.items()]
TYPE_LABELS = {name: label for name, label, _ in TYPE_CHOICES}


def slug_from_label(label: str) -> str:
    """The slug the form derives while the user types a label (admin.js does the same in the browser), so a
    form posted without JavaScript, or with the slug left empty, still gets one: "Cover image" -> cover_image."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", label) if not unicodedata.combining(c)).lower()
    slug = re.sub(r"[^a-z0-9]+", "_", bare).strip("_")[:63]
    return f"f_{slug}" if slug[:1].isdigit() else slug


def _slug(post: Any) -> str:
    return post.get("slug", "").strip() or slug_from_label(post.get("label", ""))


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
        "slug": slug if slug is not None else _slug(post),
        "label": post.get("label", "").strip(),
        "description": post.get("description", ""),
        "supports": post.getlist("supports"),
    }
    if singular := post.get("label_singular", "").strip():
        raw["labelSingular"] = singular
    if slug is not None and "icon" in post:
        raw["icon"] = post.get("icon", "").strip()
    return raw


def _rules(post: Any, type_name: str) -> dict[str, Any]:
    """validation and options from a field form (only what the type uses; an unknown type uses nothing)."""
    raw: dict[str, Any] = {}
    kind = FIELD_TYPES.get(type_name)
    if kind is None:
        return raw
    if kind.takes_choices:
        raw["validation"] = {"options": [o.strip() for o in post.get("choices", "").split(",") if o.strip()]}
    if kind.takes_target and "target" in post:
        raw["options"] = {"collection": post.get("target", "")}
    if "collections" in kind.option_keys and "targets" in post:  # references: several target collections
        raw["options"] = {"collections": post.getlist("targets")}
    most = plain_int(post.get("max_items", "").strip())
    if "max" in kind.validation_keys and not kind.takes_choices and most is not None:
        raw.setdefault("validation", {})["max"] = most
    return raw


def _field_form(post: Any, kind: str) -> dict[str, Any]:
    flags = {name: name in post for name in ("required", "unique", "searchable", "translatable")}
    return {"label": post.get("label", "").strip(), **flags, **_rules(post, kind)}


@admin_page(Perm.SCHEMA_READ, "GET", "POST")
def collection(request: HttpRequest, slug: str) -> HttpResponse:
    spec = _collection(request, slug)

    def new_field(post: Any) -> dict[str, Any]:
        kind = post.get("type", "")
        return {"collection": spec.slug, "slug": _slug(post), "type": kind, **_field_form(post, kind)}

    return _field_page(
        request,
        spec,
        "schema_create_field",
        new_field,
        "Field added.",
        "admin_ui/schema/collection.html",
        supports=SUPPORTS,
        types=TYPE_CHOICES,
    )


@admin_page(Perm.SCHEMA_WRITE, "POST")
def collection_settings(request: HttpRequest, slug: str) -> HttpResponse:
    run(request, "schema_update_collection", _collection_form(request.POST, slug=slug), "Collection saved.")
    return redirect("admin_ui:schema_collection", slug)


@admin_page(Perm.SCHEMA_READ, "GET", "POST")
def field_edit(request: HttpRequest, slug: str, field: str) -> HttpResponse:
    spec = _collection(request, slug)
    found = spec.get_field(field)
    if found is None:
        raise Http404("No such field")

    def changes(post: Any) -> dict[str, Any]:
        return {"collection": spec.slug, "fieldSlug": found.slug, **_field_form(post, found.type)}

    return _field_page(
        request,
        spec,
        "schema_update_field",
        changes,
        "Field saved.",
        "admin_ui/schema/field.html",
        field=found,
        form=request.POST if request.method == "POST" else None,
    )


def _collection(request: HttpRequest, slug: str) -> CollectionSpec:
    with found_or_404("No such collection"):
        return schema_services.collection_get(actor=actor_for(request), slug=slug)


def _field_page(
    request: HttpRequest,
    spec: CollectionSpec,
    name: str,
    make_input: Callable[[Any], dict[str, Any]],
    success: str,
    template: str,
    /,
    **context: Any,
) -> HttpResponse:
    """A field form: on POST run ``name`` and go back to the collection's page; on GET or a failure show
    ``template`` with the collections a reference field may point to."""
    outcome = posted(request, name, make_input, success)
    if outcome and outcome.ok:
        return redirect("admin_ui:schema_collection", spec.slug)
    actor = actor_for(request)
    return form_page(
        request,
        template,
        "schema",
        outcome,
        spec=spec,
        type_labels=TYPE_LABELS,
        targets=schema_services.collection_list(actor=actor),
        can_write=can(actor, Perm.SCHEMA_WRITE),
        **context,
    )


@admin_page(Perm.SCHEMA_WRITE, "POST")
def field_move(request: HttpRequest, slug: str, field: str) -> HttpResponse:
    """The up/down buttons: a plain form post, so reordering works without JavaScript."""
    position = request.POST.get("position", "")
    number = plain_int(position)
    raw = {"collection": slug, "fieldSlug": field, "position": position if number is None else number}
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
