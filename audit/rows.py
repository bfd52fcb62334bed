"""``Row``: an audit row on its way to the table, as plain attributes (one per column of ``AuditLog``).

The rows a door hands to the background writer (MCP reads and failed calls) are only read column by column by
the writer's INSERT, so they need not be model instances: building an ``AuditLog`` (``Model.__init__``, its
``pre_init``/``post_init`` signals, a default looked up per field) cost about 20 us of every MCP call, this a
quarter of that. The attribute names are the model's column attributes, so the writer reads either kind.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from audit.models import AuditLog

# Every column but the id, by attribute name (``user_id``), in the model's order.
COLUMNS = tuple(f.attname for f in AuditLog._meta.concrete_fields if not f.primary_key)


class Row:
    __slots__ = COLUMNS
    # The columns' types, for the type checker (a test holds these names to COLUMNS).
    created_at: datetime
    user_id: int | None
    source: str
    token_ref: str
    token_name: str
    oauth_client_id: str
    oauth_client_name: str
    client: str
    client_version: str
    action: str
    target: str
    outcome: str
    duration_ms: float
    trace_id: str

    def __init__(self, **columns: Any) -> None:
        for name, value in columns.items():
            setattr(self, name, value)  # an unknown name fails here, a missing one at the first read

    def __repr__(self) -> str:
        return f"<audit Row {self.action} {self.outcome}>"
