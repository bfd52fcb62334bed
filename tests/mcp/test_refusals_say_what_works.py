"""Every refusal says what would work (SPEC 10): an unknown menu lists the menus, an unknown taxonomy, collection
or field lists the known ones, a missing term names the tool that lists them."""

from __future__ import annotations

from typing import Any

import pytest

from tests.mcp.conftest import MCP

pytestmark = pytest.mark.django_db(transaction=True)


def _refusal(mcp: MCP, name: str, args: dict[str, Any], code: str = "NOT_FOUND") -> str:
    result = mcp.fails(name, args)
    assert result["_meta"]["code"] == code
    return str(result["content"][0]["text"])


def test_an_unknown_menu_lists_the_menus(mcp: MCP) -> None:
    mcp.ok("menu_create", {"name": "footer", "label": "Footer"})
    mcp.ok("menu_create", {"name": "main", "label": "Main"})
    text = _refusal(mcp, "menu_get", {"name": "mian"})
    assert "Menu 'mian' not found" in text and "known: footer, main" in text


def test_an_unknown_menu_on_an_empty_site_says_how_to_make_one(mcp: MCP) -> None:
    text = _refusal(mcp, "menu_set_items", {"name": "main", "items": []})
    assert "no menus yet" in text and "menu_create" in text


def test_an_unknown_taxonomy_lists_the_taxonomies(mcp: MCP) -> None:
    text = _refusal(mcp, "taxonomy_list_terms", {"taxonomy": "categories"})
    assert "known: category, tag" in text and "taxonomy_create" in text


def test_an_unknown_term_names_the_tool_that_lists_them(mcp: MCP) -> None:
    text = _refusal(mcp, "taxonomy_update_term", {"taxonomy": "tag", "termSlug": "nope", "label": "X"})
    assert "taxonomy_list_terms" in text


def test_an_unknown_collection_lists_the_collections(mcp: MCP, posts: Any) -> None:
    # mcp_endpoint/hints.py lists them to a caller who may read content (anyone else learns nothing).
    text = _refusal(mcp, "content_list", {"collection": "post"}, code="COLLECTION_NOT_FOUND")
    assert "Available collections: posts." in text


def test_an_unknown_field_lists_the_fields(mcp: MCP, posts: Any) -> None:
    args = {"collection": "posts", "fieldSlug": "titel", "label": "X"}
    text = _refusal(mcp, "schema_update_field", args, code="FIELD_NOT_FOUND")
    assert "known: title, excerpt, body" in text
