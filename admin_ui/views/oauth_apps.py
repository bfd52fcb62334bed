"""Connected OAuth apps of the signed-in user (admins may list everyone's): see them, revoke one."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from accounts.oauth import connections
from admin_ui.base import actor_for, admin_page, attempt
from emdash.numbers import plain_int
from emdash.permissions import Perm, can


@admin_page()
@require_GET
def app_list(request: HttpRequest) -> HttpResponse:
    actor = actor_for(request)
    may_see_all = can(actor, Perm.USERS_MANAGE)
    show_all = may_see_all and request.GET.get("all") == "1"
    context = {
        "connections": connections.connection_list(actor=actor, all_users=show_all),
        "show_all": show_all,
        "may_see_all": may_see_all,
        "nav_key": "oauth_apps",
    }
    return render(request, "admin_ui/oauth_apps.html", context)


@admin_page(None, "POST")
def app_revoke(request: HttpRequest, client_id: str) -> HttpResponse:
    raw_user = request.POST.get("user", "")
    user_id = plain_int(raw_user)
    attempt(
        request,
        "oauth.revoke_connection",
        lambda: connections.connection_revoke(actor=actor_for(request), client_id=client_id, user_id=user_id),
        "Access revoked: the app's tokens no longer work.",
        target=f"oauth/{client_id}",
    )
    back = reverse("admin_ui:oauth_apps")
    if request.POST.get("all") == "1":
        back += "?all=1"
    return redirect(back)
