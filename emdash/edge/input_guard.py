"""Refuse NUL and unpaired surrogates in the path, query string and form fields of every request.

The one place where query and form input is decoded for all doors; JSON bodies are checked by each door's
JSON decoder (MCP dispatch, the REST parser, the OAuth body reader). The refusal takes the door's shape:
OAuth ``invalid_request``, the REST error envelope, a JSON-RPC error on the MCP endpoint, a 400 page elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
from django.conf import settings
from django.core.exceptions import SuspiciousOperation
from django.http import HttpRequest, HttpResponse, UnreadablePostError
from django.http.multipartparser import MultiPartParserError
from django.utils.html import escape

from emdash import doors
from emdash.edge import limits
from emdash.text import PROBLEM, bad_text_message, find_bad_text, has_bad_chars, scrub

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def problem(request: HttpRequest) -> str | None:
    """Where the bad input is ("path", "query.<name>", "form.<name>"), or None."""
    if has_bad_chars(request.path):
        return "path"
    query = request.GET if request.META.get("QUERY_STRING") else None  # no QueryDict built for nothing
    for label, data in (("query", query), ("form", _form(request))):
        if data is None:
            continue
        for key, values in data.lists():
            where = find_bad_text({key: values}, label)
            if where is not None:
                return where.split("[")[0]
    return None


def _form(request: HttpRequest) -> Any:
    if request.method != "POST" or request.content_type not in FORM_TYPES:
        return None
    try:
        parsed = hasattr(request, "_post")  # e.g. by the CSRF check, which reads the token from the form
        if not parsed and not _small(request) and not limits.is_upload(request.path):
            # Over Django's cap and not an upload route: parsing would half-read the stream and raise, and
            # the view could no longer read the body to answer its own 413; let it.
            return None
        if not parsed and request.content_type == "multipart/form-data" and _small(request):
            request.body  # noqa: B018  (kept in memory, so views that read the raw body still can)
        return request.POST
    except (SuspiciousOperation, MultiPartParserError, UnreadablePostError):
        # Too big, too many fields, a broken multipart body: not ours to judge; the view (or the body
        # limit) answers in its door's shape (Django would answer its own HTML 400 page from here).
        return None


def _small(request: HttpRequest) -> bool:
    """Bodies Django would buffer anyway; larger multipart bodies (uploads) are parsed as a stream."""
    length = limits.declared_length(request.META.get("CONTENT_LENGTH"))
    cap = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return length is not None and length > 0 and (cap is None or length <= cap)


def _json(body: Any, status: int = 400) -> HttpResponse:
    return HttpResponse(orjson.dumps(body), status=status, content_type="application/json")


def refusal(request: HttpRequest, where: str) -> HttpResponse:
    message = "Invalid input: " + bad_text_message(where)
    answers = doors.door_for(request.path).answers
    if answers == "oauth":
        response = _json({"error": "invalid_request", "error_description": message})
        response["Cache-Control"] = "no-store"
        return response
    if answers == "jsonrpc":
        return _json({"jsonrpc": "2.0", "id": None, "error": {"code": -32602, "message": message}})
    if answers == "rest":
        return _json(
            {"error": {"code": "VALIDATION_ERROR", "message": message, "details": {"fields": {scrub(where): PROBLEM}}}}
        )
    page = f"<!doctype html><title>Bad request</title><h1>Bad request</h1><p>{escape(message)}</p>"
    return HttpResponse(page, status=400, content_type="text/html; charset=utf-8")


class BadTextMiddleware:
    """Runs after CSRF (process_view), so a refused form never skips the CSRF check's own answer."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view: Any, args: Any, kwargs: Any) -> HttpResponse | None:
        where = problem(request)
        return None if where is None else refusal(request, where)
