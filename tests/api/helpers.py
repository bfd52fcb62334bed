"""Clients and the route table walk shared by the REST API tests."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import orjson
from django.test import Client

from accounts.models import User
from accounts.tokens import token_create
from api import catalog
from api.rules import RouteRule
from emdash.roles import Role
from tests.factories import make_user

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
    "redirect_id": "01ZZZZZZZZZZZZZZZZZZZZZZZZ",
    "token_id": "999999",
    "item": "zz_missing",
}


def concrete(pattern: str) -> str:
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: PLACEHOLDERS[m.group(1)], pattern)


@dataclass(frozen=True)
class Route:
    """A route of the catalog with its path filled with placeholders."""

    path: str
    method: str
    rule: RouteRule

    def __str__(self) -> str:
        return f"{self.method} {self.path}"


def routes() -> list[Route]:
    found = []
    for route in catalog.routes():
        assert route.rule is not None, f"{route} has no declared rule"
        found.append(Route(concrete(route.pattern), route.method, route.rule))
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
