"""The MCP front door: ``POST /_emdash/api/mcp``, stateless Streamable HTTP with JSON responses.

The view reads as a list of steps: method → origin → content negotiation → protocol version → body →
authenticate → parse → dispatch → encode. An unsupported protocol version is answered once the body is read,
so the error can carry the request's id. Every early answer drains the request body first, so a
keep-alive connection stays usable.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt

from accounts.auth import bearer_token, origin_allowed, resolve_bearer, resource_url, site_origin
from audit import writer as audit_writer
from emdash.actor import Actor
from emdash.call import Call
from emdash.edge import limits
from emdash.origin import serving
from emdash.tracing import unexpected
from mcp_endpoint import challenges, dispatch, envelope, jsonrpc, task_ext, versions
from mcp_endpoint.jsonrpc import (
    INTERNAL_ERROR,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    SERVER_ERROR,
    RpcError,
)

UNSUPPORTED_VERSION = -32022


def _drain(request: HttpRequest) -> None:
    try:
        while request.read(65536):
            pass
    except Exception:  # a broken client stream is not our error
        pass


def _json(body: Any, status: int = 200, **headers: str) -> HttpResponse:
    content = jsonrpc.dumps(body)
    response = HttpResponse(content, status=status, content_type="application/json")
    response["Content-Length"] = str(len(content))  # sent in one piece, not chunked (one send less per answer)
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
    message = "Unauthorized: a valid bearer token is required"
    if token_sent:
        message = "Unauthorized: the bearer token is invalid, expired or revoked"
    return _rpc_error(401, -32001, message, WWW_Authenticate=challenges.unauthorized(request, token_sent))


def _authenticate(request: HttpRequest) -> Actor | HttpResponse:
    token = bearer_token(request)
    if token is not None:
        # A bad token never falls back to the session cookie; OAuth tokens must be bound to this URL.
        actor = resolve_bearer(token, lambda: resource_url(request))
        return actor if actor is not None else _unauthorized(request, token_sent=True)
    origin = request.META.get("HTTP_ORIGIN")
    user = getattr(request, "user", None)
    if origin and user is not None and user.is_authenticated and origin_allowed(request, origin):
        return Actor.for_user(user)
    return _unauthorized(request, token_sent=False)


def _protocol_version(request: HttpRequest) -> str | None:
    """The request's protocol version; None when the header names one we do not speak."""
    header = request.META.get("HTTP_MCP_PROTOCOL_VERSION")
    if header is None:
        return versions.DEFAULT
    header = header.strip()
    return header if header in versions.SUPPORTED else None


def _unsupported_version(request: HttpRequest, body: bytes) -> HttpResponse:
    """400 -32022, carrying the request's id when the body has one (clients match errors by id)."""
    requested = request.META.get("HTTP_MCP_PROTOCOL_VERSION", "").strip()[:40]
    try:
        msg_id = jsonrpc.request_id(jsonrpc.parse(body))
    except jsonrpc.ParseError:
        msg_id = None
    return _rpc_error(
        400,
        UNSUPPORTED_VERSION,
        f"Unsupported protocol version: {requested}",
        msg_id,
        data={"supported": list(versions.SUPPORTED), "requested": requested},
    )


def _check_envelope(request: HttpRequest, message: jsonrpc.Message, ctx: dispatch.Context) -> None:
    """Headers and _meta of one request must agree (2026-07-28: required; earlier: when both are sent)."""
    if message.kind != "request":
        return
    if versions.is_modern(ctx.version):
        envelope.check_modern(request.META, message)
        name, version = envelope.client_info(message)
        if name:  # the program's own name and version, in place of its User-Agent
            ctx.call = replace(ctx.call, client=name, client_version=version)
    else:
        envelope.check_version_agreement(request.META, message)


def _answer_one(raw: Any, ctx: dispatch.Context, request: HttpRequest) -> dict[str, Any] | None:
    try:
        message = jsonrpc.classify(raw)
    except RpcError as exc:
        return jsonrpc.error(jsonrpc.request_id(raw), exc.code, exc.message, exc.data)
    _check_envelope(request, message, ctx)
    return dispatch.handle(message, ctx)


def _answer_response(answer: dict[str, Any], ctx: dispatch.Context, request: HttpRequest) -> HttpResponse:
    """One response; its HTTP status follows the error: 403 + challenge for a missing scope (step-up
    authorization), 404 for an unknown or removed method in 2026-07-28, 400 for a missing client capability
    (tasks extension), 200 otherwise."""
    error = answer.get("error")
    if isinstance(error, dict):
        data = error.get("data")
        if isinstance(data, dict) and data.get("code") == "INSUFFICIENT_SCOPE":
            challenge = challenges.insufficient_scope(request, str(data.get("requiredScope", "")))
            return _json(answer, 403, WWW_Authenticate=challenge)
        if error.get("code") == METHOD_NOT_FOUND and versions.is_modern(ctx.version):
            return _json(answer, 404)
        if error.get("code") == task_ext.MISSING_CAPABILITY:  # 2026-07-28 only, like the SDKs' servers
            return _json(answer, 400)
    return _json(answer)


@csrf_exempt
def mcp(request: HttpRequest) -> HttpResponse:
    origin = request.META.get("HTTP_ORIGIN")
    if request.method == "OPTIONS":  # CORS preflights are answered by emdash.edge.cors before they get here
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
    except Exception as exc:  # outside any tool (auth lookup, audit, encoding...): still a JSON-RPC answer
        trace_id = unexpected(exc, "MCP request")
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
    limit = limits.limit_for(request.path_info)  # the one decision the body-limit layers also make
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    body = b"" if declared > limit else request.read(limit + 1)
    if declared > limit or len(body) > limit:
        _drain(request)
        return _rpc_error(413, INVALID_REQUEST, f"Request body too large (limit {limit} bytes)")
    if version is None:
        return _unsupported_version(request, body)
    actor = _authenticate(request)
    if isinstance(actor, HttpResponse):
        return actor
    try:
        payload = jsonrpc.parse(body)
    except jsonrpc.ParseError as exc:
        return _rpc_error(400, PARSE_ERROR, str(exc))
    # Handshake-era clients name themselves only in initialize, and we keep no session: fall back to the
    # User-Agent so the audit log still says which program called. 2026-era requests carry clientInfo.
    ctx = dispatch.Context(Call.from_user_agent("mcp", actor, request.META.get("HTTP_USER_AGENT", "")[:200]), version)
    try:
        with serving(lambda: site_origin(request)):  # absolute URLs in answers (media_upload_url's uploadUrl)
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
            except RpcError as exc:  # one bad member does not sink the batch
                answer = jsonrpc.error(jsonrpc.request_id(raw), exc.code, exc.message, exc.data)
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
    return _answer_response(answer, ctx, request) if answer is not None else HttpResponse(status=202)


def _write_audit(ctx: dispatch.Context) -> None:
    """Reads' and failed calls' rows go to the background writer: no write transaction on a read's path."""
    try:
        audit_writer.submit(ctx.audit)
    except Exception as exc:
        unexpected(exc, "writing the audit log")
