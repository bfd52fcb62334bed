"""The audit log screen (admins): who did what through which door, and "Undo these changes" for one token or
OAuth client (SPEC 9.3: a dry run first, then a confirmation that applies it in one transaction)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from admin_ui.base import actor_for, admin_page, run
from audit.selectors import SOURCES, audit_list
from emdash.numbers import plain_int
from emdash.permissions import Perm

PAGE_SIZE = 100


def _filters(data: Any) -> dict[str, str]:
    return {key: data.get(key, "").strip() for key in ("source", "token", "client")}


@admin_page(Perm.AUDIT_READ)
def audit_log(request: HttpRequest) -> HttpResponse:
    filters = _filters(request.GET)
    before = request.GET.get("before", "")
    rows = audit_list(
        actor=actor_for(request),
        source=filters["source"] or None,
        token=filters["token"] or None,
        client=filters["client"] or None,
        limit=PAGE_SIZE,
        before_id=plain_int(before),
    )
    return render(request, "admin_ui/audit.html", _context(request, filters, rows))


def _context(request: HttpRequest, filters: dict[str, str], rows: list[Any], **extra: Any) -> dict[str, Any]:
    since = (timezone.localtime() - timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    return {
        "rows": rows,
        **filters,
        "sources": SOURCES,
        "older": rows[-1].pk if len(rows) == PAGE_SIZE else None,
        "undoable": bool(filters["token"] or filters["client"]),
        "since": request.POST.get("since", since),
        "nav_key": "audit",
        **extra,
    }


@admin_page(Perm.AUDIT_READ, "POST")
def undo_changes(request: HttpRequest) -> HttpResponse:
    """ "Undo these changes": the first post shows the dry run, the second (``confirm``) applies it."""
    filters = _filters(request.POST)
    by = {"token": filters["token"]} if filters["token"] else {"client": filters["client"]}
    since = _aware(request.POST.get("since", ""))
    confirm = request.POST.get("confirm") == "1"
    success = "The changes were undone." if confirm else None
    outcome = run(request, "changes_revert", {"by": by, "since": since, "dryRun": not confirm}, success)
    rows = audit_list(
        actor=actor_for(request), token=filters["token"] or None, client=filters["client"] or None, limit=PAGE_SIZE
    )
    extra = {"plan": outcome.result if outcome.ok else None, "applied": confirm and outcome.ok, "since_iso": since}
    return render(request, "admin_ui/audit.html", _context(request, filters, rows, **extra))


def _aware(value: str) -> str:
    """The form's local ``datetime-local`` value in the site's time zone, as ISO 8601 with its offset (anything
    else is passed on for the operation to refuse with its own message)."""
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return value
    return (parsed if parsed.tzinfo else timezone.make_aware(parsed)).isoformat()
