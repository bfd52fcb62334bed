"""The MCP front door: ``POST /_emdash/api/mcp``, stateless Streamable HTTP with JSON responses.

The view reads as a list of steps: method → origin → content negotiation → protocol version → body →
authenticate → parse → dispatch → encode. Every early answer drains the request body first, so a
keep-alive connection stays usable.
"""

from __future__ import annotations

import base64
import logging
from typing import Any

from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt

from emdash.actor import Actor
from emdash.auth import bearer_token, origin_allowed, resolve_bearer, resource_url
from emdash.conf import emdash_settings
from emdash.discovery import resource_metadata_url
from emdash.models import AuditLog
from emdash.tracing import current_trace_id, log_exception
from mcp_endpoint import dispatch, jsonrpc, versions
from mcp_endpoint.jsonrpc import INTERNAL_ERROR, INVALID_REQUEST, PARSE_ERROR, SERVER_ERROR, RpcError

log = logging.getLogger("emdash.mcp")

HEADER_MISMATCH = -32020
UNSUPPORTED_VERSION = -32022


def _drain(request: HttpRequest) -> None:
    try:
        while request.read(65536):
            pass
    except Exception:  # a broken client stream is not our error
        pass


def _json(body: Any, status: int = 200, **headers: str) -> HttpResponse:
    response = HttpResponse(jsonrpc.dumps(body), status=status, content_type="application/json")
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


def _rpc_error(
    status: int, code: int, message: str, msg_id: Any = None, data: Any = None, **headers: str
) -> HttpResponse:
    return _json(jsonrpc.error(msg_id, code, message, data), status, **headers)


def _accepts_json(accept: str) -> bool:
    """A missing Accept is fine; otherwise some range covering application/json must have q > 0."""
    if not accept.strip():
        return True
    for item in accept.lower().split(","):
        media, *params = (part.strip() for part in item.split(";"))
        if media not in ("application/json", "application/*", "*/*"):
            continue
        quality = next((p[2:] for p in params if p.startswith("q=")), "1")
        try:
            if float(quality) > 0:
                return True
        except ValueError:
            continue
    return False


def _unauthorized(request: HttpRequest, token_sent: bool) -> HttpResponse:
    challenge = f'Bearer resource_metadata="{resource_metadata_url(request)}"'
    message = "Unauthorized: a valid bearer token is required"
    if token_sent:
        challenge += ', error="invalid_token", error_description="The access token is invalid, expired or revoked"'
        message = "Unauthorized: the bearer token is invalid, expired or revoked"
    return _rpc_error(401, -32001, message, WWW_Authenticate=challenge)


def _authenticate(request: HttpRequest) -> Actor | HttpResponse:
    token = bearer_token(request)
    if token is not None:
        # A bad token never falls back to the session cookie; OAuth tokens must be bound to this URL.
        actor = resolve_bearer(token, resource_url(request))
        return actor if actor is not None else _unauthorized(request, token_sent=True)
    origin = request.META.get("HTTP_ORIGIN")
    user = getattr(request, "user", None)
    if origin and user is not None and user.is_authenticated and origin_allowed(request, origin):
        return Actor.for_user(user)
    return _unauthorized(request, token_sent=False)


def _protocol_version(request: HttpRequest) -> str | HttpResponse:
    header = request.META.get("HTTP_MCP_PROTOCOL_VERSION")
    if header is None:
        return versions.DEFAULT
    if header not in versions.SUPPORTED:
        return _rpc_error(
            400,
            UNSUPPORTED_VERSION,
            f"Unsupported protocol version: {header[:40]}",
            data={"supported": list(versions.SUPPORTED), "requested": header[:40]},
        )
    return header


def _decode_header(value: str) -> str:
    """Mcp-Name values that are not plain ASCII arrive as =?base64?...?=."""
    if value.startswith("=?base64?") and value.endswith("?="):
        try:
            return base64.b64decode(value[9:-2]).decode()
        except ValueError:
            return value
    return value


def _header_mismatch(request: HttpRequest, message: jsonrpc.Message) -> str | None:
    method = request.META.get("HTTP_MCP_METHOD")
    if method is not None and method != message.method:
        return "Mcp-Method header does not match the request body's method"
    name = request.META.get("HTTP_MCP_NAME")
    if (
        name is not None
        and message.method == "tools/call"
        and _decode_header(name) != (message.params or {}).get("name")
    ):
        return "Mcp-Name header does not match the request body's 'name' parameter"
    return None


def _client_name(message: jsonrpc.Message) -> str:
    meta = (message.params or {}).get("_meta")
    info = meta.get("io.modelcontextprotocol/clientInfo") if isinstance(meta, dict) else None
    name = info.get("name") if isinstance(info, dict) else None
    return name if isinstance(name, str) else ""


