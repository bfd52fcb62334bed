"""MCP Tasks at 2026-07-28: the ``io.modelcontextprotocol/tasks`` extension (SEP-2663).

That revision moved tasks out of the core protocol into an extension with its own wire shapes: the client
declares the extension in ``_meta["io.modelcontextprotocol/clientCapabilities"].extensions`` (per request; the
revision has no session), the server decides which ``tools/call`` becomes a task and answers with a flat
``CreateTaskResult`` (``resultType: "task"``), ``tasks/get`` inlines the result or error once the task ends,
``tasks/cancel`` is an empty, idempotent acknowledgement, and ``tasks/result``/``tasks/list`` do not exist.

The tasks themselves are the same rows as in 2025-11-25 (task_store): same owner binding, ttl cap, per-user
limit, worker, sweep and audit rows; only the wire differs.
"""

from __future__ import annotations

import time
from typing import Any

from mcp_endpoint import task_methods, task_store
from mcp_endpoint.envelope import CLIENT_CAPABILITIES
from mcp_endpoint.jsonrpc import INVALID_PARAMS, RpcError
from mcp_endpoint.models import McpTask

EXTENSION = "io.modelcontextprotocol/tasks"
MISSING_CAPABILITY = -32021  # SEP-2575: the request needs a client capability it did not declare


def capabilities(base: dict[str, Any]) -> dict[str, Any]:
    """server/discover capabilities: the extension under ``extensions``, never the 2025 ``tasks`` slot."""
    return {**base, "extensions": {**base.get("extensions", {}), EXTENSION: {}}}


def declared(params: dict[str, Any]) -> bool:
    """Whether this request's client declared the tasks extension."""
    meta = params.get("_meta")
    caps = meta.get(CLIENT_CAPABILITIES) if isinstance(meta, dict) else None
    extensions = caps.get("extensions") if isinstance(caps, dict) else None
    return isinstance(extensions, dict) and isinstance(extensions.get(EXTENSION), dict)


def _require_extension(params: dict[str, Any], method: str) -> None:
    if not declared(params):
        raise RpcError(
            MISSING_CAPABILITY,
            f"{method} needs the {EXTENSION} extension: declare it in _meta[{CLIENT_CAPABILITIES!r}].extensions",
            {"requiredCapabilities": {"extensions": {EXTENSION: {}}}},
        )


def _task(row: McpTask) -> dict[str, Any]:
    body: dict[str, Any] = {
        "taskId": row.pk,
        "status": row.status,
        "createdAt": task_methods.iso(row.created_at),
        "lastUpdatedAt": task_methods.iso(row.updated_at),
        "ttlMs": row.ttl_ms,
        "pollIntervalMs": row.poll_interval_ms,
    }
    if row.status_message:
        body["statusMessage"] = row.status_message
    return body


def create(params: dict[str, Any], ctx: Any, *, permission_error: Any, audit: Any) -> dict[str, Any]:
    """A tools/call from a client that declared the extension: every EmDash tool runs as a task then.

    A legacy ``task: {ttl}`` hint is tolerated (a valid ttl is honoured, capped as always)."""
    hint = params.get("task")
    ttl = hint.get("ttl") if isinstance(hint, dict) else None
    if isinstance(ttl, bool) or not isinstance(ttl, int) or ttl < 0:
        ttl = None
    row = task_methods.start(params, ctx, ttl, permission_error=permission_error, audit=audit)
    return {"resultType": "task", **_task(row)}


def detailed(row: McpTask) -> dict[str, Any]:
    """The DetailedTask: a tool that ran and reported an error is ``completed`` with ``result.isError``
    (SEP-2663 keeps ``failed`` for protocol-level errors); a failed task carries its JSON-RPC error."""
    body = _task(row)
    if row.status == McpTask.FAILED and row.error is None and row.result is not None:
        body["status"] = McpTask.COMPLETED
        body.pop("statusMessage", None)
    if body["status"] == McpTask.COMPLETED and row.result is not None:
        body["result"] = {"resultType": "complete", **row.result}  # what tools/call would have answered
    elif row.status == McpTask.FAILED:
        error = row.error or {"code": -32603, "message": row.status_message or "Internal error"}
        body["error"] = {key: error[key] for key in ("code", "message", "data") if key in error}
    return body


def get(params: dict[str, Any], ctx: Any, *, audit: Any) -> dict[str, Any]:
    """tasks/get; handing out a finished task's outcome is a retrieval, audited like 2025's tasks/result."""
    _require_extension(params, "tasks/get")
    started = time.perf_counter()
    row = task_methods.owned(params, ctx)
    if row.is_terminal:
        audit(ctx, f"tasks/get:{row.tool_name}"[:100], row.status, started)
    return detailed(row)


def cancel(params: dict[str, Any], ctx: Any, *, audit: Any) -> dict[str, Any]:
    """tasks/cancel: an empty acknowledgement, also for a task that already ended (the extension makes it
    idempotent; the outcome shows in the next tasks/get)."""
    _require_extension(params, "tasks/cancel")
    started = time.perf_counter()
    row = task_methods.owned(params, ctx)
    action = f"tasks/cancel:{row.tool_name}"[:100]
    cancelled = not row.is_terminal and task_store.cancel(row)
    audit(ctx, action, "ok" if cancelled else "ALREADY_TERMINAL", started)
    return {}


def update(params: dict[str, Any], ctx: Any) -> dict[str, Any]:
    """tasks/update answers a task's input requests; EmDash tools never ask for input, so no task waits."""
    _require_extension(params, "tasks/update")
    row = task_methods.owned(params, ctx)
    raise RpcError(
        INVALID_PARAMS,
        f"Invalid params: task {row.pk} is {row.status}, not input_required (EmDash tasks never ask for input)",
        {"taskId": row.pk, "status": row.status},
    )
