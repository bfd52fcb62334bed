"""The MCP Tasks methods (2025-11-25): task-augmented tools/call, tasks/get, /result, /list, /cancel.

Tasks live in the database (the endpoint keeps no session) and belong to the user who created them: any
other caller gets -32602, exactly as for an id that never existed, and never sees them in lists.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

from emdash import cursors
from emdash.errors import InsufficientPermissions, InsufficientScope, InvalidCursor
from emdash.permissions import require
from mcp_endpoint import registry, task_store, versions
from mcp_endpoint.jsonrpc import INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, RpcError
from mcp_endpoint.models import McpTask

RELATED_TASK = "io.modelcontextprotocol/related-task"
TASKS_CAPABILITY: dict[str, Any] = {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}
PAGE_SIZE = 50
RESULT_WAIT = 10.0  # seconds tasks/result waits for a working task before telling the client to poll
RESULT_POLL = 0.2


def capabilities(base: dict[str, Any], version: str) -> dict[str, Any]:
    """The server capabilities for a negotiated version: ``tasks`` from 2025-11-25 on."""
    return {**base, "tasks": TASKS_CAPABILITY} if versions.supports_tasks(version) else base


def tool_definitions(definitions: list[dict[str, Any]], version: str) -> list[dict[str, Any]]:
    """tools/list entries for ``version``: each tool says it may run as a task (the caller caches the list).

    Only in 2025-11-25: 2026-07-28 deleted ``execution`` from Tool (the tasks extension runs any tool)."""
    if not versions.supports_tasks(version) or versions.is_modern(version):
        return definitions
    return [{**d, "execution": {"taskSupport": "optional"}} for d in definitions]


def iso(value: datetime) -> str:
    return value.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def wire(row: McpTask) -> dict[str, Any]:
    """The protocol's Task object."""
    body: dict[str, Any] = {
        "taskId": row.pk,
        "status": row.status,
        "createdAt": iso(row.created_at),
        "lastUpdatedAt": iso(row.updated_at),
        "ttl": row.ttl_ms,
        "pollInterval": row.poll_interval_ms,
    }
    if row.status_message:
        body["statusMessage"] = row.status_message
    return body


def _require_version(ctx: Any, method: str) -> None:
    if not versions.supports_tasks(ctx.version):
        raise RpcError(METHOD_NOT_FOUND, f"Method not found: {method} (tasks need protocol 2025-11-25 or later)")


def owned(params: dict[str, Any], ctx: Any) -> McpTask:
    task_id = params.get("taskId")
    if not isinstance(task_id, str) or not task_id:
        raise RpcError(INVALID_PARAMS, "Invalid params: taskId must be a non-empty string")
    row = None
    if ctx.actor.user_id is not None and len(task_id) <= 64:
        row = task_store.visible(ctx.actor.user_id).filter(pk=task_id).first()
    if row is None:  # unknown, expired, or someone else's: the same answer, so ids cannot be probed
        raise RpcError(INVALID_PARAMS, f"Invalid params: no task with id {task_id[:64]!r}")
    return row


def _ttl(spec: Any) -> int | None:
    if not isinstance(spec, dict):
        raise RpcError(INVALID_PARAMS, "Invalid params: task must be an object, e.g. {} or {'ttl': 60000}")
    ttl = spec.get("ttl")
    if ttl is None:
        return None
    if isinstance(ttl, bool) or not isinstance(ttl, int) or ttl < 0:  # 60000.0 too: the message says integer
        raise RpcError(INVALID_PARAMS, "Invalid params: task.ttl must be a non-negative integer (milliseconds)")
    return ttl


def create(params: dict[str, Any], ctx: Any, *, permission_error: Any, audit: Any) -> dict[str, Any]:
    """tools/call with ``params.task``: check at once, store the task, queue it, answer CreateTaskResult."""
    row = start(params, ctx, _ttl(params["task"]), permission_error=permission_error, audit=audit)
    return {"task": wire(row)}


