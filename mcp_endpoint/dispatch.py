"""Method dispatch for one JSON-RPC message: lifecycle methods, tools/list and tools/call, tasks, and (from
2025-06-18) resources, prompts and completions."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

from audit import record as audit
from audit.rows import Row
from emdash.actor import Actor
from emdash.call import Call
from emdash.errors import EmDashError, InsufficientPermissions, InsufficientScope, ValidationError
from emdash.operations import run_operation
from emdash.text import PROBLEM, find_bad_text, is_bad_text_db_error, scrub
from emdash.tracing import unexpected
from mcp_endpoint import completions, hints, jsonrpc, prompts, registry, resources, task_ext, task_methods, versions
from mcp_endpoint.instructions import INSTRUCTIONS
from mcp_endpoint.jsonrpc import INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, Message, RpcError

RESOURCE_NOT_FOUND = -32002  # MCP before 2026-07-28

SERVER_NAME = "emdash"
SERVER_TITLE = "EmDash CMS"
CAPABILITIES = {"tools": {"listChanged": False}}
# From 2025-06-18 (SPEC 10): resources (no subscriptions: the transport is stateless), prompts, completions.
RESOURCE_CAPABILITIES = {"resources": {"listChanged": False}, "prompts": {"listChanged": False}, "completions": {}}


def capabilities_for(version: str) -> dict[str, Any]:
    return {**CAPABILITIES, **RESOURCE_CAPABILITIES} if versions.serves_resources(version) else CAPABILITIES


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
    call: Call  # who, through which door, from which program (the clientInfo of each message may rename it)
    version: str  # negotiated for this request (header, or default)
    audit: list[Row] = field(default_factory=list)  # rows written off the request path (the door's batch)

    @property
    def actor(self) -> Actor:
        return self.call.actor

    @property
    def trace_id(self) -> str:
        return self.call.trace_id

    @property
    def client_name(self) -> str:
        return self.call.client


class InternalError(Exception):
    """An unexpected failure inside a handler; the view answers 500 with the trace id."""


def _initialize(params: dict[str, Any], ctx: Context) -> dict[str, Any]:
    requested = params.get("protocolVersion")
    chosen = requested if requested in versions.HANDSHAKE else versions.NEWEST_HANDSHAKE
    return {
        "protocolVersion": chosen,
        "capabilities": task_methods.capabilities(capabilities_for(chosen), chosen),
        "serverInfo": SERVER_INFO,
        "instructions": INSTRUCTIONS,
    }


def _discover(params: dict[str, Any], ctx: Context) -> dict[str, Any]:
    return {
        "supportedVersions": list(versions.SUPPORTED),
        "capabilities": task_ext.capabilities(capabilities_for(versions.MODERN)),
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
    body: dict[str, Any] = {"tools": encoded_tool_definitions(ctx.version)}
    if versions.is_modern(ctx.version):
        body.update(ttlMs=TOOLS_TTL_MS, cacheScope="public")
    return body


@functools.cache
def tool_definitions(version: str) -> list[dict[str, Any]]:
    """tools/list for one protocol version, built once per process (only supported versions get here).

    outputSchema is listed only where tools/call returns structuredContent: a client validating results
    against it (the TypeScript SDK does) would otherwise reject every pre-2025-06-18 result. From 2025-06-18
    the tool has a top-level title, so annotations.title (its older place) is not repeated.
    """
    tools = registry.definitions()
    if not versions.structured_output(version):
        tools = [{key: value for key, value in tool.items() if key != "outputSchema"} for tool in tools]
    else:
        tools = [{**tool, "annotations": _untitled(tool["annotations"])} for tool in tools]
    return task_methods.tool_definitions(tools, version)  # + execution.taskSupport from 2025-11-25


def _untitled(annotations: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in annotations.items() if key != "title"}


@functools.cache
def encoded_tool_definitions(version: str) -> orjson.Fragment:
    """The tools/list array as JSON bytes, encoded once per process and protocol version; the door's
    encoder (orjson) copies them into the response as they are."""
    return orjson.Fragment(orjson.dumps(tool_definitions(version)))


def tool_error(error: EmDashError, trace_id: str) -> dict[str, Any]:
    meta: dict[str, Any] = {"code": error.code, "traceId": trace_id}
    if error.details:
        meta["details"] = error.details
    return {"content": [{"type": "text", "text": error.message}], "isError": True, "_meta": meta}


def _audit(ctx: Context, action: str, outcome: str, started: float) -> None:
    audit.record(ctx.call, action, outcome, started=started, later=ctx.audit.append)


def _permission_error(exc: InsufficientScope | InsufficientPermissions) -> RpcError:
    data: dict[str, Any] = {"code": exc.code}
    if isinstance(exc, InsufficientScope):
        data["requiredScope"] = exc.required_scope
    return RpcError(INVALID_REQUEST, exc.message, data)


def _unknown_tool(name: Any) -> str:
    if not isinstance(name, str):
        return 'Invalid params: "name" must be the name of a tool (call tools/list to see them)'
    return f"Unknown tool: {name[:100]}. Call tools/list to see the available tools."


def _tools_call(params: dict[str, Any], ctx: Context) -> dict[str, Any]:
    started = time.perf_counter()
    name = params.get("name")
    if isinstance(name, str) and find_bad_text(name) is not None:
        raise RpcError(INVALID_PARAMS, f"Invalid params: name {PROBLEM}")
    tool = registry.get(name)
    if tool is None:
        _audit(ctx, name if isinstance(name, str) else "tools/call", "UNKNOWN_TOOL", started)
        raise RpcError(INVALID_PARAMS, _unknown_tool(name))
    arguments = params.get("arguments")
    arguments = {} if arguments is None else arguments
    if not isinstance(arguments, dict):
        _audit(ctx, tool.name, "INVALID_PARAMS", started)
        raise RpcError(INVALID_PARAMS, "Invalid params: arguments must be an object")
    return call_tool(tool, arguments, ctx)


def call_tool(tool: registry.Tool, arguments: dict[str, Any], ctx: Context) -> dict[str, Any]:
    """One tool call as a ``tools/call`` result: the MCP door, and the task worker (``ctx.call.door``).

    Tool errors come back as results (``isError``); refusals raise :class:`RpcError`; anything unexpected
    raises :class:`InternalError`. Audit rows land in ``ctx.audit`` (a write's own row is already in the
    database, written with the write); the caller saves them.
    """
    try:
        payload = run_operation(tool.operation, ctx.call, arguments, later=ctx.audit.append)
        result: dict[str, Any] = {
            "content": [{"type": "text", "text": jsonrpc.dumps(payload).decode()}],
            "isError": False,
            "_meta": {"traceId": ctx.trace_id},
        }
        if tool.output_schema is not None and versions.structured_output(ctx.version):
            result["structuredContent"] = payload
        return result
    except (InsufficientScope, InsufficientPermissions) as exc:
        raise _permission_error(exc) from None
    except EmDashError as exc:
        return tool_error(hints.enrich(exc, ctx.actor), ctx.trace_id)
    except Exception as exc:
        if is_bad_text_db_error(exc):  # slipped past the argument check: still the caller's input
            return tool_error(ValidationError(f"Invalid arguments: {PROBLEM}"), ctx.trace_id)
        unexpected(exc, f"tool {tool.name}")
        raise InternalError(ctx.trace_id) from exc


def _tools_call_or_task(params: dict[str, Any], ctx: Context) -> dict[str, Any]:
    """Whether a call becomes a task: in 2025-11-25 the ``task`` param asks for one (earlier versions ignore
    it); in 2026-07-28 the server decides, and makes one whenever the client declared the tasks extension."""
    if versions.is_modern(ctx.version):
        if task_ext.declared(params):
            return task_ext.create(params, ctx, permission_error=_permission_error, audit=_audit)
    elif "task" in params and versions.supports_tasks(ctx.version):
        return task_methods.create(params, ctx, permission_error=_permission_error, audit=_audit)
    return _tools_call(params, ctx)


def _tasks_get(params: dict[str, Any], ctx: Context) -> dict[str, Any]:
    if versions.is_modern(ctx.version):
        return task_ext.get(params, ctx, audit=_audit)
    return task_methods.get(params, ctx)


def _tasks_result(params: dict[str, Any], ctx: Context) -> dict[str, Any]:
    return task_methods.result(params, ctx, audit=_audit)


def _tasks_cancel(params: dict[str, Any], ctx: Context) -> dict[str, Any]:
    if versions.is_modern(ctx.version):
        return task_ext.cancel(params, ctx, audit=_audit)
    return task_methods.cancel(params, ctx, audit=_audit)


def _listing(params: dict[str, Any], ctx: Context, key: str, items: list[dict[str, Any]]) -> dict[str, Any]:
    """One page holds every entry (as tools/list): a cursor can only be one we never handed out."""
    if params.get("cursor") is not None:
        raise RpcError(INVALID_PARAMS, "Invalid params: unknown cursor")
    body: dict[str, Any] = {key: items}
    if versions.is_modern(ctx.version):
        body.update(ttlMs=TOOLS_TTL_MS, cacheScope="public")  # the same for every caller; reads are checked
    return body


def _checked(ctx: Context, action: str, target: str, work: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """A read of site data (a resource, a prompt): permission refusals as for tools/call, and an audit row."""
    started = time.perf_counter()
    try:
        result = work()
    except (InsufficientScope, InsufficientPermissions) as exc:
        _audit_target(ctx, action, exc.code, target, started)
        raise _permission_error(exc) from None
    except resources.ResourceNotFound as exc:
        _audit_target(ctx, action, "NOT_FOUND", target, started)
        # SEP-2164: -32602 from 2026-07-28; the earlier revisions' -32002 before it.
        code = INVALID_PARAMS if versions.is_modern(ctx.version) else RESOURCE_NOT_FOUND
        raise RpcError(code, exc.message, {"uri": exc.uri}) from None
    except (prompts.PromptError, completions.CompletionError) as exc:
        _audit_target(ctx, action, "INVALID_PARAMS", target, started)
        raise RpcError(INVALID_PARAMS, str(exc)) from None
    _audit_target(ctx, action, "ok", target, started)
    return result


def _audit_target(ctx: Context, action: str, outcome: str, target: str, started: float) -> None:
    audit.record(ctx.call, action, outcome, target[:200], started=started, later=ctx.audit.append)


def _string_param(params: dict[str, Any], name: str) -> str:
    value = params.get(name)
    if not isinstance(value, str) or not value:
        raise RpcError(INVALID_PARAMS, f'Invalid params: "{name}" must be a non-empty string')
    return value


def _resources_read(params: dict[str, Any], ctx: Context) -> dict[str, Any]:
    uri = _string_param(params, "uri")
    result = _checked(ctx, "resources/read", uri, lambda: resources.read(uri, ctx.actor))
    if versions.is_modern(ctx.version):
        result.update(ttlMs=0, cacheScope="private")  # what a caller may read depends on who calls
    return result


def _prompts_get(params: dict[str, Any], ctx: Context) -> dict[str, Any]:
    name = _string_param(params, "name")
    return _checked(ctx, "prompts/get", name, lambda: prompts.get(name, params.get("arguments"), ctx.actor))


def _complete(params: dict[str, Any], ctx: Context) -> dict[str, Any]:
    try:
        return completions.complete(params, ctx.actor)
    except completions.CompletionError as exc:
        raise RpcError(INVALID_PARAMS, str(exc)) from None


METHODS: dict[str, Callable[[dict[str, Any], Context], dict[str, Any]]] = {
    "initialize": _initialize,
    "ping": _ping,
    "tools/list": _tools_list,
    "tools/call": _tools_call_or_task,
    "server/discover": _discover,
    "tasks/get": _tasks_get,
    "tasks/result": _tasks_result,
    "tasks/list": task_methods.list_tasks,
    "tasks/cancel": _tasks_cancel,
    "tasks/update": task_ext.update,
    "resources/list": lambda params, ctx: _listing(params, ctx, "resources", resources.listed()),
    "resources/templates/list": lambda params, ctx: _listing(
        params, ctx, "resourceTemplates", list(resources.TEMPLATES)
    ),
    "resources/read": _resources_read,
    "prompts/list": lambda params, ctx: _listing(params, ctx, "prompts", prompts.listed()),
    "prompts/get": _prompts_get,
    "completion/complete": _complete,
}


def handle(message: Message, ctx: Context) -> dict[str, Any] | None:
    """The response for one message (None for notifications and client responses)."""
    if message.kind != "request":
        return None
    method = METHODS.get(message.method)
    if method is None or not versions.method_exists(message.method, ctx.version):
        return jsonrpc.error(message.id, METHOD_NOT_FOUND, f"Method not found: {scrub(message.method[:100])}")
    if message.method != "tools/call" and (bad := find_bad_text(message.params)) is not None:
        return jsonrpc.error(message.id, INVALID_PARAMS, f"Invalid params: {scrub(bad) or 'params'} {PROBLEM}")
    try:
        result = method(message.params or {}, ctx)
    except RpcError as exc:
        return jsonrpc.error(message.id, exc.code, exc.message, exc.data)
    except InternalError:
        raise
    except Exception as exc:  # any method, not only tools: the view answers 500 with the trace id
        unexpected(exc, f"method {message.method}")
        raise InternalError(ctx.trace_id) from exc
    if versions.is_modern(ctx.version):
        result.setdefault("resultType", "complete")
    return jsonrpc.result(message.id, result)
