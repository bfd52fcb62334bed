"""The audit log table: one row per write from any door and per MCP call."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from emdash.models import Provenance


class AuditLog(Provenance):
    """One row per write from any door (mcp, rest, admin, worker) and per MCP call: who, through what, on what,
    what happened, how long."""

    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    # Provenance's columns (SPEC 9.3); ``source`` keeps the default it had before.
    source = models.CharField(max_length=16, default="mcp")
    action = models.CharField(max_length=100)
    target = models.CharField(max_length=255, blank=True, db_index=True)  # e.g. "posts/01J..."
    outcome = models.CharField(max_length=40)  # "ok" or an error code
    duration_ms = models.FloatField(default=0)
    trace_id = models.CharField(max_length=32, db_index=True)

    class Meta:
        db_table = "emdash_auditlog"  # the table it had under the ``emdash`` app label: existing databases keep it
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["user", "-created_at"], name="emdash_audit_user_idx"),
            models.Index(fields=["source", "-id"], name="emdash_audit_source_idx"),
            # changes_revert and the audit log's filters: what one token or OAuth client did since a time.
            models.Index(fields=["token_ref", "created_at"], name="audit_token_time_idx"),
            models.Index(fields=["oauth_client_id", "created_at"], name="audit_oauth_client_time_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M:%S} {self.action} {self.outcome}"
