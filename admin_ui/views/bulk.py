"""Bulk actions on a content list: publish, unpublish, trash or assign a term to the ticked rows.

Each item runs through the same operation pipeline as the single-item buttons (permission checks, validation,
one audit row per item), so a bulk action can do nothing a user could not do one item at a time. One item's
refusal does not stop the others; the result page lists what worked and, in plain words, what did not and why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse

from admin_ui import plain
from admin_ui import terms as entry_terms
from admin_ui.base import Outcome, actor_for, admin_page, run
from admin_ui.display import title_of
from admin_ui.views.entries import collection_or_404
from content.entries import selectors
from content.schema.specs import CollectionSpec
from emdash.actor import Actor
from emdash.errors import EmDashError
from emdash.permissions import Perm
from taxonomy import selectors as taxonomy_selectors

MAX_ITEMS = 100
# action -> (operation, past tense, what the button says)
ACTIONS: dict[str, tuple[str, str, str]] = {
    "publish": ("content_publish", "published", "Publish"),
    "unpublish": ("content_unpublish", "unpublished", "Unpublish"),
    "trash": ("content_delete", "moved to the trash", "Move to trash"),
    "assign": ("content_terms_set", "given the term", "Assign term"),
}


@dataclass
class Report:
    action: str
    done: list[dict[str, str]] = field(default_factory=list)
    failed: list[dict[str, str]] = field(default_factory=list)
    term_label: str = ""


def _back(request: HttpRequest, spec: CollectionSpec) -> str:
    """The list the form came from, with its filters (only a query string is taken from the form)."""
    query = QueryDict(request.POST.get("query", "")).urlencode()
    url = reverse("admin_ui:entries", args=[spec.slug])
    return f"{url}?{query}" if query else url


def _chosen_term(actor: Actor, spec: CollectionSpec, value: str) -> tuple[str, dict[str, Any]] | None:
    """``taxonomy:id`` -> (taxonomy name, term) when the taxonomy is attached and the term exists. The picker
    sends ids (a slug may name terms of several locales); a slug still finds the first term using it."""
    name, _, ident = value.partition(":")
    for group in entry_terms.choices(actor, spec):
        if group["taxonomy"]["name"] == name:
            by_id = (t for t in group["terms"] if t["id"] == ident)
            return next(((name, t) for t in [*by_id, *(t for t in group["terms"] if t["slug"] == ident)]), None)
    return None


def _refusal(request: HttpRequest, spec: CollectionSpec, text: str) -> HttpResponse:
    messages.error(request, text, extra_tags=plain.code_tag("VALIDATION_ERROR"))
    return redirect(_back(request, spec))


def _titles(actor: Actor, spec: CollectionSpec, ids: list[str]) -> dict[str, str]:
    """Titles for the report, read before the action (a trashed item can no longer be read)."""
    titles = {}
    for id in ids:
        try:
            titles[id] = title_of(selectors.entry_get(actor=actor, collection=spec.slug, id=id).to_dict())
        except EmDashError:
            titles[id] = id
    return titles


def _assign(request: HttpRequest, spec: CollectionSpec, id: str, taxonomy: str, term_id: str) -> Outcome:
    """Add one term to an item's terms of that taxonomy (the others stay). The read is a selector call (reads
    are not audited); the write is ``content_terms_set`` through the pipeline."""
    try:
        terms = taxonomy_selectors.entry_terms(actor=actor_for(request), collection=spec.slug, id=id)
    except EmDashError as exc:
        return Outcome(False, code=exc.code, message=plain.message_for(exc))
    # By id: the item keeps exactly the terms it has (a slug is read in the item's locale, maybe another term).
    ids = [t["id"] for t in terms.get(taxonomy, [])]
    # Written even when the term is already there: the write is what checks the right to change this item.
    target = {
        "collection": spec.slug,
        "id": id,
        "taxonomy": taxonomy,
        "terms": [*ids, term_id] if term_id not in ids else ids,
    }
    return run(request, "content_terms_set", target, notify=False)


@admin_page(Perm.CONTENT_EDIT_OWN, "POST")
def bulk_action(request: HttpRequest, collection: str) -> HttpResponse:
    spec = collection_or_404(collection)
    actor = actor_for(request)
    action = request.POST.get("action", "")
    ids = list(dict.fromkeys(i for i in request.POST.getlist("ids") if i))
    if action not in ACTIONS:
        return _refusal(request, spec, "Choose what to do with the selected items.")
    if not ids:
        return _refusal(request, spec, "Select at least one item first.")
    if len(ids) > MAX_ITEMS:
        return _refusal(request, spec, f"Select at most {MAX_ITEMS} items at a time.")
    term = None
    if action == "assign":
        term = _chosen_term(actor, spec, request.POST.get("term", ""))
        if term is None:
            return _refusal(request, spec, "Choose an existing term to assign.")
    report = Report(action, term_label=term[1]["label"] if term else "")
    titles = _titles(actor, spec, ids)
    for id in ids:
        if term is not None:
            outcome = _assign(request, spec, id, term[0], term[1]["id"])
        else:
            outcome = run(request, ACTIONS[action][0], {"collection": spec.slug, "id": id}, notify=False)
        row = {"id": id, "title": titles[id]}
        (report.done if outcome.ok else report.failed).append({**row, "reason": outcome.message})
    return render(request, "admin_ui/entries/bulk_result.html", _result_context(request, spec, report))


def _result_context(request: HttpRequest, spec: CollectionSpec, report: Report) -> dict[str, Any]:
    _operation, past, verb = ACTIONS[report.action]
    if report.action == "assign":
        past = f"given the term “{report.term_label}”"
    total = len(report.done) + len(report.failed)
    return {
        "spec": spec,
        "report": report,
        "verb": verb,
        "summary": f"{len(report.done)} of {total} {_noun(spec, total)} {past}.",
        "failed_summary": f"{len(report.failed)} could not be {past}:" if report.failed else "",
        "trashed": report.action == "trash",
        "back": _back(request, spec),
        "nav_key": f"c:{spec.slug}",
    }


def _noun(spec: CollectionSpec, count: int) -> str:
    return (spec.label_singular if count == 1 else spec.label).lower()
