"""Taxonomies and their term trees: add and delete terms (editors and up)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from admin_ui.base import actor_for, admin_page, attempt, status_for
from admin_ui.terms import flatten
from content import slugs
from emdash.errors import NotFound
from emdash.permissions import Perm
from taxonomy import selectors, services


@admin_page(Perm.TAXONOMY_MANAGE)
def taxonomy_list(request: HttpRequest) -> HttpResponse:
    actor = actor_for(request)
    context = {"taxonomies": selectors.taxonomy_list(actor=actor), "nav_key": "taxonomies"}
    return render(request, "admin_ui/taxonomies/list.html", context)


@admin_page(Perm.TAXONOMY_MANAGE)
@require_http_methods(["GET", "POST"])
def terms(request: HttpRequest, name: str) -> HttpResponse:
    actor = actor_for(request)
    try:
        taxonomy = selectors.taxonomy_get(actor=actor, name=name)
    except NotFound:
        raise Http404("No such taxonomy") from None
    problems: dict[str, str] = {}
    outcome = None
    if request.method == "POST":
        post = request.POST
        label = post.get("label", "").strip()
        outcome = attempt(
            request,
            "taxonomy.create_term",
            lambda: services.term_create(
                actor=actor,
                taxonomy=name,
                slug=post.get("slug", "").strip() or slugs.slugify(label or "term"),
                label=label,
                parent_id=post.get("parent") or None,
                description=post.get("description", ""),
            ),
            "Term added.",
        )
        if outcome.ok:
            return redirect("admin_ui:terms", name)
        problems = outcome.problems
    tree = flatten(selectors.term_tree(actor=actor, taxonomy=name))
    context = {"taxonomy": taxonomy, "terms": tree, "problems": problems, "form": request.POST, "nav_key": "taxonomies"}
    return render(request, "admin_ui/taxonomies/terms.html", context, status=status_for(outcome))


@admin_page(Perm.TAXONOMY_MANAGE)
@require_POST
def term_delete(request: HttpRequest, name: str, term: str) -> HttpResponse:
    actor = actor_for(request)
    attempt(
        request,
        "taxonomy.delete_term",
        lambda: services.term_delete(actor=actor, taxonomy=name, term=term),
        "Term deleted.",
    )
    return redirect("admin_ui:terms", name)
