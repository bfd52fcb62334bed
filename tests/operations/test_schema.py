"""Typed inputs: the generated tool schemas stay portable, and validation reports every bad field (SPEC 5.2, 5.5)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError as PydanticError

from emdash.errors import ValidationError
from emdash.operations import operations, validate
from emdash.operations.record import TABLE, load
from mcp_endpoint import registry


def _objects(schema: Any) -> list[dict[str, Any]]:
    found = []
    if isinstance(schema, dict):
        if schema.get("type") == "object" and "properties" in schema:
            found.append(schema)
        for key, value in schema.items():
            children = value.values() if key == "properties" else [value]
            for child in children:
                found += _objects(child)
    elif isinstance(schema, list):
        for item in schema:
            found += _objects(item)
    return found


def _refs(schema: Any) -> bool:
    text = repr(schema)
    return "$ref" in text or "$defs" in text


@pytest.mark.django_db
def test_tools_list_from_the_table_has_no_refs_no_titles_and_closed_objects(mcp) -> None:
    tools = {t["name"]: t for t in mcp.result("tools/list", version="2025-11-25")["tools"]}
    load()
    converted = [op for op in operations() if op.mcp]
    # every MCP tool: content 16 + redirect 3 + import_wordpress, revision 2, schema 8, media 9 (media_usage_repair,
    # media_upload_url, media_confirm), settings 2, search 1, taxonomy 8 + taxonomy_term_translations, menu 6 +
    # menu_translations, changeset 9, changes_revert, byline 6 (SPEC 10)
    assert len(converted) == 74
    for op in converted:
        schema = tools[op.name]["inputSchema"]
        assert schema == op.schema
        assert not _refs(schema), op.name
        assert "title" not in schema and all("title" not in p for p in schema["properties"].values()), op.name
        for obj in _objects(schema):
            assert obj["additionalProperties"] is False, op.name
    for tool in tools.values():
        assert not _refs(tool["inputSchema"]), tool["name"]


def test_constraints_descriptions_and_camel_case_names_are_kept() -> None:
    load()
    listing = TABLE["content_list"].schema["properties"]
    assert listing["limit"] == {
        "default": 50,
        "description": "Page size",
        "maximum": 100,
        "minimum": 1,
        "type": "integer",
    }
    assert listing["status"]["enum"] == ["draft", "published", "scheduled"]
    assert "orderBy" in listing and "order_by" not in listing
    update = TABLE["content_update"].schema
    assert "_rev" in update["properties"] and update["required"] == ["collection", "id"]
    assert TABLE["content_schedule"].schema["required"] == ["collection", "id", "scheduledAt"]
    # A reference (an id the server issued) is published without bounds, but still checked.
    assert TABLE["revision_restore"].schema["properties"]["revisionId"] == {
        "description": "Revision id from revision_list",
        "type": "string",
    }
    restore = TABLE["revision_restore"].input
    for bad in ("", "x" * 27):
        with pytest.raises(PydanticError):
            restore.model_validate({"revisionId": bad})


def test_integer_valued_numbers_are_integers_and_fractions_are_not() -> None:
    load()
    op = TABLE["content_list"]
    assert validate(op, {"collection": "posts", "limit": 3.0}).limit == 3
    with pytest.raises(ValidationError) as bad:
        validate(op, {"collection": "posts", "limit": 3.5})
    assert bad.value.details == {"fields": {"limit": "must be of type integer"}}
    with pytest.raises(ValidationError) as text:
        validate(op, {"collection": "posts", "limit": "3"})  # JSON doors are strict about types
    assert text.value.details == {"fields": {"limit": "must be of type integer"}}


def test_every_bad_field_is_reported_at_once_with_clear_messages() -> None:
    load()
    with pytest.raises(ValidationError) as exc:
        validate(TABLE["content_list"], {"limit": 0, "order": "up", "nope": 1, "cursor": None})
    assert exc.value.code == "VALIDATION_ERROR"
    assert exc.value.details == {
        "fields": {
            "collection": "is required",
            "cursor": "must not be null",
            "limit": "must be at least 1",
            "nope": "unknown argument (accepted: collection, status, limit, cursor, orderBy, order, locale, markdown, "
            "filter, fields)",
            "order": "must be one of: asc, desc",
        }
    }
    assert exc.value.message.startswith("Invalid arguments for 5 fields")


def test_nested_problems_are_keyed_by_their_path() -> None:
    load()
    with pytest.raises(ValidationError) as exc:
        validate(TABLE["content_create"], {"collection": "posts", "data": {}, "terms": {"tag": ["ok", ""]}})
    assert exc.value.details == {"fields": {"terms.tag.1": "must have at least 1 characters"}}


@pytest.mark.django_db
def test_an_integer_valued_limit_is_accepted_over_mcp(mcp, posts) -> None:
    result = mcp.ok("content_list", {"collection": "posts", "limit": 3.0})
    assert result == {"items": []}


def test_the_registry_serves_operations_as_tools() -> None:
    registry.load_tools()
    for op in operations():
        tool = registry.REGISTRY.get(op.name)
        assert (tool is not None) == op.mcp, op.name
        if tool is not None:
            assert tool.operation is op and tool.input_schema is op.schema
