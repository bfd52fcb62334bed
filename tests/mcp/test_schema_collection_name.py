"""The schema tools name a collection ``collection`` as every other tool does; ``slug`` stays accepted as the
old name (SPEC 10: one name for one thing, no breaking change)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def test_schema_get_collection_takes_collection_and_still_slug(mcp, posts) -> None:
    assert mcp.ok("schema_get_collection", {"collection": "posts"})["slug"] == "posts"
    assert mcp.ok("schema_get_collection", {"slug": "posts"})["slug"] == "posts"


def test_the_published_schema_names_collection_and_requires_it(mcp) -> None:
    tools = {t["name"]: t for t in mcp.result("tools/list", version="2025-06-18")["tools"]}
    for name in ("schema_get_collection", "schema_update_collection", "schema_delete_collection"):
        schema = tools[name]["inputSchema"]
        assert "collection" in schema["required"] and "slug" not in schema["properties"], name


def test_update_and_delete_take_collection(mcp, posts) -> None:
    mcp.ok("schema_create_collection", {"collection": "notes", "label": "Notes"})
    updated = mcp.ok("schema_update_collection", {"collection": "notes", "description": "Short ones"})
    assert updated["description"] == "Short ones"
    assert mcp.ok("schema_update_collection", {"slug": "notes", "icon": "file"})["icon"] == "file"
    assert mcp.ok("schema_delete_collection", {"collection": "notes"}) == {"deleted": "notes"}


def test_both_names_with_different_values_are_refused_and_change_nothing(mcp, posts) -> None:
    result = mcp.fails("schema_update_collection", {"collection": "posts", "slug": "pages", "description": "x"})
    assert result["_meta"]["code"] == "VALIDATION_ERROR"
    assert "send collection only" in result["content"][0]["text"]
    assert mcp.ok("schema_get_collection", {"collection": "posts"}).get("description") != "x"


def test_an_unknown_collection_is_not_found(mcp, posts) -> None:
    result = mcp.fails("schema_get_collection", {"collection": "nope"})
    assert result["_meta"]["code"] == "COLLECTION_NOT_FOUND"
