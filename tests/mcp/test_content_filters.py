"""content_list's ``filter`` over MCP: the same FilterSet and errors as REST (tests/api/test_content_filters.py)."""

from __future__ import annotations

import pytest

from tests.filter_data import Catalog, build_catalog
from tests.mcp.conftest import MCP


@pytest.fixture
def catalog(cms) -> Catalog:
    return build_catalog()


def _titles(mcp: MCP, **arguments) -> list[str]:
    page = mcp.ok("content_list", {"collection": "posts", **arguments})
    return sorted(i["data"]["title"] for i in page["items"])


def test_filters_with_json_values(mcp, catalog) -> None:
    assert _titles(mcp, filter={"fields": {"featured": True}}) == ["Alpha", "Gamma"]
    assert _titles(mcp, filter={"fields": {"price": {"gte": 10, "lte": 20}}}) == ["Beta"]
    assert _titles(mcp, filter={"fields": {"stock": 2}}) == ["Beta"]
    assert _titles(mcp, filter={"fields": {"kind": {"in": ["news", "howto"]}}}) == ["Alpha", "Gamma"]
    assert _titles(mcp, filter={"fields": {"colours": {"in": ["green"]}}}) == ["Beta"]
    assert _titles(mcp, filter={"terms": {"category": ["news", "sport"]}, "author": catalog.bob.pk}) == ["Beta"]
    assert _titles(mcp, filter={"terms": {"tag": "hot"}}) == ["Gamma"]
    assert _titles(mcp, status="published", filter={"publishedBefore": "2026-02-01"}) == ["Alpha"]
    assert _titles(mcp, filter={"createdAfter": "2026-03-01", "createdBefore": "2026-03-31"}) == ["Delta", "Gamma"]


@pytest.mark.parametrize(
    ("given", "name"),
    [
        ({"fields": {"price": {"gte": "cheap"}}}, "filter.fields.price.gte"),
        ({"fields": {"price": {"gte": {"deep": 1}}}}, "filter.fields.price.gte"),
        ({"fields": {"price": None}}, "filter.fields.price"),
        ({"fields": {"nope": 1}}, "filter.fields.nope"),
        ({"fields": {"featured": "yes"}}, "filter.fields.featured"),
        ({"terms": {"genre": "x"}}, "filter.terms.genre"),
        ({"terms": {"category": 3}}, "filter.terms.category"),
        ({"author": "alice"}, "filter.author"),
        ({"author": 0}, "filter.author"),
        ({"publishedAfter": "soon"}, "filter.publishedAfter"),
        ({"autor": 1}, "filter.autor"),
        ([], "filter"),
    ],
)
def test_bad_filters_are_tool_errors_naming_the_argument(mcp, catalog, given, name) -> None:
    result = mcp.fails("content_list", {"collection": "posts", "filter": given})
    assert result["_meta"]["code"] == "VALIDATION_ERROR"
    assert f"{name}: " in result["content"][0]["text"], result


def test_unknown_filter_names_list_the_filter_arguments(mcp, catalog) -> None:
    text = mcp.fails("content_list", {"collection": "posts", "filter": {"autor": 1}})["content"][0]["text"]
    assert "publishedAfter" in text and "orderBy" not in text  # the filter's own names, not content_list's


def test_the_input_schema_stays_portable(mcp) -> None:
    tools = {t["name"]: t for t in mcp.result("tools/list")["tools"]}
    schema = tools["content_list"]["inputSchema"]["properties"]["filter"]
    assert schema["type"] == "object" and schema["additionalProperties"] is False
    assert "$ref" not in str(tools["content_list"]["inputSchema"])
    assert {"author", "publishedAfter", "terms", "fields"} <= set(schema["properties"])
