"""``record()``: the one place an audit row is built, and its two writers.

- now (the default): inserted at once, inside the caller's transaction, so a write and its row commit or roll
  back together (the pipeline's writes, the admin, uploads, task completion);
- ``later``: handed to the door's batch (MCP reads and failed calls), which the door passes to the background
  writer (``audit.writer.submit``) once the answer is built, so a read adds no write transaction.

Adding an audit column: one model field (``audit.models.AuditLog``, plus its migration) and one line in
:func:`row`, reading it from the ``Call``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from audit.models import AuditLog
from emdash.call import Call
from emdash.text import scrub

# Where a door gathers the rows it writes off the request path.
Later = Callable[[AuditLog], None]


def row(call: Call, action: str, outcome: str, target: str = "", started: float | None = None) -> AuditLog:
    """The audit row of one call: who (user, token), through what (door, program), on what, with what outcome."""
    return AuditLog(
        user_id=call.actor.user_id,
        **AuditLog.fields_of(call),  # door, token, OAuth client, program (SPEC 9.3)
        action=scrub(action[:100]),
        target=target[:255],
        outcome=outcome[:40],
        duration_ms=round((time.perf_counter() - started) * 1000, 3) if started is not None else 0,
        trace_id=call.trace_id[:32],
    )


def record(
    call: Call,
    action: str,
    outcome: str,
    target: str = "",
    *,
    started: float | None = None,
    later: Later | None = None,
) -> AuditLog:
    """Record one call: now, in the caller's transaction, or (``later``) in the door's batch."""
    entry = row(call, action, outcome, target, started)
    if later is not None:
        later(entry)
    else:
        entry.save(force_insert=True)
    return entry
