"""Personal access tokens of the signed-in user: create (shown once), list, revoke."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from accounts import tokens
from accounts.auth import resource_url
from admin_ui.base import actor_for, admin_page, run, status_for
from admin_ui.client_configs import client_configs
from emdash.numbers import plain_int
from emdash.permissions import scopes_for_role
from emdash.scopes import Scope, describe

NEW_TOKEN_KEY = "admin_ui.new_token"


def _expiry(raw: str) -> int | str | None:
    raw = raw.strip()
    if not raw:
        return None
    number = plain_int(raw)
    return raw if number is None else number


@admin_page(None, "GET", "POST")
def token_list(request: HttpRequest) -> HttpResponse:
    problems: dict[str, str] = {}
    issued = None
    outcome = None
    if request.method == "POST":
        post = request.POST
        raw: dict[str, Any] = {"name": post.get("name", ""), "scopes": post.getlist("scopes")}
        expiry = _expiry(post.get("expires_days", ""))
        if expiry is not None:
            raw["expiresDays"] = expiry
        outcome = run(request, "token_create", raw)
        if outcome.ok:
            # Post/redirect/get: the raw token rides in the session to the next page view only, so a
            # reload neither shows it again nor creates a second token.
            request.session[NEW_TOKEN_KEY] = {"name": outcome.result["token"]["name"], "raw": outcome.result["secret"]}
            return redirect("admin_ui:tokens")
        problems = outcome.problems
    else:
        issued = request.session.pop(NEW_TOKEN_KEY, None)
    endpoint = resource_url(request)
    actor = actor_for(request)
    held = scopes_for_role(actor.role)
    context = {
        "endpoint": endpoint,
        "configs": client_configs(endpoint, issued["raw"]) if issued else [],
        "tokens": tokens.list_own(actor=actor),
        # Only what the role may hold: the rest would be dropped (accounts.tokens clamps to the role).
        "scopes": [(s.value, describe(s)) for s in Scope if s in held],
        "issued": issued,
        "problems": problems,
        "form": request.POST if problems else {},
        "nav_key": "tokens",
    }
    status = status_for(outcome)
    response = render(request, "admin_ui/tokens.html", context, status=status)
    response["Cache-Control"] = "no-store"  # the new token is in this page once
    return response


@admin_page(None, "POST")
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    run(request, "token_revoke", {"tokenId": str(token_id)}, "Token revoked.")
    return redirect("admin_ui:tokens")
