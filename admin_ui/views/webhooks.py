"""The Webhooks screen (admins): list, create (secret shown once), edit, delete, and each webhook's delivery log."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from admin_ui.base import actor_for, admin_page, found_or_404, run, status_for
from emdash.permissions import Perm
from webhooks import services
from webhooks.events import EVENTS

NEW_SECRET_KEY = "admin_ui.webhook_secret"


def _form(request: HttpRequest) -> dict[str, Any]:
    post = request.POST
    return {"url": post.get("url", "").strip(), "events": post.getlist("events"), "active": post.get("active") == "on"}


def _shown_once(request: HttpRequest, payload: dict[str, Any]) -> None:
    """Post/redirect/get: the secret rides in the session to the next page view only."""
    if payload.get("secret"):
        request.session[NEW_SECRET_KEY] = {"id": payload["id"], "secret": payload["secret"]}


def _page(request: HttpRequest, template: str, context: dict[str, Any], status: int = 200) -> HttpResponse:
    context = {**context, "events": EVENTS, "nav_key": "webhooks", "issued": request.session.pop(NEW_SECRET_KEY, None)}
    response = render(request, template, context, status=status)
    response["Cache-Control"] = "no-store"  # a new secret is in this page once
    return response


@admin_page(Perm.WEBHOOKS_MANAGE, "GET", "POST")
def webhook_list(request: HttpRequest) -> HttpResponse:
    outcome = None
    if request.method == "POST":
        outcome = run(request, "webhook_create", _form(request), "Webhook created.")
        if outcome.ok:
            _shown_once(request, outcome.result)
            return redirect("admin_ui:webhook", id=outcome.result["id"])
    context = {
        "hooks": services.webhook_list(actor=actor_for(request))["items"],
        "problems": outcome.problems if outcome else {},
        "form": _form(request) if outcome else {"events": [], "active": True},
    }
    return _page(request, "admin_ui/webhooks/list.html", context, status_for(outcome))


@admin_page(Perm.WEBHOOKS_MANAGE, "GET", "POST")
def webhook_edit(request: HttpRequest, id: str) -> HttpResponse:
    outcome = None
    actor = actor_for(request)
    with found_or_404("No such webhook"):
        hook = services.webhook_get(actor=actor, id=id)
    if request.method == "POST":
        raw = {"id": id, **_form(request)}
        if request.POST.get("rotate_secret") == "on":
            raw["rotateSecret"] = True
        outcome = run(request, "webhook_update", raw, "Webhook saved.")
        if outcome.ok:
            _shown_once(request, outcome.result)
            return redirect("admin_ui:webhook", id=id)
    context = {
        "hook": hook,
        "form": _form(request) if outcome else hook,
        "problems": outcome.problems if outcome else {},
        "deliveries": services.webhook_deliveries(actor=actor, id=id)["items"],
    }
    return _page(request, "admin_ui/webhooks/edit.html", context, status_for(outcome))


@admin_page(Perm.WEBHOOKS_MANAGE, "POST")
def webhook_delete(request: HttpRequest, id: str) -> HttpResponse:
    run(request, "webhook_delete", {"id": id}, "Webhook deleted.")
    return redirect("admin_ui:webhooks")
