"""The schema builder: collections and their fields (editors read it; admins change it)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from admin_ui.base import actor_for, admin_page, attempt, status_for
from content import schema_services
from content.field_types import FIELD_TYPES
from content.schema import SUPPORTS
from emdash.errors import CollectionNotFound
from emdash.permissions import Perm, can


@admin_page(Perm.SCHEMA_READ)
@require_http_methods(["GET", "POST"])
def collections(request: HttpRequest) -> HttpResponse:
    actor = actor_for(request)
    problems: dict[str, str] = {}
    outcome = None
    if request.method == "POST":
        post = request.POST
        outcome = attempt(
            request,
            "schema.create_collection",
            lambda: schema_services.collection_create(
                actor=actor,
                slug=post.get("slug", "").strip(),
                label=post.get("label", "").strip(),
                label_singular=post.get("label_singular", "").strip() or None,
                description=post.get("description", ""),
                supports=post.getlist("supports"),
            ),
            "Collection created.",
        )
        if outcome.ok:
            return redirect("admin_ui:schema_collection", outcome.result.slug)
        problems = outcome.problems
    context = {
        "collections": schema_services.collection_list(actor=actor),
        "can_write": can(actor, Perm.SCHEMA_WRITE),
        "supports": SUPPORTS,
        "default_supports": ("drafts", "revisions"),
        "problems": problems,
        "form": request.POST,
        "nav_key": "schema",
    }
    return render(request, "admin_ui/schema/collections.html", context, status=status_for(outcome))


def _options(post: Any, kind: str) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """(validation, options) from the add-field form."""
    validation: dict[str, Any] = {}
    options: dict[str, Any] = {}
    if kind in ("select", "multiSelect"):
        validation["options"] = [o.strip() for o in post.get("choices", "").split(",") if o.strip()]
    if kind == "reference":
        options["collection"] = post.get("target", "")
    return validation or None, options or None


@admin_page(Perm.SCHEMA_READ)
@require_http_methods(["GET", "POST"])
def collection(request: HttpRequest, slug: str) -> HttpResponse:
    actor = actor_for(request)
    try:
        spec = schema_services.collection_get(actor=actor, slug=slug)
    except CollectionNotFound:
        raise Http404("No such collection") from None
    problems: dict[str, str] = {}
    outcome = None
    if request.method == "POST":
        post = request.POST
        kind = post.get("type", "")
        validation, options = _options(post, kind)
        outcome = attempt(
            request,
            "schema.create_field",
            lambda: schema_services.field_create(
                actor=actor,
                collection=spec.slug,
                slug=post.get("slug", "").strip(),
                label=post.get("label", "").strip(),
                type=kind,
                required="required" in post,
                unique="unique" in post,
                searchable="searchable" in post,
                translatable="translatable" in post,
                validation=validation,
                options=options,
            ),
            "Field added.",
        )
        if outcome.ok:
            return redirect("admin_ui:schema_collection", spec.slug)
        problems = outcome.problems
    context = {
        "spec": spec,
        "types": list(FIELD_TYPES),
        "targets": schema_services.collection_list(actor=actor),
        "can_write": can(actor, Perm.SCHEMA_WRITE),
        "problems": problems,
        "form": request.POST,
        "nav_key": "schema",
    }
    return render(request, "admin_ui/schema/collection.html", context, status=status_for(outcome))


@admin_page(Perm.SCHEMA_WRITE)
@require_POST
def collection_delete(request: HttpRequest, slug: str) -> HttpResponse:
    actor = actor_for(request)
    force = request.POST.get("force") == "1"
    outcome = attempt(
        request,
        "schema.delete_collection",
        lambda: schema_services.collection_delete(actor=actor, slug=slug, force=force),
        "Collection deleted.",
    )
    return redirect("admin_ui:schema") if outcome.ok else redirect("admin_ui:schema_collection", slug)


@admin_page(Perm.SCHEMA_WRITE)
@require_POST
def field_delete(request: HttpRequest, slug: str, field: str) -> HttpResponse:
    actor = actor_for(request)
    attempt(
        request,
        "schema.delete_field",
        lambda: schema_services.field_delete(actor=actor, collection=slug, field_slug=field),
        "Field deleted.",
    )
    return redirect("admin_ui:schema_collection", slug)
