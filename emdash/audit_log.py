"""Reading the audit log (admins): MCP tool calls and admin actions, newest first."""

from __future__ import annotations

from typing import Any

from emdash.actor import Actor
from emdash.models import AuditLog
from emdash.permissions import Perm, require

SOURCES = ("mcp", "admin")


def audit_list(*, actor: Actor, source: Any = None, limit: int = 100, before_id: Any = None) -> list[AuditLog]:
    """Up to ``limit`` rows, optionally of one ``source``, older than the row ``before_id`` (for paging)."""
    require(actor, Perm.AUDIT_READ)
    qs = AuditLog.objects.select_related("user").order_by("-id")
    if source in SOURCES:
        qs = qs.filter(source=source)
    if isinstance(before_id, int):
        qs = qs.filter(id__lt=before_id)
    return list(qs[: max(1, min(limit, 500))])
