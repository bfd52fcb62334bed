"""One exception handler for the REST API: every failure becomes ``{"error": {code, message, details?}}``.

Domain errors keep the codes and statuses MCP reports; DRF's own exceptions get stable codes; anything
unexpected is logged with a trace id and answered with a bare 500 (no stack traces, SQL or tokens).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response

from accounts.discovery import insufficient_scope_challenge
from api.parsers import BadJSONBody
from emdash.edge import limits
from emdash.errors import EmDashError, InsufficientScope
from emdash.http import internal_error
from emdash.text import PROBLEM, is_bad_text_db_error
from emdash.tracing import unexpected

# DRF exception class -> our stable code.
DRF_CODES: list[tuple[type[exceptions.APIException], str]] = [
    (exceptions.AuthenticationFailed, "UNAUTHORIZED"),
    (exceptions.NotAuthenticated, "UNAUTHORIZED"),
    (exceptions.MethodNotAllowed, "METHOD_NOT_ALLOWED"),
    (exceptions.ParseError, "VALIDATION_ERROR"),
    (exceptions.UnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE"),
    (exceptions.NotAcceptable, "NOT_ACCEPTABLE"),
    (exceptions.Throttled, "RATE_LIMITED"),
    (exceptions.NotFound, "NOT_FOUND"),
    (exceptions.ValidationError, "VALIDATION_ERROR"),
    (exceptions.PermissionDenied, "FORBIDDEN"),
]


def envelope(
    code: str, message: str, status: int, details: Any = None, headers: dict[str, str] | None = None
) -> Response:
    body: dict[str, Any] = {"code": code, "message": message}
    if details:
        body["details"] = details
    return Response({"error": body}, status=status, headers=headers)


def _drf_error(exc: exceptions.APIException) -> Response:
    code = next((c for cls, c in DRF_CODES if isinstance(exc, cls)), "ERROR")
    message = str(exc.detail) if isinstance(exc.detail, str) else "The request is not valid"
    if isinstance(exc, exceptions.PermissionDenied) and message.startswith("CSRF Failed"):
        code, message = "CSRF_FAILED", "CSRF check failed: send the X-CSRFToken header with session requests"
    if isinstance(exc, exceptions.ParseError) and not isinstance(exc, BadJSONBody):
        message = "The request body could not be parsed (send a JSON object)"
    headers: dict[str, str] = {}
    if auth_header := getattr(exc, "auth_header", None):
        if isinstance(exc, exceptions.AuthenticationFailed):
            auth_header += ', error="invalid_token"'
        headers["WWW-Authenticate"] = auth_header
    if isinstance(exc, exceptions.Throttled) and exc.wait:
        headers["Retry-After"] = str(int(exc.wait))
    details = exc.detail if isinstance(exc, exceptions.ValidationError) else None
    return envelope(code, message, exc.status_code, details, headers)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    if isinstance(exc, EmDashError):
        headers = None
        if isinstance(exc, InsufficientScope) and context.get("request") is not None:
            # Step-up authorization as on the MCP endpoint (SPEC 5.3): the client learns which scope to ask for.
            headers = {"WWW-Authenticate": insufficient_scope_challenge(context["request"], exc.required_scope)}
        return Response({"error": exc.as_dict()}, status=exc.status, headers=headers)
    if isinstance(exc, Http404):
        return envelope("NOT_FOUND", "Not found", 404)
    if isinstance(exc, DjangoPermissionDenied):
        return envelope("FORBIDDEN", "Forbidden", 403)
    if isinstance(exc, exceptions.APIException):
        return _drf_error(exc)
    if isinstance(exc, RequestDataTooBig):  # Django's own size check (DATA_UPLOAD_MAX_MEMORY_SIZE)
        limit = limits.max_body()
        return envelope("PAYLOAD_TOO_LARGE", f"Request body too large (limit {limit} bytes)", 413, {"maxSize": limit})
    if is_bad_text_db_error(exc):  # a NUL or lone surrogate that slipped past the parser
        return envelope("VALIDATION_ERROR", f"Invalid input: {PROBLEM}", 400)
    request = context.get("request")
    where = f"{request.method} {request.path}" if request is not None else "API call"
    return Response(internal_error(unexpected(exc, where)), status=500)
