"""``record()``: the one place an audit row is built, and its two writers.

Both build an ``audit.rows.Row`` (the columns as plain attributes, not a model instance):

- now (the default): inserted at once with the writer's prepared INSERT, inside the caller's transaction, so a
  write and its row commit or roll back together (the pipeline's writes, the admin, uploads, task completion);
- ``later``: handed to the door's batch (MCP reads and failed calls), which the door passes to the background
  writer (``audit.writer.submit``) once the answer is built, so a read adds no write transaction; :func:`save`
  inserts one of those now.

Adding an audit column: one model field (``audit.models.AuditLog``, plus its migration), one line in
:func:`columns`, reading it from the ``Call``, and its type on ``audit.rows.Row``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.utils import timezone

from audit import writer
from audit.models import AuditLog
from audit.rows import Row
from emdash.call import Call
from emdash.text import scrub

# Where a door gathers the rows it writes off the request path.
Later = Callable[[Row], None]


def columns(call: Call, action: str, outcome: str, target: str = "", started: float | None = None) -> dict[str, Any]:
    """The audit row of one call: who (user, token), through what (door, program), on what, with what outcome."""
    return dict(
        created_at=timezone.now(),
        user_id=call.actor.user_id,
        **AuditLog.fields_of(call),  # door, token, OAuth client, program (SPEC 9.3)
        action=scrub(action[:100]),
        target=target[:255],
        outcome=outcome[:40],
        duration_ms=round((time.perf_counter() - started) * 1000, 3) if started is not None else 0,
        trace_id=call.trace_id[:32],
    )


def save(entry: Row) -> None:
    """Insert a row that was handed to ``later`` now, in the caller's transaction (the admin keeps failures so)."""
    writer.insert([entry])


def record(
    call: Call,
    action: str,
    outcome: str,
    target: str = "",
    *,
    started: float | None = None,
    later: Later | None = None,
) -> None:
    """Record one call: now, in the caller's transaction, or (``later``) in the door's batch."""
    found = Row(**columns(call, action, outcome, target, started))
    if later is not None:
        later(found)
    else:
        writer.insert([found])  # the writer's one prepared INSERT: the ORM's save compiled one per write
