"""The Bylines screens (editors): the credits shown on content, a list with a form to add one, and an edit page.

Every write runs the byline operations through the pipeline, so the admin, MCP and REST agree on the rules."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect

from admin_ui import credits
from admin_ui.base import actor_for, admin_page, form_page, posted, run
from bylines import selectors
from emdash.conf import emdash_settings
from emdash.errors import EmDashError, NotFound
from emdash.numbers import plain_int
from emdash.permissions import Perm

TEXT_KEYS = ("slug", "displayName", "bio", "websiteUrl", "avatarMediaId")


def _form(post: Any, *, creating: bool) -> dict[str, Any]:
    """The operation's input from the posted form: blank optional fields are left out on create, cleared (null)
    on edit; the linked user is a number."""
    values: dict[str, Any] = {}
    for key in TEXT_KEYS:
        raw = post.get(key, "").strip()
        if raw:
            values[key] = raw
        elif not creating and key in ("bio", "websiteUrl", "avatarMediaId"):
            values[key] = None
    user = post.get("userId", "").strip()
    if user:
        number = plain_int(user)
        values["userId"] = user if number is None else number  # not a number: the pipeline says so
    elif not creating:
        values["userId"] = None
    values["isGuest"] = post.get("isGuest") == "on" if "isGuestShown" in post else not user
    if creating:
        if locale := post.get("locale", "").strip():
            values["locale"] = locale
        if source := post.get("translationOf", "").strip():
            values["translationOf"] = source
    return values


@admin_page(Perm.BYLINES_MANAGE, "GET", "POST")
def byline_list(request: HttpRequest) -> HttpResponse:
    actor = actor_for(request)
    outcome = posted(request, "byline_create", lambda post: _form(post, creating=True), "Byline added.")
    if outcome and outcome.ok:
        return redirect("admin_ui:byline_edit", id=outcome.result["id"])
    search = request.GET.get("q", "").strip()[:200] or None
    try:
        page = selectors.byline_list(actor=actor, search=search, cursor=request.GET.get("cursor") or None, limit=50)
    except EmDashError:  # a stale or tampered cursor: back to the first page
        page = selectors.byline_list(actor=actor, search=search, limit=50)
    return form_page(
        request,
        "admin_ui/bylines.html",
        "bylines",
        outcome,
        items=page.items,
        next_cursor=page.next_cursor or "",
        q=search or "",
        locales=emdash_settings.LOCALES,
    )


@admin_page(Perm.BYLINES_MANAGE, "GET", "POST")
def byline_edit(request: HttpRequest, id: str) -> HttpResponse:
    actor = actor_for(request)
    outcome = posted(request, "byline_update", lambda post: {"id": id, **_form(post, creating=False)}, "Saved.")
    try:
        byline = selectors.byline_get(actor=actor, id=id)
        variants = selectors.byline_translations(actor=actor, id=id)["translations"]
    except NotFound:
        return redirect("admin_ui:bylines")
    return form_page(request, "admin_ui/byline_edit.html", "bylines", outcome, byline=byline, variants=variants)


@admin_page(Perm.BYLINES_MANAGE, "POST")
def byline_delete(request: HttpRequest, id: str) -> HttpResponse:
    run(request, "byline_delete", {"id": id}, "Byline deleted.")
    return redirect("admin_ui:bylines")


@admin_page(Perm.BYLINES_READ)
def byline_search(request: HttpRequest) -> JsonResponse:
    """The entry form's bylines picker, as the editor types: up to MAX_CHOICES bylines whose name or slug holds
    ``q`` (all of them, from the first, when it is empty), and whether there are more."""
    query = credits.clean_search(request.GET.get("q", ""))
    found, more = credits.choices(actor_for(request), query)
    keys = ("id", "displayName", "isGuest", "locale")
    return JsonResponse({"query": query, "results": [{k: b.get(k) for k in keys} for b in found], "more": more})