def start(params: dict[str, Any], ctx: Any, ttl: int | None, *, permission_error: Any, audit: Any) -> McpTask:
    """The task for one tools/call, checked, stored and queued (both revisions' task creation)."""
    started = time.perf_counter()
    tool = registry.get(params.get("name"))
    name = params.get("name")
    if tool is None:
        raise RpcError(INVALID_PARAMS, f"Unknown tool: {name}" if isinstance(name, str) else "Invalid params: name")
    arguments = params.get("arguments")
    arguments = {} if arguments is None else arguments
    if not isinstance(arguments, dict):
        raise RpcError(INVALID_PARAMS, "Invalid params: arguments must be an object")
    action = f"tasks/create:{tool.name}"[:100]
    try:
        require(ctx.actor, tool.perm)  # a denied call makes no task
        if ctx.actor.user_id is None:
            raise RpcError(INVALID_REQUEST, "Tasks need a signed-in user")
        row = task_store.create(
            owner_id=ctx.actor.user_id,
            token_ref=str(ctx.actor.token_id or ""),
            client_name=ctx.client_name,
            tool_name=tool.name,
            arguments=arguments,
            protocol_version=ctx.version,
            trace_id=ctx.trace_id,
            ttl_ms=task_store.effective_ttl(ttl),
        )
    except (InsufficientScope, InsufficientPermissions) as exc:
        audit(ctx, action, exc.code, started)
        raise permission_error(exc) from None
    except task_store.TaskLimitReached as exc:
        audit(ctx, action, "TASK_LIMIT", started)
        raise RpcError(
            INVALID_REQUEST,
            f"Too many working tasks: at most {exc.limit} at once. Wait for some to finish (tasks/get) "
            "or cancel them (tasks/cancel), then try again",
            {"code": "TASK_LIMIT", "limit": exc.limit},
        ) from None
    task_store.enqueue(row)
    audit(ctx, action, "ok", started)
    # The answer is the task as it began (working), even when a quick worker or an immediate backend has
    # already finished it: tasks begin in working, and every client polls tasks/get for what came next.
    return row


def get(params: dict[str, Any], ctx: Any) -> dict[str, Any]:
    _require_version(ctx, "tasks/get")
    return wire(owned(params, ctx))


def result(params: dict[str, Any], ctx: Any, *, audit: Any) -> dict[str, Any]:
    """The tool's result once the task is terminal; waits up to RESULT_WAIT seconds for a working one."""
    _require_version(ctx, "tasks/result")
    started = time.perf_counter()
    row = owned(params, ctx)
    deadline = time.monotonic() + RESULT_WAIT
    while not row.is_terminal and time.monotonic() < deadline:
        time.sleep(RESULT_POLL)
        row = owned(params, ctx)
    action = f"tasks/result:{row.tool_name}"[:100]
    audit(ctx, action, row.status, started)
    if not row.is_terminal:
        raise RpcError(
            INVALID_REQUEST,
            f"Task {row.pk} is still working: poll tasks/get every {row.poll_interval_ms} ms and ask for the "
            "result once its status is completed, failed or cancelled",
            {"code": "TASK_NOT_FINISHED", "taskId": row.pk, "status": row.status},
        )
    related = {RELATED_TASK: {"taskId": row.pk}}
    if row.error is not None:
        data = row.error.get("data")
        data = {**data, **related} if isinstance(data, dict) else {**related}
        raise RpcError(int(row.error["code"]), str(row.error["message"]), data)
    if row.result is None:  # cancelled before it ran
        raise RpcError(INVALID_PARAMS, f"Task {row.pk} was {row.status} and has no result", {**related})
    body = dict(row.result)
    body["_meta"] = {**body.get("_meta", {}), **related}
    return body


def list_tasks(params: dict[str, Any], ctx: Any) -> dict[str, Any]:
    _require_version(ctx, "tasks/list")
    owner = ctx.actor.user_id
    rows = task_store.visible(owner if owner is not None else -1).order_by("-created_at", "-id")
    cursor = params.get("cursor")
    if cursor is not None:
        try:
            created, last_id = cursors.decode(cursor, f"mcp-tasks:{owner}")
        except (InvalidCursor, ValueError):
            raise RpcError(INVALID_PARAMS, "Invalid params: cursor is not one this server handed out") from None
        when = datetime.fromisoformat(created)
        rows = rows.filter(created_at__lte=when).exclude(created_at=when, id__gte=last_id)
    page = list(rows[: PAGE_SIZE + 1])
    body: dict[str, Any] = {"tasks": [wire(r) for r in page[:PAGE_SIZE]]}
    if len(page) > PAGE_SIZE:
        last = page[PAGE_SIZE - 1]
        body["nextCursor"] = cursors.encode(f"mcp-tasks:{owner}", [last.created_at.isoformat(), last.pk])
    return body


def cancel(params: dict[str, Any], ctx: Any, *, audit: Any) -> dict[str, Any]:
    _require_version(ctx, "tasks/cancel")
    started = time.perf_counter()
    row = owned(params, ctx)
    action = f"tasks/cancel:{row.tool_name}"[:100]
    if row.is_terminal or not task_store.cancel(row):
        row.refresh_from_db()
        audit(ctx, action, "ALREADY_TERMINAL", started)
        raise RpcError(
            INVALID_PARAMS,
            f"Invalid params: task {row.pk} is already {row.status} and cannot be cancelled",
            {"taskId": row.pk, "status": row.status},
        )
    audit(ctx, action, "ok", started)
    row.refresh_from_db()
    return wire(row)
