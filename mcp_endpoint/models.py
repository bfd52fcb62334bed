"""MCP tasks (protocol 2025-11-25): a tools/call run later by the worker, polled by its creator."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone


def new_task_id() -> str:
    """Unguessable: the id is the handle a client polls with (ownership is checked as well)."""
    return secrets.token_urlsafe(24)


class McpTask(models.Model):
    WORKING = "working"
    COMPLETED = "completed"
    FAILED = "failed"
    CANCELLED = "cancelled"
    STATUSES = [(s, s) for s in (WORKING, COMPLETED, FAILED, CANCELLED)]
    TERMINAL = frozenset({COMPLETED, FAILED, CANCELLED})

    id = models.CharField(primary_key=True, max_length=64, default=new_task_id, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mcp_tasks")
    token_ref = models.CharField(max_length=64, blank=True)  # "pat:<id>" / "oauth:<id>"; "" for a session
    client_name = models.CharField(max_length=200, blank=True)
    # The origin the creating request came to, for absolute URLs in the result (media_upload_url's uploadUrl).
    origin = models.CharField(max_length=300, blank=True, default="")
    tool_name = models.CharField(max_length=100)
    arguments = models.JSONField(default=dict)  # kept for the worker; never logged
    protocol_version = models.CharField(max_length=16)
    status = models.CharField(max_length=16, choices=STATUSES, default=WORKING)
    status_message = models.CharField(max_length=500, blank=True)
    result = models.JSONField(null=True, blank=True)  # the CallToolResult (also for tool errors)
    error = models.JSONField(null=True, blank=True)  # a JSON-RPC error {code, message, data?} instead of a result
    trace_id = models.CharField(max_length=32)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    ttl_ms = models.PositiveIntegerField()
    poll_interval_ms = models.PositiveIntegerField()
    expires_at = models.DateTimeField(db_index=True)
    attempts = models.PositiveSmallIntegerField(default=0)  # claims by a worker
    lease_expires_at = models.DateTimeField(null=True, blank=True)  # a claim older than this is a dead worker's

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["owner", "-created_at", "-id"], name="mcp_task_owner_idx"),
            models.Index(fields=["status", "lease_expires_at"], name="mcp_task_lease_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.tool_name} {self.status}"

    @property
    def is_terminal(self) -> bool:
        return self.status in self.TERMINAL
