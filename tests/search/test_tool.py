"""The MCP ``search`` tool in-process: definition, structured output, argument errors, roles and hostile input."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from jsonschema import Draft202012Validator

from content.entries import services
from emdash.roles import Role
from tests.factories import SYSTEM
from tests.mcp.conftest import MCP, MakeMCP
from tests.search.conftest import create

MODERN = "2025-06-18"


def definition(mcp: MCP) -> dict[str, Any]:
    tools = mcp.result("tools/list", version=MODERN)["tools"]
    return next(t for t in tools if t["name"] == "search")


def test_definition(mcp: MCP) -> None:
    tool = definition(mcp)
    assert tool["_meta"] == {
        "emdash/scope": "content:read",
        "emdash/minRole": "subscriber",
        "emdash/category": "search",
    }
    assert tool["annotations"]["readOnlyHint"] is True
    assert tool["annotations"]["destructiveHint"] is False
    assert tool["inputSchema"]["required"] == ["query"]
    assert tool["inputSchema"]["properties"]["limit"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 50,
        "default": 20,
        "description": "Most results to return",
    }
    assert tool["inputSchema"]["additionalProperties"] is False
    assert tool["outputSchema"]["required"] == ["items"]


def test_call_returns_structured_results(mcp: MCP, articles: Any) -> None:
    entry_id = create(title="Elderberry <syrup>", excerpt="for winter colds", publish=True)
    create(title="Elderberry draft")
    result = mcp.call("search", {"query": "elderberry"}, version=MODERN)
    assert result["isError"] is False, result
    payload = orjson.loads(result["content"][0]["text"])
    assert result["structuredContent"] == payload
    assert not list(Draft202012Validator(definition(mcp)["outputSchema"]).iter_errors(payload))
    [item] = payload["items"]
    assert item["id"] == entry_id
    assert item["title"] == "Elderberry <syrup>"
    assert item["snippet"] == "<mark>Elderberry</mark> &lt;syrup&gt;"


def test_filters_through_the_tool(mcp: MCP, articles: Any, notes: Any) -> None:
    create(title="Chokeberry", publish=True)
    note = create("notes", title="Chokeberry note", publish=True)
    payload = mcp.ok("search", {"query": "chokeberry", "collections": ["notes"], "limit": 5, "locale": "en"})
    assert [i["id"] for i in payload["items"]] == [note]


@pytest.mark.parametrize(
    "arguments, bad",
    [
        ({}, {"query"}),
        ({"query": 5}, {"query"}),
        ({"query": "x", "limit": 0}, {"limit"}),
        ({"query": "x", "limit": 51}, {"limit"}),
        ({"query": "x", "collections": []}, {"collections"}),
        ({"query": "x", "collections": "posts"}, {"collections"}),
        ({"query": "x", "collections": ["posts", "posts"]}, {"collections"}),
        ({"query": "x", "nope": 1}, {"nope"}),
        ({"query": "x" * 1001}, {"query"}),
    ],
)
def test_bad_arguments_are_validation_errors(mcp: MCP, arguments: dict, bad: set[str]) -> None:
    result = mcp.fails("search", arguments)
    assert result["_meta"]["code"] == "VALIDATION_ERROR"
    assert set(result["_meta"]["details"]["fields"]) == bad


def test_unknown_collection_is_a_tool_error(mcp: MCP, articles: Any) -> None:
    assert mcp.fails("search", {"query": "x", "collections": ["nope"]})["_meta"]["code"] == "COLLECTION_NOT_FOUND"


@pytest.mark.parametrize("query", ['"', "NEAR(a b)", "a:*", "(((", "x" * 1000, "\x00", "*", "a OR b NOT c"])
def test_hostile_queries_through_the_tool_never_fail(mcp: MCP, articles: Any, query: str) -> None:
    create(title="Aronia", publish=True)
    result = mcp.call("search", {"query": query})
    assert result["isError"] is False or result["_meta"]["code"] == "VALIDATION_ERROR", result


@pytest.mark.parametrize("role", [Role.SUBSCRIBER, Role.CONTRIBUTOR, Role.ADMIN])
def test_any_reader_sees_published_items_only(make_mcp: MakeMCP, articles: Any, role: Role) -> None:
    published = create(title="Serviceberry", publish=True)
    pending = create(title="Serviceberry draft")
    services.entry_update(actor=SYSTEM, collection="articles", id=published, data={"title": "Serviceberry draft two"})
    client = make_mcp(role, "content:read")
    items = client.ok("search", {"query": "serviceberry"})["items"]
    assert [i["id"] for i in items] == [published]
    assert pending not in str(items)


def test_a_token_without_content_read_is_refused(make_mcp: MakeMCP) -> None:
    client = make_mcp(Role.ADMIN, "media:read")
    error = client.error("tools/call", {"name": "search", "arguments": {"query": "x"}}, status=403)
    assert error["data"] == {"code": "INSUFFICIENT_SCOPE", "requiredScope": "content:read"}
