"""Signing in and out with email and password (Django's session auth)."""

from __future__ import annotations

from django.contrib.auth import authenticate, login, logout
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST

from admin_ui import audit
from emdash.edge import login_throttle


def _next_url(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=False)
    return target if safe and target.startswith("/") else "/_emdash/admin/"


@require_http_methods(["GET", "POST"])
def login_view(request: HttpRequest) -> HttpResponse:
    error = ""
    email = ""
    if request.method == "POST":
        email = request.POST.get("email", "").strip().lower()
        if (wait := login_throttle.blocked(request, email)) is not None:
            return _locked_out(request, email, wait)
        user = authenticate(request, username=email, password=request.POST.get("password", ""))
        if user is not None and user.is_active:
            login(request, user)
            audit.record(request, "admin.login", "ok")
            return redirect(_next_url(request))
        error = "Email or password is not right."
    elif request.user.is_authenticated:
        return redirect(_next_url(request))
    context = {"error": error, "email": email, "next": _next_url(request)}
    return render(request, "admin_ui/login.html", context, status=400 if error else 200)


def _locked_out(request: HttpRequest, email: str, seconds: int) -> HttpResponse:
    """429 with the wait in words and in ``Retry-After``; the password was not checked."""
    context = {"error": login_throttle.message(seconds), "email": email, "next": _next_url(request)}
    response = render(request, "admin_ui/login.html", context, status=429)
    response["Retry-After"] = str(seconds)
    return response


@require_POST
def logout_view(request: HttpRequest) -> HttpResponse:
    logout(request)
    return redirect("admin_ui:login")
