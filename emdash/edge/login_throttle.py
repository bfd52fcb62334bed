"""Password brute-force protection: lock an account, and separately a client IP, after repeated failed sign-ins.

Failures are counted from Django's ``user_login_failed`` signal, so every door that checks a password with
``authenticate()`` counts; each door asks ``blocked()`` before checking a password and answers 429 while a lock
holds (the right password included). A successful sign-in clears that account's failures but never the IP's,
so one account the attacker owns cannot reset the count for the others. Counters live in Django's cache
(``emdash.ratelimit``), shared by every process when ``REDIS_URL`` is set.
"""

from __future__ import annotations

import math
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse

from emdash import ratelimit
from emdash.conf import emdash_settings
from emdash.edge.proxy import client_ip

ACCOUNT, IP = "login.account", "login.ip"


def _account(email: Any) -> str:
    return str(email or "").strip().lower()


def blocked(request: HttpRequest, email: str) -> int | None:
    """Seconds left while this account or this client IP is locked out, else None."""
    waits = [ratelimit.locked(IP, client_ip(request)), ratelimit.locked(ACCOUNT, _account(email))]
    return max((w for w in waits if w), default=None)


def message(seconds: int) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    return f"Too many failed sign-in attempts. Try again in {minutes} minute{'s' if minutes != 1 else ''}."


def _failed(sender: Any, credentials: dict[str, Any], request: HttpRequest | None = None, **_: Any) -> None:
    lockout = int(emdash_settings.LOGIN_LOCKOUT)
    email = _account(credentials.get(get_user_model().USERNAME_FIELD) or credentials.get("username"))
    if email:
        ratelimit.fail(ACCOUNT, email, int(emdash_settings.LOGIN_MAX_FAILURES), lockout)
    if request is not None:
        ratelimit.fail(IP, client_ip(request), int(emdash_settings.LOGIN_MAX_FAILURES_PER_IP), lockout)


def _succeeded(sender: Any, request: HttpRequest | None, user: Any, **_: Any) -> None:
    ratelimit.forget(ACCOUNT, _account(getattr(user, "email", "")))


def connect() -> None:
    user_login_failed.connect(_failed, dispatch_uid="emdash.edge.login_throttle.failed")
    user_logged_in.connect(_succeeded, dispatch_uid="emdash.edge.login_throttle.succeeded")


class ThrottledLoginView(LoginView):
    """Django's login page (used while the admin UI is not installed) with the same lockout."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        seconds = blocked(request, request.POST.get("username", ""))
        if seconds is None:
            return super().post(request, *args, **kwargs)
        # An unbound form: binding would validate, and validating checks the password.
        form = self.form_class(request, initial={"username": request.POST.get("username", "")})
        context = self.get_context_data(form=form, throttled=message(seconds))
        response = self.render_to_response(context, status=429)
        response["Retry-After"] = str(seconds)
        return response
