"""The admin door's ``Call`` and its audit rows (source "admin"), beside the ones MCP calls write."""

from __future__ import annotations

from django.http import HttpRequest

from audit import record as audit
from emdash.actor import Actor
from emdash.call import Call


def call(request: HttpRequest) -> Call:
    """A session user's call, limited by their role alone (no token scopes); no program name (a browser)."""
    user = request.user
    return Call.at("admin", Actor.for_user(user) if user.is_authenticated else Actor.anonymous())  # type: ignore[arg-type]


def record(request: HttpRequest, action: str, outcome: str, started: float | None = None, target: str = "") -> None:
    """One row per admin write: who did what to what (``target``, as the MCP rows name it: ``users/7``,
    ``posts/01J...``) and whether it worked (``ok`` or an error code), refusals included."""
    audit.record(call(request), action, outcome, target, started=started)
