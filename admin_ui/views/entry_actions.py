"""Lifecycle buttons on an entry (publish, schedule, trash, ...), its revisions and the draft/live compare."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch
from django.views.decorators.http import require_POST

from admin_ui import portable_text
from admin_ui.base import actor_for, admin_page, attempt
from admin_ui.views.entries import collection_or_404, load_entry, title_of
from content import selectors, services
from content.schema import CollectionSpec
from emdash.actor import Actor
from emdash.permissions import Perm


def _schedule_time(request: HttpRequest) -> str:
    """The form's ``datetime-local`` value is UTC (the label says so); services want ISO 8601."""
    raw = request.POST.get("scheduled_at", "").strip()
    return f"{raw}:00Z" if len(raw) == 16 else raw


ACTIONS: dict[str, tuple[str, str]] = {  # action -> (audit name, success message)
    "publish": ("content.publish", "Published."),
    "unpublish": ("content.unpublish", "Unpublished: the item is a draft again."),
    "schedule": ("content.schedule", "Scheduled."),
    "unschedule": ("content.unschedule", "Schedule cancelled."),
    "discard-draft": ("content.discard_draft", "Draft discarded: back to the published version."),
    "duplicate": ("content.duplicate", "Duplicated: you are editing the copy."),
    "trash": ("content.trash", "Moved to the trash."),
    "restore": ("content.restore", "Restored from the trash."),
    "delete": ("content.delete_permanently", "Deleted permanently."),
    "translate": ("content.translate", "Translation created."),
}


def _call(request: HttpRequest, action: str, actor: Actor, spec: CollectionSpec, id: str) -> Callable[[], Any]:
    kw: dict[str, Any] = {"actor": actor, "collection": spec.slug, "id": id}
    calls: dict[str, Callable[[], Any]] = {
        "publish": lambda: services.entry_publish(**kw),
        "unpublish": lambda: services.entry_unpublish(**kw),
        "schedule": lambda: services.entry_schedule(**kw, scheduled_at=_schedule_time(request)),
        "unschedule": lambda: services.entry_unschedule(**kw),
        "discard-draft": lambda: services.entry_discard_draft(**kw),
        "duplicate": lambda: services.entry_duplicate(**kw),
        "trash": lambda: services.entry_trash(**kw),
        "restore": lambda: services.entry_restore(**kw),
        "delete": lambda: services.entry_delete_permanently(**kw),
        "translate": lambda: services.entry_translate(**kw, locale=request.POST.get("locale")),
    }
    return calls[action]


@admin_page(Perm.CONTENT_EDIT_OWN)
@require_POST
def entry_action(request: HttpRequest, collection: str, id: str, action: str) -> HttpResponse:
    spec = collection_or_404(collection)
    if action not in ACTIONS:
        return redirect("admin_ui:entry_edit", spec.slug, id)
    audit_name, message = ACTIONS[action]
    outcome = attempt(request, audit_name, _call(request, action, actor_for(request), spec, id), message)
    if action == "delete" or (outcome.ok and action == "trash"):
        return redirect("admin_ui:trash" if action == "delete" else "admin_ui:entries", spec.slug)
    if action == "restore" and not outcome.ok:
        return redirect("admin_ui:trash", spec.slug)
    if outcome.ok and action in ("duplicate", "translate"):
        return redirect("admin_ui:entry_edit", spec.slug, outcome.result.id)
    return redirect("admin_ui:entry_edit", spec.slug, id)


def _display(value: Any, kind: str) -> str:
    if value is None:
        return ""
    if kind == "portableText":
        return portable_text.to_markdown(value)
    if isinstance(value, dict | list):
        import json

        return json.dumps(value, indent=2, ensure_ascii=False)
    return str(value)


def _rows(spec: CollectionSpec, left: dict[str, Any] | None, right: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for f in spec.fields:
        a = _display((left or {}).get(f.slug), f.type)
        b = _display(right.get(f.slug), f.type)
        out.append({"label": f.label, "left": a, "right": b, "changed": a != b})
    return out


@admin_page(Perm.CONTENT_READ_UNPUBLISHED)
def compare(request: HttpRequest, collection: str, id: str) -> HttpResponse:
    spec = collection_or_404(collection)
    actor = actor_for(request)
    entry = load_entry(actor, spec, id)
    result = selectors.entry_compare(actor=actor, collection=spec.slug, id=entry.id)
    context = {
        "spec": spec,
        "item": entry.to_dict(),
        "title": title_of(entry.to_dict()),
        "has_changes": result["hasChanges"],
        "never_published": result["live"] is None,
        "rows": _rows(spec, result["live"], result["draft"]),
        "nav_key": f"c:{spec.slug}",
    }
    return render(request, "admin_ui/entries/compare.html", context)


@admin_page(Perm.CONTENT_READ_UNPUBLISHED)
def revisions(request: HttpRequest, collection: str, id: str) -> HttpResponse:
    spec = collection_or_404(collection)
    actor = actor_for(request)
    entry = load_entry(actor, spec, id)
    listing = selectors.revision_list(actor=actor, collection=spec.slug, id=entry.id, limit=50)
    current = entry.to_dict()["data"]
    chosen = request.GET.get("revision")
    items = listing["items"]
    selected = next((r for r in items if r["id"] == chosen), None)
    context = {
        "spec": spec,
        "item": entry.to_dict(),
        "title": title_of(entry.to_dict()),
        "revisions": items,
        "total": listing["total"],
        "selected": selected,
        "rows": _rows(spec, selected["data"], current) if selected else [],
        "nav_key": f"c:{spec.slug}",
    }
    return render(request, "admin_ui/entries/revisions.html", context)


@admin_page(Perm.CONTENT_EDIT_OWN)
@require_POST
def revision_restore(request: HttpRequest, revision_id: str) -> HttpResponse:
    actor = actor_for(request)
    outcome = attempt(
        request,
        "revision.restore",
        lambda: services.revision_restore(actor=actor, revision_id=revision_id),
        "Revision restored as the current draft (not published yet).",
    )
    if outcome.ok:
        return redirect("admin_ui:entry_edit", outcome.result.spec.slug, outcome.result.id)
    try:  # back to the item the form came from
        return redirect("admin_ui:entry_edit", request.POST.get("collection", ""), request.POST.get("id", ""))
    except NoReverseMatch:
        return redirect("admin_ui:dashboard")
