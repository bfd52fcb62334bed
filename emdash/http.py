"""JSON responses for the REST-style views: one envelope for success and one for errors.

Errors look like ``{"error": {"code": "NOT_FOUND", "message": "...", "details": {...}}}`` with the
HTTP status of the domain error, so REST and MCP report the same codes.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

import orjson
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.views.decorators.csrf import csrf_exempt

from accounts.auth import BadToken, request_actor
from accounts.discovery import insufficient_scope_challenge, resource_metadata_url
from emdash import json_input
from emdash.actor import Actor
from emdash.errors import EmDashError, InsufficientScope, ValidationError
from emdash.text import PROBLEM, find_bad_text, is_bad_text_db_error
from emdash.tracing import unexpected

View = Callable[..., HttpResponse]


def internal_error(trace_id: str) -> dict[str, Any]:
    """The JSON doors' answer to an unexpected error: its trace id and nothing else (the log has the rest)."""
    return {"error": {"code": "INTERNAL_ERROR", "message": "Internal error", "traceId": trace_id}}


def json_response(body: Any, status: int = 200) -> HttpResponse:
    return HttpResponse(orjson.dumps(body), status=status, content_type="application/json")


def error_response(error: EmDashError) -> HttpResponse:
    return json_response({"error": error.as_dict()}, error.status)


def json_object(raw: bytes, refuse: Callable[[str], Exception], *, not_json: str, not_object: str) -> dict[str, Any]:
    """The JSON object in a request body (an empty body is ``{}``); anything else raises ``refuse(message)``,
    so each door keeps its own error type."""
    try:
        body = json_input.loads(raw or b"{}")
    except json_input.BadJSON as exc:
        raise refuse(not_json if exc.reason == "invalid JSON" else f"{not_json} ({exc.reason})") from None
    if not isinstance(body, dict):
        raise refuse(not_object)
    return body


def json_body(request: HttpRequest) -> dict[str, Any]:
    """The request's JSON object body; VALIDATION_ERROR when it is not one."""
    body = json_object(
        request.body,
        ValidationError,
        not_json="The request body must be valid JSON",
        not_object="The request body must be a JSON object",
    )
    if (where := find_bad_text(body)) is not None:
        raise ValidationError.for_fields({where: PROBLEM})
    return body


def api_view(view: Callable[..., Any]) -> View:
    """Run ``view(request, actor, **kwargs)``; turn domain errors into the JSON envelope, bad tokens into 401
    with the OAuth challenge, and anything unexpected into a 500 with a trace id (details only in the log)."""

    @wraps(view)
    def wrapper(request: HttpRequest, **kwargs: Any) -> HttpResponse:
        try:
            actor: Actor = request_actor(request)
        except BadToken:
            response = json_response(
                {"error": {"code": "UNAUTHORIZED", "message": "The bearer token is invalid, expired or revoked"}}, 401
            )
            response["WWW-Authenticate"] = (
                f'Bearer resource_metadata="{resource_metadata_url(request)}", error="invalid_token"'
            )
            return response
        if request.method not in ("GET", "HEAD", "OPTIONS") and not actor.is_anonymous and actor.scopes is None:
            # A cookie-authenticated write: enforce CSRF (token callers are exempt, they carry no cookie).
            rejected = _csrf.process_view(request, view, (), {})
            if rejected is not None:
                return json_response({"error": {"code": "CSRF_FAILED", "message": "CSRF check failed"}}, 403)
        try:
            result = view(request, actor, **kwargs)
        except EmDashError as exc:
            response = error_response(exc)
            if isinstance(exc, InsufficientScope):
                response["WWW-Authenticate"] = insufficient_scope_challenge(request, exc.required_scope)
            return response
        except Exception as exc:
            if is_bad_text_db_error(exc):
                return error_response(ValidationError(f"Invalid input: {PROBLEM}"))
            return json_response(internal_error(unexpected(exc, f"{request.method} {request.path}")), 500)
        return result if isinstance(result, HttpResponse) else json_response(result)

    return csrf_exempt(wrapper)


_csrf = CsrfViewMiddleware(lambda request: HttpResponse())
