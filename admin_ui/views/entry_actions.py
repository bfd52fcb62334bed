"""Lifecycle buttons on an entry (publish, schedule, trash, ...), its revisions and the draft/live compare."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch

from accounts.models import User
from admin_ui import credits, plain
from admin_ui.base import actor_for, admin_page, run
from admin_ui.display import display, display_json, title_of
from admin_ui.views.entries import collection_or_404, entry_or_404
from content.entries import selectors
from content.schema.specs import CollectionSpec
from emdash.actor import Actor
from emdash.dates import iso
from emdash.errors import EmDashError, ValidationError
from emdash.models import via_text
from emdash.permissions import Perm
from settings_app import localtime


def _schedule_time(request: HttpRequest) -> str:
    """The form's ``datetime-local`` value is in the site's zone (the label names it); services want UTC ISO."""
    return iso(localtime.from_input(request.POST.get("scheduled_at", ""))) or ""


def _local_time(request: HttpRequest, name: str, key: str) -> str:
    try:
        return iso(localtime.from_input(request.POST.get(name, ""))) or ""
    except ValidationError:
        raise ValidationError.for_fields({key: "Enter a date and time, e.g. 2019-05-01 09:00."}) from None


ACTIONS: dict[str, tuple[str, str]] = {  # button -> (operation, success message)
    "publish": ("content_publish", "Published."),
    "unpublish": ("content_unpublish", "Unpublished: the item is a draft again."),
    "schedule": ("content_schedule", "Scheduled."),
    "unschedule": ("content_unschedule", "Schedule cancelled."),
    "discard-draft": ("content_discard_draft", "Draft discarded: back to the published version."),
    "duplicate": ("content_duplicate", "Duplicated: you are editing the copy."),
    "trash": ("content_delete", "Moved to the trash."),
    "restore": ("content_restore", "Restored from the trash."),
    "delete": ("content_permanent_delete", "Deleted permanently."),
    "translate": ("content_create", "Translation created."),
}


def _input(request: HttpRequest, action: str, actor: Actor, spec: CollectionSpec, id: str) -> dict[str, Any]:
    """The operation's input, from the button's form."""
    raw: dict[str, Any] = {"collection": spec.slug, "id": id}
    if action == "schedule":
        raw["scheduledAt"] = _schedule_time(request)
    if action == "publish" and request.POST.get("published_at", "").strip():
        raw["publishedAt"] = _local_time(request, "published_at", "publishedAt")
    if action == "translate":
        raw = _translation(actor, spec, id, request.POST.get("locale") or None)
    return raw


def _translation(actor: Actor, spec: CollectionSpec, id: str, locale: str | None) -> dict[str, Any]:
    """A new item in ``locale`` that starts as a copy of the source's current values."""
    source = selectors.entry_get(actor=actor, collection=spec.slug, id=id)
    data = {k: v for k, v in source.to_dict()["data"].items() if v is not None and not spec.field_map[k].unique}
    raw: dict[str, Any] = {"collection": spec.slug, "data": data, "translationOf": id}
    return {**raw, "locale": locale} if locale else raw


@admin_page(Perm.CONTENT_EDIT_OWN, "POST")
def entry_action(request: HttpRequest, collection: str, id: str, action: str) -> HttpResponse:
    spec = collection_or_404(collection)
    if action not in ACTIONS:
        return redirect("admin_ui:entry_edit", spec.slug, id)
    name, message = ACTIONS[action]
    try:
        raw = _input(request, action, actor_for(request), spec, id)
    except EmDashError as exc:  # the translation's source cannot be read, or the schedule time is no time
        messages.error(request, plain.message_for(exc, **plain.wording(spec)), extra_tags=plain.code_tag(exc.code))
        return redirect("admin_ui:entry_edit", spec.slug, id)
    outcome = run(request, name, raw, message, **plain.wording(spec))
    if action == "delete" or (outcome.ok and action == "trash"):
        return redirect("admin_ui:trash" if action == "delete" else "admin_ui:entries", spec.slug)
    if action == "restore" and not outcome.ok:
        return redirect("admin_ui:trash", spec.slug)
    if outcome.ok and action in ("duplicate", "translate"):
        return redirect("admin_ui:entry_edit", spec.slug, outcome.result["item"]["id"])
    return redirect("admin_ui:entry_edit", spec.slug, id)


