"""Method dispatch for one JSON-RPC message: lifecycle methods, tools/list and tools/call."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from emdash.actor import Actor
from emdash.errors import EmDashError, InsufficientPermissions, InsufficientScope, ValidationError
from emdash.models import AuditLog
from emdash.permissions import require
from emdash.text import PROBLEM, find_bad_text, is_bad_text_db_error, scrub
from mcp_endpoint import jsonrpc, registry, versions
from mcp_endpoint.instructions import INSTRUCTIONS
from mcp_endpoint.jsonrpc import INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, Message, RpcError

log = logging.getLogger("emdash.mcp")

SERVER_NAME = "emdash"
SERVER_TITLE = "EmDash CMS"
CAPABILITIES = {"tools": {"listChanged": False}}
TOOLS_TTL_MS = 5 * 60 * 1000  # the list only changes with a deploy


def server_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("emdash-django")
    except PackageNotFoundError:
        return "0.0.0"


SERVER_INFO = {"name": SERVER_NAME, "title": SERVER_TITLE, "version": server_version()}


@dataclass
class Context:
    actor: Actor
    version: str  # negotiated for this request (header, or default)
    trace_id: str
    client_name: str = ""
    audit: list[AuditLog] = field(default_factory=list)


class InternalError(Exception):
    """An unexpected failure inside a handler; the view answers 500 with the trace id."""


def _initialize(params: dict[str, Any], ctx: Context) -> dict[str, Any]:
    requested = params.get("protocolVersion")
    chosen = requested if requested in versions.HANDSHAKE else versions.NEWEST_HANDSHAKE
    return {
        "protocolVersion": chosen,
        "capabilities": CAPABILITIES,
        "serverInfo": SERVER_INFO,
        "instructions": INSTRUCTIONS,
    }


def _discover(params: dict[str, Any], ctx: Context) -> dict[str, Any]:
    return {
        "supportedVersions": list(versions.SUPPORTED),
        "capabilities": CAPABILITIES,
        "instructions": INSTRUCTIONS,
        "ttlMs": 0,
        "cacheScope": "private",
        "_meta": {"io.modelcontextprotocol/serverInfo": SERVER_INFO},
    }


def _ping(params: dict[str, Any], ctx: Context) -> dict[str, Any]:
    return {}


def _tools_list(params: dict[str, Any], ctx: Context) -> dict[str, Any]:
    cursor = params.get("cursor")
    if cursor is not None:
        # One page holds every tool, so no cursor we hand out exists; anything else is invalid.
        raise RpcError(INVALID_PARAMS, "Invalid params: unknown cursor")
    body: dict[str, Any] = {"tools": registry.definitions()}
    if versions.is_modern(ctx.version):
        body.update(ttlMs=TOOLS_TTL_MS, cacheScope="public")
    return body


def tool_error(error: EmDashError, trace_id: str) -> dict[str, Any]:
    meta: dict[str, Any] = {"code": error.code, "traceId": trace_id}
    if error.details:
        meta["details"] = error.details
    return {"content": [{"type": "text", "text": error.message}], "isError": True, "_meta": meta}


def _audit(ctx: Context, action: str, outcome: str, started: float) -> None:
    ctx.audit.append(
        AuditLog(
            user=ctx.actor.user,
            token_ref=str(ctx.actor.token_id or ""),
            client_id=scrub(ctx.client_name[:200]),
            source="mcp",
            action=scrub(action[:100]),
            outcome=outcome,
            duration_ms=round((time.perf_counter() - started) * 1000, 3),
            trace_id=ctx.trace_id,
        )
    )


def _permission_error(exc: InsufficientScope | InsufficientPermissions) -> RpcError:
    data: dict[str, Any] = {"code": exc.code}
    if isinstance(exc, InsufficientScope):
        data["requiredScope"] = exc.required_scope
    return RpcError(INVALID_REQUEST, exc.message, data)


def _tools_call(params: dict[str, Any], ctx: Context) -> dict[str, Any]:
    started = time.perf_counter()
    name = params.get("name")
    if isinstance(name, str) and find_bad_text(name) is not None:
        raise RpcError(INVALID_PARAMS, f"Invalid params: name {PROBLEM}")
    tool = registry.get(name)
    if tool is None:
        _audit(ctx, name if isinstance(name, str) else "tools/call", "UNKNOWN_TOOL", started)
        raise RpcError(INVALID_PARAMS, f"Unknown tool: {name}" if isinstance(name, str) else "Invalid params: name")
    arguments = params.get("arguments")
    arguments = {} if arguments is None else arguments
    if not isinstance(arguments, dict):
        _audit(ctx, tool.name, "INVALID_PARAMS", started)
        raise RpcError(INVALID_PARAMS, "Invalid params: arguments must be an object")
    outcome = "INTERNAL_ERROR"
    try:
        require(ctx.actor, tool.perm)
        problems = tool.argument_problems(arguments)
        if (bad := find_bad_text(arguments)) is not None:
            problems = {**problems, bad: PROBLEM}
        if problems:
            raise ValidationError.for_fields(problems, prefix="Invalid arguments")
        payload = tool.handler(ctx.actor, arguments)
        result: dict[str, Any] = {
            "content": [{"type": "text", "text": jsonrpc.dumps(payload).decode()}],
            "isError": False,
            "_meta": {"traceId": ctx.trace_id},
        }
        if tool.output_schema is not None and versions.structured_output(ctx.version):
            result["structuredContent"] = payload
        outcome = "ok"
        return result
    except (InsufficientScope, InsufficientPermissions) as exc:
        outcome = exc.code
        raise _permission_error(exc) from None
    except EmDashError as exc:
        outcome = exc.code
        return tool_error(exc, ctx.trace_id)
    except Exception as exc:
        if is_bad_text_db_error(exc):  # slipped past the argument check: still the caller's input
            outcome = ValidationError.code
            return tool_error(ValidationError(f"Invalid arguments: {PROBLEM}"), ctx.trace_id)
        log.exception("tool %s failed (trace %s)", tool.name, ctx.trace_id)
        raise InternalError(ctx.trace_id) from exc
    finally:
        _audit(ctx, tool.name, outcome, started)


METHODS: dict[str, Callable[[dict[str, Any], Context], dict[str, Any]]] = {
    "initialize": _initialize,
    "ping": _ping,
    "tools/list": _tools_list,
    "tools/call": _tools_call,
    "server/discover": _discover,
}


def handle(message: Message, ctx: Context) -> dict[str, Any] | None:
    """The response for one message (None for notifications and client responses)."""
    if message.kind != "request":
        return None
    method = METHODS.get(message.method)
    if method is None or (message.method == "server/discover" and not versions.is_modern(ctx.version)):
        return jsonrpc.error(message.id, METHOD_NOT_FOUND, f"Method not found: {message.method}")
    if message.method != "tools/call" and (bad := find_bad_text(message.params)) is not None:
        return jsonrpc.error(message.id, INVALID_PARAMS, f"Invalid params: {scrub(bad) or 'params'} {PROBLEM}")
    try:
        result = method(message.params or {}, ctx)
    except RpcError as exc:
        return jsonrpc.error(message.id, exc.code, exc.message, exc.data)
    except InternalError:
        raise
    except Exception as exc:  # any method, not only tools: the view answers 500 with the trace id
        log.exception("method %s failed (trace %s)", message.method, ctx.trace_id)
        raise InternalError(ctx.trace_id) from exc
    if versions.is_modern(ctx.version):
        result.setdefault("resultType", "complete")
    return jsonrpc.result(message.id, result)
