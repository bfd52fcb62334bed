"""Every REST route declares its access rule (fail closed), and the route x scope x role matrix holds.

The matrix is generated from the route table, so a new route is covered the day it is added.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIRequestFactory

from api.base import ApiView
from api.catalog import api_urls
from api.rules import ROUTE_RULES, RouteRule
from emdash import scopes as scope_table
from emdash.roles import Role
from emdash.scopes import Scope
from tests.api.helpers import body, call, client_for, routes
from tests.factories import make_user

pytestmark = pytest.mark.django_db
ROUTES = routes()
UNDOCUMENTED = {"_emdash/api/media/upload/<str:token>", "_emdash/api/openapi.json", "_emdash/api/docs/"}


def test_every_api_url_is_a_rule_checked_view() -> None:
    """Apart from the signed PUT target and the OpenAPI pages, every /_emdash/api/ URL is an ApiView."""
    others = []
    for pattern, callback in api_urls():
        view = getattr(callback, "view_class", None)
        if pattern in UNDOCUMENTED or pattern.startswith(("_emdash/api/mcp", "_emdash/api/oauth")):
            continue
        if view is None or not issubclass(view, ApiView):
            others.append(pattern)
    assert others == []
    assert len(ROUTES) >= 45  # every method of every view found a rule (routes() asserts it)


def test_rules_come_from_the_permission_table() -> None:
    from emdash.permissions import RULES

    for perm, permission in RULES.items():
        route_rule = ROUTE_RULES[perm.value]
        assert (route_rule.scope, route_rule.min_role, route_rule.public) == (
            permission.scope,
            permission.min_role,
            permission.public,
        )


def test_a_method_without_a_declared_rule_is_refused() -> None:
    class Undeclared(ApiView):
        rules = {"GET": ROUTE_RULES["content.read"]}

        def get(self, request, **kwargs):  # type: ignore[no-untyped-def]
            from rest_framework.response import Response

            return Response({"ok": True})

        def post(self, request, **kwargs):  # type: ignore[no-untyped-def]
            raise AssertionError("must not run")

    user = make_user("admin")
    factory = APIRequestFactory()
    request = factory.post("/x", {}, format="json")
    from rest_framework.test import force_authenticate

    from emdash.actor import Actor

    force_authenticate(request, user=user, token=Actor.for_user(user))
    response = Undeclared.as_view()(request)
    assert response.status_code == 403
    assert response.data["error"]["code"] == "INSUFFICIENT_PERMISSIONS"
    assert Undeclared.as_view()(factory.get("/x")).status_code == 200


def _other_scope(rule: RouteRule) -> Scope:
    """A scope that does not grant the rule's scope (even through implication)."""
    for candidate in (Scope.MEDIA_READ, Scope.SCHEMA_READ, Scope.SETTINGS_READ):
        if rule.scope not in scope_table.expand([candidate]):
            return candidate
    raise AssertionError(rule)


@pytest.mark.parametrize("route", ROUTES, ids=str)
def test_anonymous_callers_reach_only_public_routes(route) -> None:
    from django.test import Client

    response = call(Client(), route.method, route.path, {} if route.method != "GET" else None)
    assert response.status_code != 500
    if route.rule.public:
        assert response.status_code not in (401, 403), response.content
    else:
        assert response.status_code == 401, response.content
        assert body(response)["error"]["code"] == "UNAUTHORIZED"
        assert response["WWW-Authenticate"].startswith("Bearer resource_metadata=")


@pytest.mark.parametrize("route", ROUTES, ids=str)
def test_a_token_without_the_route_scope_is_refused(route) -> None:
    scope = _other_scope(route.rule)
    response = call(client_for("admin", scope.value), route.method, route.path, {})
    assert response.status_code == 403, response.content
    error = body(response)["error"]
    assert error["message"].startswith(f"Insufficient scope: requires {route.rule.scope.value}. Re-authorise")
    assert {**error, "message": None} == {
        "code": "INSUFFICIENT_SCOPE",
        "message": None,
        "details": {"requiredScope": route.rule.scope.value},
    }


@pytest.mark.parametrize("route", [r for r in ROUTES if r.rule.min_role > Role.SUBSCRIBER], ids=str)
def test_a_role_below_the_minimum_is_refused(route) -> None:
    below = max(r for r in Role if r < route.rule.min_role)
    response = call(client_for(below, route.rule.scope.value), route.method, route.path, {})
    assert response.status_code == 403, response.content
    assert body(response)["error"]["code"] == "INSUFFICIENT_PERMISSIONS"


@pytest.mark.parametrize("route", ROUTES, ids=str)
def test_the_minimum_role_with_the_route_scope_gets_past_the_route_check(route) -> None:
    response = call(client_for(route.rule.min_role, route.rule.scope.value), route.method, route.path, {})
    assert response.status_code < 500, response.content
    if response.status_code >= 400:
        assert body(response)["error"]["code"] not in ("UNAUTHORIZED", "INSUFFICIENT_SCOPE")


def test_docs_list_every_route() -> None:
    """docs/rest-api.md carries the generated route table."""
    from pathlib import Path

    from api.catalog import as_markdown

    doc = (Path(__file__).resolve().parents[2] / "docs" / "rest-api.md").read_text()
    assert as_markdown() in doc, "regenerate the table in docs/rest-api.md from api.catalog.as_markdown()"
