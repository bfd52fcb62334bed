"""Responses without a caching rule of their own: nothing answered to a credential, a session, a write or an error
may be kept by a shared cache (docs/caching.md, "Headers"). Reads with their own rule (public pages, REST reads,
media) keep it."""

from __future__ import annotations

import orjson
import pytest
from django.test import Client

from content.entries import services
from tests.api.helpers import client_for, session_client
from tests.factories import SYSTEM, make_user

NO_STORE = "private, no-store"
MCP_GET = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "tools/call",
    "params": {"name": "content_get", "arguments": {"collection": "posts", "id": "hello"}},
}


@pytest.fixture
def published(posts):
    entry = services.entry_create(actor=SYSTEM, collection="posts", data={"title": "Hello"})
    services.entry_publish(actor=SYSTEM, collection="posts", id=entry.id)
    return entry


def test_signed_in_pages_and_api_answers_without_a_rule_are_not_stored(published) -> None:
    client = session_client(make_user("admin"))
    for path in ("/_emdash/admin/", "/_emdash/admin/content/posts/", f"/_emdash/admin/content/posts/{published.id}/"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert response["Cache-Control"] == NO_STORE, path
    tokens = client.get("/_emdash/api/tokens")  # lists the user's API tokens
    assert tokens.status_code == 200 and tokens["Cache-Control"] == NO_STORE


def test_bearer_answers_writes_and_mcp_calls_are_not_stored(published) -> None:
    token = client_for("editor")
    answer = token.post(
        "/_emdash/api/mcp",
        orjson.dumps(MCP_GET),
        content_type="application/json",
        HTTP_ACCEPT="application/json, text/event-stream",
    )
    assert answer.status_code == 200 and answer["Cache-Control"] == NO_STORE
    created = token.post(
        "/_emdash/api/content/posts", orjson.dumps({"data": {"title": "New"}}), content_type="application/json"
    )
    assert created.status_code == 201 and created["Cache-Control"] == NO_STORE


@pytest.mark.parametrize(
    ("path", "headers", "status"),
    [
        ("/_emdash/api/content/posts/01M8EHM1TV4J6121KQVZ97H2R9", {}, 404),
        ("/_emdash/api/content/nope", {}, 404),
        ("/_emdash/api/content/posts?limit=999", {}, 400),
        ("/_emdash/api/content/posts?cursor=garbage", {}, 400),
        ("/_emdash/api/content/posts", {"HTTP_AUTHORIZATION": "Bearer ec_pat_bogus"}, 401),
        ("/_emdash/api/settings", {}, 401),
        ("/posts/no-such-post/", {}, 404),
        ("/no-such-page/", {}, 404),
    ],
)
def test_errors_are_not_stored(published, path, headers, status) -> None:
    """An error kept by a CDN (Fastly and Varnish keep a 404 by default) outlives the fix: a draft published later
    would stay a 404 there, and an error carries no surrogate key for the purge to name."""
    response = Client().get(path, **headers)
    assert response.status_code == status
    assert response["Cache-Control"] == NO_STORE


def test_reads_with_their_own_rule_keep_it(published) -> None:
    assert Client().get("/posts/hello/")["Cache-Control"].startswith("public")
    assert Client().get("/_emdash/api/content/posts/hello")["Cache-Control"].startswith("public")
    assert client_for("editor").get("/_emdash/api/content/posts/hello")["Cache-Control"] == "private, no-cache"
    assert Client().get("/_emdash/health")["Cache-Control"] == "no-store"
