"""The audit log screen (admins): who did what through MCP or the admin, and how it went."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from admin_ui.base import actor_for, admin_page
from audit.selectors import SOURCES, audit_list
from emdash.permissions import Perm

PAGE_SIZE = 100


@admin_page(Perm.AUDIT_READ)
def audit_log(request: HttpRequest) -> HttpResponse:
    source = request.GET.get("source", "")
    before = request.GET.get("before", "")
    rows = audit_list(
        actor=actor_for(request),
        source=source or None,
        limit=PAGE_SIZE,
        before_id=int(before) if before.isdigit() else None,
    )
    context = {
        "rows": rows,
        "source": source,
        "sources": SOURCES,
        "older": rows[-1].pk if len(rows) == PAGE_SIZE else None,
        "nav_key": "audit",
    }
    return render(request, "admin_ui/audit.html", context)
