"""The trace id an operation records: the one place the pipeline asks for it.

Until the trace-id middleware lands (it will provide ``emdash.tracing.current_trace_id()``), a door
passes its own id (MCP mints one per request) and anything else gets a fresh one here.
"""

from __future__ import annotations

import secrets


def current_trace_id() -> str:
    try:
        from emdash import tracing  # type: ignore[attr-defined]
    except ImportError:
        return secrets.token_hex(8)
    found: str | None = tracing.current_trace_id()
    return found or secrets.token_hex(8)
