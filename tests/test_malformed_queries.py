"""Malformed search and filter input on the admin lists, the public site, REST and MCP: a clean answer, never a
500 (issue 10 item 11; SPEC 6.3: "malformed query syntax -> empty list or a clean VALIDATION_ERROR")."""

from __future__ import annotations

import orjson
import pytest
from django.test import Client

from accounts.oauth import metadata
from accounts.tokens import token_create
from content.entries import services
from emdash.actor import Actor
from tests.factories import make_collection, make_user

FIELDS = [{"slug": "title", "label": "Title", "type": "string", "required": True, "searchable": True}]

MALFORMED = [
    '"unbalanced',
    'a "b',
    "*",
    "**",
    "a*b*",
    "NEAR",
    "NEAR(a b)",
    "a NEAR/2 b",
    "-",
    "--a",
    "-a -b",
    "AND",
    "OR OR",
    "NOT",
    "()",
    "(a",
    "a)",
    "^",
    ":",
    "title:x",
    "'",
    "\\",
    "%",
    "_",
    "a" * 5000,
    "é ü 漢字 \U0001f600",
    "a & b | !c",
    "<mark>",
]


@pytest.fixture
def site(cms):
    make_collection("posts", fields=FIELDS, supports=["drafts", "revisions", "search"])
    system = Actor.system()
    for title in ("Alpha search", "Beta search"):
        entry = services.entry_create(actor=system, collection="posts", data={"title": title})
        services.entry_publish(actor=system, collection="posts", id=entry.id)
    admin = make_user("admin")
    client = Client()
    client.force_login(admin)
    return client, token_create(user=admin, name="t", scopes="admin").raw


def test_admin_list_with_a_nul_search_is_a_400_not_a_500(site):
    """The list view used to retry the refused search and fail again, uncaught."""
    client, _ = site
    for path in ("/_emdash/admin/content/posts/", "/_emdash/admin/content/posts/rows/"):
        assert client.get(path, {"q": "\x00"}).status_code == 400


def test_admin_list_falls_back_to_the_unfiltered_first_page(site):
    """A filter the selector refuses (here a stale cursor with a search) shows the message and the first page."""
    client, _ = site
    response = client.get("/_emdash/admin/content/posts/", {"q": "Alpha", "cursor": "garbage"})
    assert response.status_code == 200
    assert b"INVALID_CURSOR" in response.content and b"Beta search" in response.content


@pytest.mark.parametrize("q", MALFORMED)
def test_admin_lists_take_any_filter_text(site, q):
    client, _ = site
    for path, params in [
        ("/_emdash/admin/content/posts/", {"q": q, "status": q, "sort": q, "order": q, "cursor": q}),
        ("/_emdash/admin/content/posts/rows/", {"q": q}),
        ("/_emdash/admin/media/", {"type": q, "cursor": q}),
        ("/_emdash/admin/audit/", {"source": q, "before": q}),
        ("/_emdash/admin/oauth-apps/", {"all": q}),
    ]:
        response = client.get(path, params)
        assert response.status_code == 200, (path, q, response.status_code)


@pytest.mark.parametrize("q", MALFORMED)
def test_public_search_takes_any_query(site, q):
    response = Client().get("/search/", {"q": q})
    assert response.status_code == 200, (q, response.status_code)


@pytest.mark.parametrize("q", MALFORMED)
def test_rest_and_mcp_search_take_any_query(site, q):
    _, token = site
    client = Client(headers={"Authorization": f"Bearer {token}"})
    response = client.get("/_emdash/api/search", {"q": q})
    assert response.status_code in (200, 400), (q, response.status_code, response.content[:200])
    if response.status_code == 400:
        assert orjson.loads(response.content)["error"]["code"] == "VALIDATION_ERROR"
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "search", "arguments": {"query": q}}}
    answer = client.post(metadata.MCP_PATH, orjson.dumps(body), content_type="application/json")
    assert answer.status_code == 200, (q, answer.content[:200])
    result = orjson.loads(answer.content)["result"]
    assert not result["isError"] or result["_meta"]["code"] == "VALIDATION_ERROR", (q, result)


def test_quoted_phrase_and_prefix_still_match(site):
    """The malformed-query handling keeps real queries working."""

    def titles(q: str) -> list[str]:
        return [r["title"] for r in Client().get("/search/", {"q": q}).context["results"]]

    assert titles("alpha") == ["Alpha search"]
    assert titles('"beta search"') == ["Beta search"]
