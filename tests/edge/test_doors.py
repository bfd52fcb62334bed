"""The door table (emdash/doors.py) is the only place doors are told apart: every URL maps to one door, and the
edge (body limits, rates, NUL refusals, the MCP chain, the 500 page, OpenAPI) reads its facts from there."""

from __future__ import annotations

import orjson
import pytest
from django.conf import settings
from django.test import Client, RequestFactory
from django.urls import get_resolver

from api.openapi import only_rest_routes
from emdash import doors
from emdash.doors import DOORS, door_for
from emdash.edge import door_limits, input_guard, limits

PATHS = {
    "/_emdash/api/mcp": "mcp",
    "/_emdash/api/mcp/": "mcp",
    "/_emdash/api/oauth/token": "oauth",
    "/_emdash/api/oauth/device/code": "oauth",
    "/_emdash/oauth/authorize": "consent",
    "/_emdash/api/content/posts": "rest",
    "/_emdash/api/media/upload/abc": "rest",
    "/_emdash/api/mcpx": "rest",
    "/_emdash/admin/": "admin",
    "/_emdash/admin/media/upload": "admin",
    "/": "public",
    "/posts/hello/": "public",
    "/.well-known/oauth-authorization-server": "public",
}


@pytest.mark.parametrize(("path", "name"), PATHS.items())
def test_every_path_has_exactly_one_door(path: str, name: str) -> None:
    assert door_for(path).name == name
    # Doors nest (MCP inside the API prefix): the table's order makes the longest matching prefix win.
    claims = [(len(p), door.name) for door in DOORS for p in door.prefixes if path.startswith(p) or path == p[:-1]]
    longest = max(claims)
    assert [c for c in claims if c[0] == longest[0]] == [longest] and longest[1] == name


def test_every_url_of_the_conf_lands_on_a_door_that_declares_it() -> None:
    """Each route of the URL conf, under /_emdash/, belongs to the door whose prefix names it."""
    prefixes = {door.name: door.prefixes for door in DOORS}
    for pattern in get_resolver().url_patterns:
        route = "/" + str(pattern.pattern).lstrip("^")
        door = door_for(route)
        assert door.name in prefixes
        if route.startswith("/_emdash/api/"):
            assert door.name in {"mcp", "oauth", "rest"}


def test_the_door_table_names_doors_once() -> None:
    assert len({door.name for door in DOORS}) == len(DOORS)
    assert all(prefix == "" or prefix.endswith("/") for door in DOORS for prefix in door.prefixes)
    assert [door for door in DOORS if door.prefixes == ("",)] == [doors.PUBLIC]


def test_the_mcp_chain_is_the_doors_middleware_in_the_sites_order() -> None:
    chain = list(doors.MCP.middleware or ())
    below = settings.MIDDLEWARE[settings.MIDDLEWARE.index("mcp_endpoint.middleware.McpPathMiddleware") + 1 :]
    assert chain == [path for path in below if path in chain], "a subset of MIDDLEWARE, in its order"
    assert "emdash.edge.door_limits.RateLimitMiddleware" in chain
    assert "emdash.edge.input_guard.BadTextMiddleware" in chain
    assert [door.name for door in DOORS if door.middleware is not None] == ["mcp", "rest"]  # REST: test_rest_chain


def test_rate_buckets_come_from_the_door() -> None:
    for path, name in PATHS.items():
        assert door_limits.door_for(path) == doors.BY_NAME[name].rate
    assert door_limits.door_for("/_emdash/api/mcp") == "mcp" and door_limits.door_for("/_emdash/admin/") is None


def test_body_limits_come_from_the_door(settings) -> None:
    settings.EMDASH = {**getattr(settings, "EMDASH", {}), "MAX_BODY": 1000, "MCP_MAX_BODY": 5000}
    assert limits.limit_for("/_emdash/api/mcp") == 5000
    assert limits.limit_for("/_emdash/api/content/posts") == 1000
    assert limits.limit_for("/_emdash/admin/content/posts/new/") == 1000
    assert limits.limit_for("/_emdash/api/media") > 5000  # an upload route of the REST door


@pytest.mark.parametrize(
    ("path", "shape"),
    [
        ("/_emdash/api/mcp", "jsonrpc"),
        ("/_emdash/api/oauth/token", "oauth"),
        ("/_emdash/api/content/posts", "rest"),
        ("/_emdash/admin/x", "page"),
    ],
)
def test_each_door_refuses_in_its_own_shape(path: str, shape: str) -> None:
    status, headers, body = limits.refusal(path, 10)
    bad_text = input_guard.refusal(RequestFactory().get(path), "query.q")
    assert status == 413
    if shape == "page":
        assert dict(headers)[b"content-type"].startswith(b"text/plain")
        assert bad_text["Content-Type"].startswith("text/html")
        return
    answers = [orjson.loads(body), orjson.loads(bad_text.content)]
    for answer in answers:
        if shape == "jsonrpc":
            assert answer["jsonrpc"] == "2.0" and answer["error"]["code"] in (-32600, -32602)
        elif shape == "oauth":
            assert answer["error"] == "invalid_request"
        else:
            assert answer["error"]["code"] in ("PAYLOAD_TOO_LARGE", "VALIDATION_ERROR")


def test_openapi_documents_the_rest_doors_routes_only() -> None:
    endpoints = [(p, None, "GET", None) for p in PATHS] + [("/_emdash/api/media/upload/{token}", None, "PUT", None)]
    kept = {e[0] for e in only_rest_routes(endpoints)}
    assert kept == {"/_emdash/api/content/posts", "/_emdash/api/mcpx"}


@pytest.mark.django_db
def test_the_500_answer_follows_the_door(settings) -> None:
    from config.views import server_error

    factory = RequestFactory()
    assert server_error(factory.get("/_emdash/api/content/x"))["Content-Type"] == "application/json"
    assert server_error(factory.get("/_emdash/api/mcp"))["Content-Type"] == "application/json"
    assert server_error(factory.get("/_emdash/oauth/authorize"))["Content-Type"].startswith("text/html")
    assert server_error(factory.get("/_emdash/admin/"))["Content-Type"].startswith("text/html")


@pytest.mark.django_db
def test_the_mcp_path_takes_the_short_chain() -> None:
    """Through the door's chain the MCP endpoint still gets its guards (CSP, clickjacking) and no session cookie."""
    response = Client().post("/_emdash/api/mcp", b"{}", content_type="application/json")
    assert response.status_code == 401
    assert response["X-Frame-Options"] == "DENY" and "Content-Security-Policy" in response


def test_cors_is_on_for_the_doors_that_say_so() -> None:
    from emdash.edge.cors import CorsMiddleware

    middleware = CorsMiddleware(lambda request: None)  # type: ignore[arg-type, return-value]
    factory = RequestFactory()
    enabled = {path for path in PATHS if middleware.is_enabled(factory.get(path))}
    api = {path for path, name in PATHS.items() if doors.BY_NAME[name].cors}
    assert enabled == api | {"/.well-known/oauth-authorization-server"}  # discovery documents: public CORS
    assert "/_emdash/admin/" not in enabled and "/_emdash/oauth/authorize" not in enabled
