"""Clients and the route table walk shared by the REST API tests."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import orjson
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from api.base import ApiView
from api.permissions import declared_rule
from api.rules import RouteRule
from emdash.models import User
from emdash.roles import Role
from emdash.tokens import token_create
from tests.factories import make_user

METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
# Path parameters filled with values that exist nowhere: route checks run before the view, and an
# allowed call then ends in a clean 404/400 without changing anything.
PLACEHOLDERS = {
    "collection": "zz_missing",
    "id": "01ZZZZZZZZZZZZZZZZZZZZZZZZ",
    "taxonomy": "zz_missing",
    "term": "zz_missing",
    "name": "zz_missing",
    "slug": "zz_missing",
    "field_slug": "zz_missing",
    "revision_id": "01ZZZZZZZZZZZZZZZZZZZZZZZZ",
    "token_id": "999999",
}


@dataclass(frozen=True)
class Route:
    path: str
    method: str
    view: type[ApiView]
    rule: RouteRule

    def __str__(self) -> str:
        return f"{self.method} {self.path}"


def _patterns(resolver: URLResolver, prefix: str = "") -> Iterator[tuple[str, Any]]:
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            yield from _patterns(entry, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), entry.callback


def api_views() -> list[tuple[str, Any]]:
    """Every URL under /_emdash/api/ with its view callback."""
    return [(p, cb) for p, cb in _patterns(get_resolver()) if p.startswith("_emdash/api/")]


def concrete(pattern: str) -> str:
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: PLACEHOLDERS[m.group(1)], pattern)


def routes() -> list[Route]:
    """(path, method) pairs of every ApiView, with the rule each declares."""
    found = []
    for pattern, callback in api_views():
        view = getattr(callback, "view_class", None)
        if view is None or not issubclass(view, ApiView):
            continue
        instance = view(**getattr(callback, "view_initkwargs", {}))
        for method in METHODS:
            if hasattr(instance, method.lower()) and method.lower() in view.http_method_names:
                rule = declared_rule(instance, method)
                assert rule is not None, f"{method} /{pattern} has no declared rule"
                found.append(Route(concrete(pattern), method, view, rule))
    return found


def body(response: Any) -> Any:
    return orjson.loads(response.content)


def token_client(user: User, scopes: str = "admin") -> Client:
    issued = token_create(user=user, name="test", scopes=scopes)
    return Client(headers={"Authorization": f"Bearer {issued.raw}"})


def client_for(role: Role | str = "editor", scopes: str = "admin") -> Client:
    return token_client(make_user(role), scopes)


def session_client(user: User, *, enforce_csrf: bool = False) -> Client:
    client = Client(enforce_csrf_checks=enforce_csrf)
    client.force_login(user)
    return client


def call(client: Client, method: str, path: str, data: Any = None) -> Any:
    kwargs: dict[str, Any] = {}
    if data is not None:
        if method == "GET":
            return client.get(path, data)
        kwargs = {"data": orjson.dumps(data), "content_type": "application/json"}
    return getattr(client, method.lower())(path, **kwargs)
