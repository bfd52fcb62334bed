"""The base class of every API view: authentication, the route-rule check and JSON in/out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from rest_framework.request import Request
from rest_framework.views import APIView

from api.authentication import BearerAuthentication, SessionActorAuthentication, actor_of
from api.errors import exception_handler
from api.negotiation import JSONFirstNegotiation
from api.openapi import ApiSchema
from api.parsers import CheckedJSONParser
from api.permissions import RouteRules
from api.renderers import FastJSONRenderer
from api.rules import RouteRule
from emdash.actor import Actor
from emdash.errors import ValidationError


class ApiView(APIView):
    """Subclasses set ``rules = {"GET": rule(Perm.X), ...}`` and implement the methods they declare."""

    rules: ClassVar[dict[str, RouteRule]] = {}
    authentication_classes = [BearerAuthentication, SessionActorAuthentication]
    permission_classes = [RouteRules]
    renderer_classes = [FastJSONRenderer]
    content_negotiation_class = JSONFirstNegotiation
    parser_classes = [CheckedJSONParser]
    schema = ApiSchema()
    http_method_names = ["get", "post", "put", "patch", "delete", "head"]

    def get_exception_handler(self) -> Callable[..., Any]:
        return exception_handler

    def actor(self, request: Request) -> Actor:
        return actor_of(request)


def body(request: Request, accepted: set[str], required: tuple[str, ...] = ()) -> dict[str, Any]:
    """The JSON object body, refusing unknown keys and missing required ones (all problems at once)."""
    data = request.data
    if not isinstance(data, dict):
        raise ValidationError("The request body must be a JSON object")
    problems = {key: f"unknown field (accepted: {', '.join(sorted(accepted))})" for key in sorted(set(data) - accepted)}
    problems.update({key: "is required" for key in required if key not in data})
    if problems:
        raise ValidationError.for_fields(problems)
    return dict(data)
