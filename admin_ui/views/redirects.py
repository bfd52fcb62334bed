"""The Redirects screen (editors): the site's 301s, recorded when a published URL moves or added by hand."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from admin_ui.base import actor_for, admin_page, run, status_for
from content import redirects
from emdash.errors import EmDashError
from emdash.permissions import Perm, can


@admin_page(Perm.REDIRECTS_READ)
@require_http_methods(["GET", "POST"])
def redirect_list(request: HttpRequest) -> HttpResponse:
    actor = actor_for(request)
    outcome = None
    form = {"source": "", "target": ""}
    if request.method == "POST":
        form = {key: request.POST.get(key, "").strip() for key in form}
        outcome = run(request, "redirect_create", form, "Redirect added.")
        if outcome.ok:
            return redirect("admin_ui:redirects")
    cursor = request.GET.get("cursor") or None
    try:
        page = redirects.redirect_list(actor=actor, limit=100, cursor=cursor)
    except EmDashError:  # a stale or tampered cursor: back to the first page
        page = redirects.redirect_list(actor=actor, limit=100)
    context = {
        "items": page["items"],
        "next_cursor": page.get("nextCursor", ""),
        "form": form,
        "problems": outcome.problems if outcome else {},
        "can_manage": can(actor, Perm.REDIRECTS_MANAGE),
        "nav_key": "redirects",
    }
    return render(request, "admin_ui/redirects.html", context, status=status_for(outcome))


@admin_page(Perm.REDIRECTS_MANAGE)
@require_POST
def redirect_delete(request: HttpRequest, id: str) -> HttpResponse:
    run(request, "redirect_delete", {"redirectId": id}, "Redirect deleted.")
    return redirect("admin_ui:redirects")
