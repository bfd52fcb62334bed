"""The trace id an operation records: the request's or job's, from the trace-id middleware's context."""

from __future__ import annotations

from emdash.tracing import current_trace_id

__all__ = ["current_trace_id"]
