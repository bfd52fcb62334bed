"""MCP task rows: creation under the per-user limit, exactly-once claims, conditional finishes, the sweep.

Every state change is a conditional UPDATE on the status (ARCHITECTURE "Exactly once"): a task is claimed
once, a cancelled task is never overwritten by the worker that was running it, and a claim whose lease ran
out (the worker was killed) is failed by the sweep instead of staying "working" forever.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from emdash import origin as request_origin
from emdash.conf import emdash_settings
from mcp_endpoint.models import McpTask

log = logging.getLogger("emdash.mcp.tasks")

DEAD_WORKER_MESSAGE = (
    "The worker running this task stopped before it finished (it was killed or lost); "
    "the call may or may not have taken effect: check before retrying"
)


class TaskLimitReached(Exception):
    """The owner already has the configured number of working tasks."""

    def __init__(self, limit: int) -> None:
        super().__init__(limit)
        self.limit = limit


def effective_ttl(requested: int | None) -> int:
    """The ttl we grant in ms: the client's wish capped at TASKS_MAX_TTL, or the default."""
    cap = int(emdash_settings.TASKS_MAX_TTL)
    if requested is None:
        return min(int(emdash_settings.TASKS_DEFAULT_TTL), cap)
    return max(1, min(int(requested), cap))


def create(
    *,
    owner_id: int,
    token_ref: str,
    client_name: str,
    tool_name: str,
    arguments: dict[str, Any],
    protocol_version: str,
    trace_id: str,
    ttl_ms: int,
) -> McpTask:
    """A new working task, unless the owner is at the limit (TaskLimitReached)."""
    limit = int(emdash_settings.TASKS_MAX_WORKING)
    now = timezone.now()
    with transaction.atomic():
        # Lock the owner's row so two concurrent requests cannot both take the last free slot (PostgreSQL;
        # SQLite's IMMEDIATE transactions already serialise writers).
        list(get_user_model().objects.select_for_update().filter(pk=owner_id).values_list("pk", flat=True))
        working = McpTask.objects.filter(owner_id=owner_id, status=McpTask.WORKING, expires_at__gt=now).count()
        if working >= limit:
            raise TaskLimitReached(limit)
        return McpTask.objects.create(
            owner_id=owner_id,
            token_ref=token_ref[:64],
            client_name=client_name[:200],
            origin=request_origin.current()[:300],
            tool_name=tool_name,
            arguments=arguments,
            protocol_version=protocol_version,
            trace_id=trace_id,
            created_at=now,
            updated_at=now,
            ttl_ms=ttl_ms,
            poll_interval_ms=int(emdash_settings.TASKS_POLL_INTERVAL),
            expires_at=now + timedelta(milliseconds=ttl_ms),
        )


def visible(owner_id: int) -> Any:
    """The owner's tasks that have not expired (an expired task is gone even before the sweep deletes it)."""
    return McpTask.objects.filter(owner_id=owner_id, expires_at__gt=timezone.now())


def claim(task_id: str) -> McpTask | None:
    """Take a working, never-claimed task for this worker; None if cancelled, expired or claimed already."""
    now = timezone.now()
    lease = now + timedelta(seconds=float(emdash_settings.TASKS_LEASE))
    claimed = McpTask.objects.filter(pk=task_id, status=McpTask.WORKING, attempts=0, expires_at__gt=now).update(
        attempts=1, lease_expires_at=lease, updated_at=now
    )
    return McpTask.objects.filter(pk=task_id).first() if claimed else None


def finish(
    task_id: str, status: str, *, message: str = "", result: Any = None, error: dict[str, Any] | None = None
) -> bool:
    """Record the outcome if the task is still working; False when it was cancelled or failed meanwhile."""
    return bool(
        McpTask.objects.filter(pk=task_id, status=McpTask.WORKING).update(
            status=status,
            status_message=message[:500],
            result=result,
            error=error,
            lease_expires_at=None,
            updated_at=timezone.now(),
        )
    )


def cancel(task: McpTask) -> bool:
    """Cancel a working task; False if it reached a terminal status first."""
    return finish(task.pk, McpTask.CANCELLED, message="Cancelled by the requester")


def sweep(now: datetime | None = None) -> int:
    """Delete expired tasks and fail those whose worker died; how many rows changed."""
    now = now or timezone.now()
    deleted = McpTask.objects.filter(expires_at__lte=now).delete()[0]
    dead = McpTask.objects.filter(status=McpTask.WORKING, lease_expires_at__lte=now).update(
        status=McpTask.FAILED,
        status_message=DEAD_WORKER_MESSAGE,
        error={"code": -32603, "message": "Internal error: " + DEAD_WORKER_MESSAGE},
        lease_expires_at=None,
        updated_at=now,
    )
    if dead:
        log.warning("marked %d MCP task(s) failed: their worker stopped mid-run", dead)
    return deleted + dead


_job: Any = None


def use_job(job: Any) -> None:
    """Set the job that runs a task (``tasks_exec.run_mcp_task``). The app config wires it at start-up: the job
    runs dispatch, which reaches this module through the tasks methods, so importing it here would be a circle."""
    global _job
    _job = job


def enqueue(row: McpTask) -> None:
    """Hand the task to the task framework after the row is committed; a failed hand-off fails the task."""
    if _job is None:
        raise RuntimeError("mcp_endpoint.task_store.use_job was not called (McpEndpointConfig.ready wires it)")
    job = _job

    def send() -> None:
        try:
            job.enqueue(row.pk)
        except Exception:
            log.exception("could not queue MCP task %s (trace %s)", row.pk, row.trace_id)
            finish(row.pk, McpTask.FAILED, message="The task could not be queued; try again later")

    transaction.on_commit(send)