def _answer_one(raw: Any, ctx: dispatch.Context, request: HttpRequest) -> dict[str, Any] | None:
    try:
        message = jsonrpc.classify(raw)
    except RpcError as exc:
        return jsonrpc.error(jsonrpc.request_id(raw), exc.code, exc.message, exc.data)
    if versions.is_modern(ctx.version) and message.kind == "request":
        if problem := _header_mismatch(request, message):
            raise RpcError(HEADER_MISMATCH, problem)
        ctx.client_name = _client_name(message) or ctx.client_name
    return dispatch.handle(message, ctx)


@csrf_exempt
def mcp(request: HttpRequest) -> HttpResponse:
    origin = request.META.get("HTTP_ORIGIN")
    if request.method == "OPTIONS":  # CORS preflights are answered by emdash.cors before they get here
        _drain(request)
        refused = bool(origin and not origin_allowed(request, origin))
        return HttpResponse(status=403 if refused else 204, headers={"Allow": "POST, OPTIONS"})
    if request.method != "POST":
        _drain(request)
        return _rpc_error(
            405, SERVER_ERROR, "Method not allowed: this MCP endpoint is stateless; use POST", Allow="POST"
        )
    if origin and not origin_allowed(request, origin):
        _drain(request)
        return _rpc_error(403, SERVER_ERROR, "Forbidden: origin not allowed")
    try:
        return _handle_post(request)
    except Exception:  # outside any tool (auth lookup, audit, encoding...): still a JSON-RPC answer
        trace_id = log_exception(log, "MCP request failed")
        _drain(request)
        return _rpc_error(500, INTERNAL_ERROR, "Internal error", data={"traceId": trace_id})


def _handle_post(request: HttpRequest) -> HttpResponse:
    content_type = request.META.get("CONTENT_TYPE", "").split(";")[0].strip().lower()
    if content_type != "application/json":
        _drain(request)
        return _rpc_error(415, INVALID_REQUEST, "Unsupported Media Type: Content-Type must be application/json")
    if not _accepts_json(request.META.get("HTTP_ACCEPT", "")):
        _drain(request)
        return _rpc_error(406, INVALID_REQUEST, "Not Acceptable: Accept must allow application/json")
    version = _protocol_version(request)
    if isinstance(version, HttpResponse):
        _drain(request)
        return version
    limit = int(emdash_settings.MCP_MAX_BODY)
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    body = b"" if declared > limit else request.read(limit + 1)
    if declared > limit or len(body) > limit:
        _drain(request)
        return _rpc_error(413, INVALID_REQUEST, f"Request body too large (limit {limit} bytes)")
    actor = _authenticate(request)
    if isinstance(actor, HttpResponse):
        return actor
    try:
        payload = jsonrpc.parse(body)
    except jsonrpc.ParseError as exc:
        return _rpc_error(400, PARSE_ERROR, str(exc))
    # Handshake-era clients name themselves only in initialize, and we keep no session: fall back to the
    # User-Agent so the audit log still says which program called. 2026-era requests carry clientInfo.
    ctx = dispatch.Context(
        actor=actor,
        version=version,
        trace_id=current_trace_id(),
        client_name=request.META.get("HTTP_USER_AGENT", "")[:200],
    )
    try:
        return _respond(payload, ctx, request)
    except RpcError as exc:
        return _rpc_error(400, exc.code, exc.message, jsonrpc.request_id(payload), exc.data)
    except dispatch.InternalError:
        return _rpc_error(500, INTERNAL_ERROR, "Internal error", jsonrpc.request_id(payload), {"traceId": ctx.trace_id})
    finally:
        _write_audit(ctx)


def _respond(payload: Any, ctx: dispatch.Context, request: HttpRequest) -> HttpResponse:
    if isinstance(payload, list):
        if ctx.version not in versions.BATCH_VERSIONS:
            return _rpc_error(200, INVALID_REQUEST, "Batch requests are not supported in this protocol version")
        if not payload:
            return _rpc_error(400, INVALID_REQUEST, "Invalid Request: empty batch")
        answers = []
        for raw in payload:
            try:
                answer = _answer_one(raw, ctx, request)
            except dispatch.InternalError:
                answer = jsonrpc.error(
                    jsonrpc.request_id(raw), INTERNAL_ERROR, "Internal error", {"traceId": ctx.trace_id}
                )
            if answer is not None:
                answers.append(answer)
        return _json(answers) if answers else HttpResponse(status=202)
    if not isinstance(payload, dict):
        return _rpc_error(400, INVALID_REQUEST, "Invalid Request: expected a JSON-RPC object")
    answer = _answer_one(payload, ctx, request)
    return _json(answer) if answer is not None else HttpResponse(status=202)


def _write_audit(ctx: dispatch.Context) -> None:
    if not ctx.audit:
        return
    try:
        with transaction.atomic():
            AuditLog.objects.bulk_create(ctx.audit)
    except Exception:
        log_exception(log, "could not write the audit log")
