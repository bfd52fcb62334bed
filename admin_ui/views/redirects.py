"""The Redirects screen (editors): the site's 301s, recorded when a published URL moves or added by hand."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect

from admin_ui.base import actor_for, admin_page, form_page, posted, run
from content.redirects import services as redirects
from emdash.errors import EmDashError
from emdash.permissions import Perm, can


@admin_page(Perm.REDIRECTS_READ, "GET", "POST")
def redirect_list(request: HttpRequest) -> HttpResponse:
    actor = actor_for(request)
    outcome = posted(request, "redirect_create", _new_redirect, "Redirect added.")
    if outcome and outcome.ok:
        return redirect("admin_ui:redirects")
    cursor = request.GET.get("cursor") or None
    try:
        page = redirects.redirect_list(actor=actor, limit=100, cursor=cursor)
    except EmDashError:  # a stale or tampered cursor: back to the first page
        page = redirects.redirect_list(actor=actor, limit=100)
    return form_page(
        request,
        "admin_ui/redirects.html",
        "redirects",
        outcome,
        items=page["items"],
        next_cursor=page.get("nextCursor", ""),
        form=_new_redirect(request.POST),
        can_manage=can(actor, Perm.REDIRECTS_MANAGE),
    )


def _new_redirect(post: Any) -> dict[str, str]:
    return {key: post.get(key, "").strip() for key in ("source", "target")}


@admin_page(Perm.REDIRECTS_MANAGE, "POST")
def redirect_delete(request: HttpRequest, id: str) -> HttpResponse:
    run(request, "redirect_delete", {"redirectId": id}, "Redirect deleted.")
    return redirect("admin_ui:redirects")
