"""Portable schemas (SPEC 10): one type per schema everywhere, as single-type dialects (Gemini, OpenAI strict)
and Ajv's strict mode need; the rewrite to ``anyOf`` branches keeps validation exactly as it was."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from jsonschema import Draft7Validator, Draft202012Validator

from emdash.operations.single_type import single_type, type_arrays
from tests.mcp.conftest import HANDSHAKE, MCP, MODERN


@pytest.mark.parametrize("version", [MODERN, *HANDSHAKE])
def test_tools_list_has_no_type_arrays_at_any_protocol_version(mcp: MCP, version: str) -> None:
    tools = mcp.result("tools/list", version=version)["tools"]
    assert len(tools) > 40
    left = [f"{tool['name']}: {where}" for tool in tools for where in type_arrays(tool)]
    assert left == []


def test_every_tool_schema_is_a_valid_schema_under_2020_12_and_draft_07(mcp: MCP) -> None:
    for tool in mcp.result("tools/list", version="2025-06-18")["tools"]:
        for key in ("inputSchema", "outputSchema"):
            if key in tool:
                Draft202012Validator.check_schema(tool[key])
                Draft7Validator.check_schema(tool[key])


def test_the_openapi_document_has_no_type_arrays(db: None) -> None:
    document = Client().get("/_emdash/api/openapi.json").json()
    assert document["paths"]
    assert type_arrays(document) == []


def test_content_list_filters_are_anyof_branches_of_one_type_each(mcp: MCP) -> None:
    tools = {t["name"]: t for t in mcp.result("tools/list", version="2025-06-18")["tools"]}
    filters = tools["content_list"]["inputSchema"]["properties"]["filter"]["properties"]
    terms = filters["terms"]["additionalProperties"]
    assert [branch["type"] for branch in terms["anyOf"]] == ["array", "string"]
    assert terms["anyOf"][0]["items"] == {"type": "string"}


# --- the rewrite itself ---------------------------------------------------------------------------------------

CASES: list[tuple[dict[str, Any], list[Any]]] = [
    ({"type": ["string", "null"], "minLength": 2}, ["ab", "a", None, 3, ""]),
    ({"type": ["integer", "null"], "minimum": 1, "description": "d"}, [1, 0, None, "1", 2.5]),
    ({"type": ["array", "string"], "items": {"type": "string"}, "maxItems": 2}, ["x", ["a"], ["a", 1], ["a"] * 3, 4]),
    ({"type": ["string", "number", "boolean"], "maxLength": 3}, ["abc", "abcd", 1.5, True, None, [1]]),
    (
        {"type": ["object", "null"], "properties": {"a": {"type": ["string", "null"]}}, "required": ["a"]},
        [None, {"a": None}, {"a": "x"}, {}, {"a": 1}, "x"],
    ),
    ({"type": ["string", "null"], "enum": ["a", None]}, ["a", None, "b"]),
    ({"type": ["string", "null"], "anyOf": [{"maxLength": 1}, {"type": "null"}]}, ["a", "ab", None]),
]


@pytest.mark.parametrize(("schema", "values"), CASES)
def test_the_rewrite_accepts_and_refuses_exactly_what_the_type_array_did(schema: dict[str, Any], values: list) -> None:
    rewritten = single_type(schema)
    assert type_arrays(rewritten) == []
    before, after = Draft202012Validator(schema), Draft202012Validator(rewritten)
    for value in values:
        assert before.is_valid(value) == after.is_valid(value), value


def test_type_specific_keywords_move_into_their_branch_and_the_rest_stays() -> None:
    assert single_type({"type": ["string", "null"], "minLength": 1, "description": "A title"}) == {
        "description": "A title",
        "anyOf": [{"type": "string", "minLength": 1}, {"type": "null"}],
    }


def test_a_property_named_type_is_not_mistaken_for_a_keyword() -> None:
    schema = {"type": "object", "properties": {"type": {"type": "string"}}, "default": {"type": ["a", "b"]}}
    assert single_type(schema) == schema
