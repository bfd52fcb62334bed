"""The REST door's lean GET: when an anonymous read can be answered without DRF's dispatch (api/operations.py).

``is_lean`` says whether DRF's dispatch would give the request the anonymous actor, the public rule and the JSON
renderer, so the view's own answer is the one DRF gives; ``AnonymousRead`` is what the read takes from DRF's
Request in that case.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from rest_framework.request import Request
from rest_framework.settings import api_settings

from api.negotiation import PLAIN_ACCEPTS
from api.renderers import FastJSONRenderer

_PRECONDITIONS = ("HTTP_IF_NONE_MATCH", "HTTP_IF_MODIFIED_SINCE", "HTTP_IF_MATCH", "HTTP_IF_UNMODIFIED_SINCE")


def is_conditional(request: Request) -> bool:
    """Whether the read must be checked before it is built: a 304, or a 412 for a failed If-Match or
    If-Unmodified-Since (RFC 9110 13.1: a failed precondition means the method, a GET included, is not performed)."""
    meta = request.META
    return any(name in meta for name in _PRECONDITIONS)


class AnonymousRead:
    """What a read takes from DRF's Request, for the lean GET: the query, the headers, no credentials."""

    __slots__ = ("META", "_request", "auth", "method", "query_params")

    def __init__(self, request: HttpRequest) -> None:
        self._request = request
        self.method = request.method
        self.query_params = request.GET
        self.META = request.META
        self.auth = None  # actor_of: the anonymous actor, as DRF's authentication gives without credentials


def is_lean(request: HttpRequest, bound: dict[str, Any], rules: dict[str, Any], renderers: Any) -> bool:
    """Whether DRF's dispatch would give this GET the anonymous actor, the public rule and the JSON renderer."""
    meta = request.META
    if "GET" not in bound or bound["GET"][1].args == "body":
        return False
    if "HTTP_AUTHORIZATION" in meta or is_conditional(request):  # type: ignore[arg-type]
        return False
    if meta.get("HTTP_ACCEPT", "").strip() not in PLAIN_ACCEPTS:
        return False
    fmt = api_settings.URL_FORMAT_OVERRIDE
    if fmt and fmt in request.GET:
        return False
    if len(renderers) != 1 or renderers[0] is not FastJSONRenderer:
        return False
    if getattr(request, "_force_auth_user", None) is not None or getattr(request, "_force_auth_token", None):
        return False  # DRF's test client forcing a user
    user = getattr(request, "user", None)
    if user is None or user.is_authenticated:
        return False  # a signed-in session: SessionActorAuthentication's (and CSRF's) to judge
    rule = rules.get("GET")
    return rule is not None and bool(rule.public)
