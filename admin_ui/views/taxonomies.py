"""Taxonomies and their term trees: add, edit (rename, move) and delete terms (editors and up)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from admin_ui.base import actor_for, admin_page, form_page, found_or_404, posted, run, status_for
from admin_ui.terms import flatten
from content.schema import specs as schema
from emdash.permissions import Perm
from taxonomy import selectors


def _definition_input(post: Any) -> dict[str, Any]:
    """The definition form as operation input (every field sent, so an edit can clear the singular label)."""
    return {
        "label": _label(post.get("label", "")),
        "labelSingular": post.get("label_singular", "").strip(),
        "hierarchical": post.get("hierarchical") == "1",
        "collections": post.getlist("collections"),
    }


def _form_context(form: Any, chosen: list[str], problems: dict[str, str]) -> dict[str, Any]:
    specs = sorted(schema.current().collections.values(), key=lambda c: c.slug)
    return {"form": form, "chosen": chosen, "problems": problems, "collections": specs, "nav_key": "taxonomies"}


@admin_page(Perm.TAXONOMY_MANAGE, "GET", "POST")
def taxonomy_list(request: HttpRequest) -> HttpResponse:
    """The taxonomies, and a form to define a new one."""
    actor = actor_for(request)
    outcome = None
    if request.method == "POST":
        raw = {"name": request.POST.get("name", "").strip(), **_definition_input(request.POST)}
        outcome = run(request, "taxonomy_create", raw, "Taxonomy created.")
        if outcome.ok:
            return redirect("admin_ui:terms", raw["name"])
    problems = outcome.problems if outcome is not None else {}
    context = {
        "taxonomies": selectors.taxonomy_list(actor=actor),
        **_form_context(request.POST, request.POST.getlist("collections"), problems),
    }
    return render(request, "admin_ui/taxonomies/list.html", context, status=status_for(outcome))


@admin_page(Perm.TAXONOMY_MANAGE, "GET", "POST")
def taxonomy_edit(request: HttpRequest, name: str) -> HttpResponse:
    """Labels, nesting and the attached collections of one taxonomy."""
    with found_or_404("No such taxonomy"):
        taxonomy = selectors.taxonomy_get(actor=actor_for(request), name=name)
    outcome = None
    form: Any = {**taxonomy, "label_singular": taxonomy["labelSingular"]}
    chosen = taxonomy["collections"]
    if request.method == "POST":
        outcome = run(request, "taxonomy_update", {"name": name, **_definition_input(request.POST)}, "Taxonomy saved.")
        if outcome.ok:
            return redirect("admin_ui:taxonomies")
        form, chosen = request.POST, request.POST.getlist("collections")
    problems = outcome.problems if outcome is not None else {}
    context = {"taxonomy": taxonomy, **_form_context(form, chosen, problems)}
    return render(request, "admin_ui/taxonomies/edit.html", context, status=status_for(outcome))


@admin_page(Perm.TAXONOMY_MANAGE, "POST")
def taxonomy_delete(request: HttpRequest, name: str) -> HttpResponse:
    outcome = run(request, "taxonomy_delete", {"name": name}, "Taxonomy deleted.")
    if outcome.ok or outcome.code == "NOT_FOUND":
        return redirect("admin_ui:taxonomies")
    return redirect("admin_ui:taxonomy_edit", name)


@admin_page(Perm.TAXONOMY_MANAGE, "GET", "POST")
def terms(request: HttpRequest, name: str) -> HttpResponse:
    actor = actor_for(request)
    with found_or_404("No such taxonomy"):
        taxonomy = selectors.taxonomy_get(actor=actor, name=name)

    def new_term(post: Any) -> dict[str, Any]:
        label = _label(post.get("label", ""))
        raw = {"taxonomy": name, "label": label, "description": post.get("description", "")}
        if post.get("slug", "").strip():  # else the service makes one from the label, free in the term's locale
            raw["slug"] = post["slug"].strip()
        if post.get("parent"):
            raw["parentId"] = post["parent"]
        return raw

    outcome = posted(request, "taxonomy_create_term", new_term, "Term added.")
    if outcome and outcome.ok:
        return redirect("admin_ui:terms", name)
    tree = flatten(selectors.term_tree(actor=actor, taxonomy=name))
    return form_page(request, "admin_ui/taxonomies/terms.html", "taxonomies", outcome, taxonomy=taxonomy, terms=tree)


@admin_page(Perm.TAXONOMY_MANAGE, "GET", "POST")
def term_edit(request: HttpRequest, name: str, term: str) -> HttpResponse:
    """Rename a term (label, slug, description) or move it under another parent; the service checks the move."""
    actor = actor_for(request)
    with found_or_404("No such taxonomy"):
        taxonomy = selectors.taxonomy_get(actor=actor, name=name)
        tree = flatten(selectors.term_tree(actor=actor, taxonomy=name))
    # The list links terms by id (a slug may name terms of several locales); a slug still finds the first.
    current = next((t for t in tree if t["id"] == term), None) or next((t for t in tree if t["slug"] == term), None)
    if current is None:
        raise Http404("No such term")

    def changes(post: Any) -> dict[str, Any]:
        raw = {
            "taxonomy": name,
            "termSlug": current["id"],
            "label": _label(post.get("label", "")),
            "slug": post.get("slug", "").strip() or current["slug"],
            "description": post.get("description", ""),
        }
        if taxonomy["hierarchical"] and "parent" in post:
            raw["parentId"] = post.get("parent") or None  # null makes the term top-level
        return raw

    outcome = posted(request, "taxonomy_update_term", changes, "Term saved.")
    if outcome and outcome.ok:
        return redirect("admin_ui:terms", name)
    return form_page(
        request,
        "admin_ui/taxonomies/term_edit.html",
        "taxonomies",
        outcome,
        taxonomy=taxonomy,
        term=current,
        chosen=request.POST.get("parent", "") if outcome else _parent_of(tree, current),
        choices=[t for t in tree if t["id"] != current["id"]],
        form=request.POST if outcome else current,
    )


def _label(raw: str) -> str:
    # Blank labels reach the service unstripped, which names the problem ("non-empty") instead of a length.
    return raw.strip() or raw


def _parent_of(tree: list[dict[str, Any]], node: dict[str, Any]) -> str:
    """The id of ``node``'s parent in the flattened tree (the nearest shallower node above it), or ""."""
    index = next(i for i, t in enumerate(tree) if t["id"] == node["id"])
    for above in reversed(tree[:index]):
        if above["depth"] < node["depth"]:
            return str(above["id"])
    return ""


@admin_page(Perm.TAXONOMY_MANAGE, "POST")
def term_delete(request: HttpRequest, name: str, term: str) -> HttpResponse:
    run(request, "taxonomy_delete_term", {"taxonomy": name, "termSlug": term}, "Term deleted.")
    return redirect("admin_ui:terms", name)
