"""Users and roles (admins): list, invite with a password, change role, deactivate."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect

from accounts import users
from admin_ui.base import actor_for, admin_page, attempt, form_page
from emdash.permissions import Perm
from emdash.roles import Role


@admin_page(Perm.USERS_MANAGE, "GET", "POST")
def user_list(request: HttpRequest) -> HttpResponse:
    actor = actor_for(request)
    outcome = None
    if request.method == "POST":
        post = request.POST
        outcome = attempt(
            request,
            "users.create",
            lambda: users.user_create(
                actor=actor,
                email=post.get("email", ""),
                role=post.get("role", ""),
                password=post.get("password", ""),
                name=post.get("name", ""),
            ),
            "User created.",
        )
        if outcome.ok:
            return redirect("admin_ui:users")
    return form_page(
        request, "admin_ui/users.html", "users", outcome, users=users.user_list(actor=actor), roles=Role.choices()
    )


@admin_page(Perm.USERS_MANAGE, "POST")
def user_edit(request: HttpRequest, user_id: int) -> HttpResponse:
    actor = actor_for(request)
    post = request.POST
    attempt(
        request,
        "users.update",
        lambda: users.user_update(
            actor=actor, user_id=user_id, role=post.get("role") or None, is_active=post.get("is_active") == "1"
        ),
        "User updated.",
        target=f"users/{user_id}",
    )
    return redirect("admin_ui:users")
