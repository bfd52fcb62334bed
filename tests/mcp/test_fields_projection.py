"""``fields`` on content_get and content_list (SPEC 10, asking for less): only the named data fields come back,
system fields always; an unknown name is refused with the collection's fields listed. REST takes ``fields``
repeated or comma-separated."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.helpers import body, client_for
from tests.factories import make_entry

pytestmark = pytest.mark.django_db(transaction=True)
API = "/_emdash/api/content/posts"


def _entry(**data: Any) -> Any:
    values = {"title": "Long read", "excerpt": "Short", "body": [], **data}
    return make_entry("posts", data=values)


def test_content_get_returns_only_the_named_fields_and_every_system_field(mcp, posts) -> None:
    entry = _entry()
    whole = mcp.ok("content_get", {"collection": "posts", "id": entry.id})["item"]
    narrow = mcp.ok("content_get", {"collection": "posts", "id": entry.id, "fields": ["title"]})
    assert narrow["item"]["data"] == {"title": "Long read"}
    assert {key: value for key, value in narrow["item"].items() if key != "data"} == {
        key: value for key, value in whole.items() if key != "data"
    }
    assert narrow["_rev"]


def test_content_list_returns_the_named_long_fields_too(mcp, posts) -> None:
    _entry(title="One")
    _entry(title="Two")
    page = mcp.ok("content_list", {"collection": "posts", "fields": ["title", "excerpt"]})
    assert [item["data"] for item in page["items"]] == [
        {"title": "Two", "excerpt": "Short"},
        {"title": "One", "excerpt": "Short"},
    ]
    assert all(item["id"] and item["status"] for item in page["items"])


def test_an_unknown_field_is_refused_with_the_fields_listed(mcp, posts) -> None:
    entry = _entry()
    for name, args in (
        ("content_get", {"collection": "posts", "id": entry.id, "fields": ["title", "autor"]}),
        ("content_list", {"collection": "posts", "fields": ["autor"]}),
    ):
        result = mcp.fails(name, args)
        assert result["_meta"]["code"] == "VALIDATION_ERROR"
        message = result["_meta"]["details"]["fields"]["fields"]
        assert "autor" in message and "known: title, excerpt, body" in message


def test_an_empty_list_is_refused(mcp, posts) -> None:
    result = mcp.fails("content_list", {"collection": "posts", "fields": []})
    assert result["_meta"]["code"] == "VALIDATION_ERROR"


def test_a_draft_keeps_its_live_values_narrowed_too(mcp, posts) -> None:
    entry = _entry()
    mcp.ok("content_publish", {"collection": "posts", "id": entry.id})
    mcp.ok("content_update", {"collection": "posts", "id": entry.id, "data": {"title": "Changed"}})
    item = mcp.ok("content_get", {"collection": "posts", "id": entry.id, "fields": ["title"]})["item"]
    assert item["data"] == {"title": "Changed"} and item["liveData"] == {"title": "Long read"}


@pytest.mark.parametrize("query", ["fields=title,excerpt", "fields=title&fields=excerpt"])
def test_rest_takes_fields_repeated_or_comma_separated(posts, query: str) -> None:
    entry = _entry()
    client = client_for("editor")
    listed = body(client.get(f"{API}?{query}"))
    assert listed["items"][0]["data"] == {"title": "Long read", "excerpt": "Short"}
    got = body(client.get(f"{API}/{entry.id}?{query}"))
    assert got["item"]["data"] == {"title": "Long read", "excerpt": "Short"}


def test_rest_refuses_an_unknown_field(posts) -> None:
    response = client_for("editor").get(f"{API}?fields=nope")
    assert response.status_code == 400
    assert "known: title, excerpt, body" in body(response)["error"]["details"]["fields"]["fields"]


def test_fields_and_markdown_work_together(mcp, posts) -> None:
    entry = _entry()
    got = mcp.ok("content_get", {"collection": "posts", "id": entry.id, "fields": ["title"], "markdown": True})
    assert got["item"]["data"] == {"title": "Long read"}
    mcp.ok("content_create", {"collection": "posts", "data": {"title": "Rich", "body": "Hello **world**"}})
    page = mcp.ok("content_list", {"collection": "posts", "fields": ["body"], "markdown": True})
    assert page["items"][0]["data"] == {"body": "Hello **world**\n"}