def _rows(spec: CollectionSpec, left: dict[str, Any] | None, right: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for f in spec.fields:
        a = display((left or {}).get(f.slug), f.kind)
        b = display(right.get(f.slug), f.kind)
        out.append({"label": f.label, "left": a, "right": b, "changed": a != b})
    return out


@admin_page(Perm.CONTENT_READ_UNPUBLISHED)
def compare(request: HttpRequest, collection: str, id: str) -> HttpResponse:
    actor = actor_for(request)
    spec, entry = entry_or_404(actor, collection, id)
    result = selectors.entry_compare(actor=actor, collection=spec.slug, id=entry.id)
    context = {
        "spec": spec,
        "item": entry.to_dict(),
        "title": title_of(entry.to_dict()),
        "has_changes": result["hasChanges"],
        "never_published": result["live"] is None,
        "rows": _rows(spec, result["live"], result["draft"]) + _meta_rows(result),
        "nav_key": f"c:{spec.slug}",
    }
    return render(request, "admin_ui/entries/compare.html", context)


def _meta_rows(result: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The slug and SEO, which wait in the draft like the fields."""
    out = []
    for label, live, draft in (("Slug", "liveSlug", "draftSlug"), ("SEO", "liveSeo", "draftSeo")):
        a, b = display_json(result.get(live) or None), display_json(result.get(draft) or None)
        if result["live"] is None:
            a = ""
        out.append({"label": label, "left": a, "right": b, "changed": a != b})
    return out


def _by(revision: Mapping[str, Any], authors: Mapping[Any, User]) -> str:
    """ "by Alice via Claude Code (MCP)" (SPEC 9.3): the author's name, else email, and how the change came."""
    author = authors.get(revision.get("authorId"))
    who = (author.name or author.email) if author is not None else "the system"
    via = revision.get("via") or {}
    return f"by {who} via {via_text(via.get('door'), via.get('client'), via.get('token'))}"


@admin_page(Perm.CONTENT_READ_UNPUBLISHED)
def revisions(request: HttpRequest, collection: str, id: str) -> HttpResponse:
    actor = actor_for(request)
    spec, entry = entry_or_404(actor, collection, id)
    listing = selectors.revision_list(actor=actor, collection=spec.slug, id=entry.id, limit=50)
    current = entry.to_dict()["data"]
    chosen = request.GET.get("revision")
    ids: set[int] = {a for r in listing["items"] if (a := r.get("authorId")) is not None}
    authors = {u.pk: u for u in User.objects.filter(pk__in=ids)}
    items: list[dict[str, Any]] = [{**r, "by": _by(r, authors)} for r in listing["items"]]
    selected = next((r for r in items if r["id"] == chosen), None)
    context = {
        "spec": spec,
        "item": entry.to_dict(),
        "title": title_of(entry.to_dict()),
        "revisions": items,
        "total": listing["total"],
        "selected": selected,
        "rows": _rows(spec, selected["data"], current) + _credit_row(selected, entry) if selected else [],
        "nav_key": f"c:{spec.slug}",
    }
    return render(request, "admin_ui/entries/revisions.html", context)


def _credit_row(revision: Mapping[str, Any], entry: Any) -> list[dict[str, Any]]:
    """The credits the revision kept against today's (restoring it brings them back); none for a revision
    saved before revisions kept credits."""
    if "bylines" not in revision:
        return []
    a, b = credits.described(revision["bylines"]), credits.described(credits.explicit(entry))
    return [{"label": "Credits", "left": a, "right": b, "changed": a != b}]


@admin_page(Perm.CONTENT_EDIT_OWN, "POST")
def revision_restore(request: HttpRequest, revision_id: str) -> HttpResponse:
    outcome = run(
        request,
        "revision_restore",
        {"revisionId": revision_id},
        "Revision restored as the current draft (not published yet).",
    )
    if outcome.ok:
        if note := outcome.result.get("note"):  # media deleted since the revision: left out, and said so
            messages.warning(request, note)
        item = outcome.result["item"]
        return redirect("admin_ui:entry_edit", item["collection"], item["id"])
    try:  # back to the item the form came from
        return redirect("admin_ui:entry_edit", request.POST.get("collection", ""), request.POST.get("id", ""))
    except NoReverseMatch:
        return redirect("admin_ui:dashboard")
