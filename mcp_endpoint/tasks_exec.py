"""Running an MCP task: the worker's job, and the one function that executes a tool call.

``execute_tool_call`` is the single seam between tasks and the tool pipeline: today it goes through the
same code as a direct ``tools/call`` (dispatch), so a task gets the same permission checks, argument
validation, audit row, trace id and errors as the call would have had.
"""

from __future__ import annotations

from typing import Any

from accounts.models import PersonalAccessToken, User
from accounts.oauth.models import AccessToken
from audit import writer as audit_writer
from audit.record import record
from emdash.actor import Actor
from emdash.background import task
from emdash.call import Call
from emdash.origin import serving
from emdash.tracing import unexpected
from mcp_endpoint import dispatch, task_store
from mcp_endpoint.jsonrpc import INTERNAL_ERROR, INVALID_REQUEST, RpcError
from mcp_endpoint.models import McpTask

REVOKED_MESSAGE = "Unauthorized: the token that created this task was revoked or its user deactivated"


def actor_at_run_time(owner_id: int, token_ref: str) -> Actor | None:
    """The task owner as they stand now (token scopes re-read, revocation honoured); None if no longer valid."""
    user = User.objects.filter(pk=owner_id, is_active=True).first()
    if user is None:
        return None
    kind, _, pk = token_ref.partition(":")
    if kind == "pat":
        pat = PersonalAccessToken.objects.filter(pk=pk, user=user).first()
        if pat is None or not pat.is_usable:
            return None
        return Actor.for_user(user, pat.scopes, token_id=token_ref, token_name=pat.name)
    if kind == "oauth":
        # An access token that merely expired since the request is fine (the grant lives on); a revoked one is not.
        oat = AccessToken.objects.filter(pk=pk, user=user, revoked_at__isnull=True).select_related("client").first()
        if oat is None:
            return None
        client = oat.client
        return Actor.for_user(user, oat.scopes, token_id=token_ref, client_id=client.client_id, client_name=client.name)
    return Actor.for_user(user)  # a same-origin session: no token, no scope limit


def execute_tool_call(
    actor: Actor, name: str, arguments: dict[str, Any], *, version: str, trace_id: str, client_name: str = ""
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """(CallToolResult, None) or (None, JSON-RPC error) — exactly what a direct tools/call would answer."""
    ctx = dispatch.Context(Call(actor, "worker", trace_id, client_name), version)
    try:
        return dispatch._tools_call({"name": name, "arguments": arguments}, ctx), None
    except RpcError as exc:
        error: dict[str, Any] = {"code": exc.code, "message": exc.message}
        if exc.data is not None:
            error["data"] = exc.data
        return None, error
    except dispatch.InternalError:  # already logged with the trace id by dispatch
        return None, {"code": INTERNAL_ERROR, "message": "Internal error", "data": {"traceId": trace_id}}
    finally:
        audit_writer.write(ctx.audit)  # the worker is off any request path: now, in one transaction


@task()
def run_mcp_task(task_id: str) -> str:
    """The job the task framework runs; returns the task's final status (kept in the backend's result)."""
    row = task_store.claim(task_id)
    if row is None:
        return "skipped"  # cancelled, expired, or another worker has it (at-least-once queues)
    try:
        return _run_claimed(row)
    except Exception as exc:
        unexpected(exc, f"MCP task {task_id}")
        message = f"Internal error (trace {row.trace_id})"
        error = {"code": INTERNAL_ERROR, "message": "Internal error", "data": {"traceId": row.trace_id}}
        task_store.finish(task_id, McpTask.FAILED, message=message, error=error)
        return McpTask.FAILED


def _run_claimed(row: McpTask) -> str:
    actor = actor_at_run_time(row.owner_id, row.token_ref)
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    if actor is None:
        error = {"code": INVALID_REQUEST, "message": REVOKED_MESSAGE}
    else:
        with serving(row.origin):  # as the creating request would have answered (emdash.origin)
            result, error = execute_tool_call(
                actor,
                row.tool_name,
                row.arguments,
                version=row.protocol_version,
                trace_id=row.trace_id,
                client_name=row.client_name,
            )
    if error is not None:
        status, message = McpTask.FAILED, str(error["message"])
    elif result is not None and result.get("isError"):
        status, message = McpTask.FAILED, str(result["content"][0]["text"])
    else:
        status, message = McpTask.COMPLETED, ""
    stored = task_store.finish(row.pk, status, message=message, result=result, error=error)
    _audit_completion(row, actor, status if stored else "superseded")
    return status if stored else "superseded"


def _audit_completion(row: McpTask, actor: Actor | None, outcome: str) -> None:
    """The task's own row, in MCP's name (the call that made it): the owner and token as stored with the task."""
    owner = actor if actor is not None else Actor(user=User(pk=row.owner_id), token_id=row.token_ref)
    record(Call(owner, "mcp", row.trace_id, row.client_name), f"tasks/complete:{row.tool_name}", outcome)
