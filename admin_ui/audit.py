"""Audit rows for admin actions, beside the ones MCP calls write (source "admin")."""

from __future__ import annotations

import time

from django.http import HttpRequest

from audit.models import AuditLog
from emdash.tracing import current_trace_id


def record(request: HttpRequest, action: str, outcome: str, started: float | None = None, target: str = "") -> None:
    """One row per admin write: who did what to what (``target``, as the MCP rows name it: ``users/7``,
    ``posts/01J...``) and whether it worked (``ok`` or an error code), refusals included."""
    user = request.user if request.user.is_authenticated else None
    AuditLog.objects.create(
        user=user,
        source="admin",
        action=action[:100],
        target=target[:255],
        outcome=outcome[:40],
        duration_ms=round((time.perf_counter() - started) * 1000, 2) if started else 0,
        trace_id=current_trace_id(),
    )
