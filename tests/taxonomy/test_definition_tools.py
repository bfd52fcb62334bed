"""Taxonomy definitions as MCP tools (SPEC 10; emdash-cms/emdash#2798): taxonomy_create, taxonomy_update and
taxonomy_delete, taxonomies:manage and editor and up. The "recipes" task an assistant could not finish: a new
collection, a taxonomy attached to it, an item with terms, all over MCP."""

from __future__ import annotations

from typing import Any

import pytest

from emdash.roles import Role
from taxonomy.models import TaxonomyDefinition, Term
from tests.mcp.conftest import MCP, MakeMCP

pytestmark = pytest.mark.django_db(transaction=True)
TOOLS = {
    "taxonomy_create": (False, False, False),
    "taxonomy_update": (False, False, True),
    "taxonomy_delete": (False, True, False),
}


def _text(result: dict[str, Any]) -> str:
    return str(result["content"][0]["text"])


def test_the_tools_are_listed_with_scope_role_and_hints(mcp: MCP) -> None:
    listed = {t["name"]: t for t in mcp.result("tools/list", version="2025-11-25")["tools"]}
    for name, (read_only, destructive, idempotent) in TOOLS.items():
        tool = listed[name]
        assert tool["_meta"] == {
            "emdash/scope": "taxonomies:manage",
            "emdash/minRole": "editor",
            "emdash/category": "taxonomy",
        }
        assert tool["annotations"]["readOnlyHint"] is read_only
        assert tool["annotations"]["destructiveHint"] is destructive
        assert tool["annotations"]["idempotentHint"] is idempotent
        assert "outputSchema" in tool


def test_the_recipes_task_runs_over_mcp_alone(mcp: MCP, posts: Any) -> None:
    mcp.ok("schema_create_collection", {"collection": "recipes", "label": "Recipes"})
    mcp.ok("schema_create_field", {"collection": "recipes", "slug": "title", "label": "Title", "type": "string"})
    item = {"collection": "recipes", "data": {"title": "Soup"}, "terms": {"category": ["dinner"]}}
    refused = mcp.fails("content_create", item)
    assert refused["_meta"]["code"] == "VALIDATION_ERROR"
    message = refused["_meta"]["details"]["fields"]["terms.category"]
    assert "does not apply to collection 'recipes'" in message and "taxonomy_update" in message

    current = next(t for t in mcp.ok("taxonomy_list")["taxonomies"] if t["name"] == "category")
    updated = mcp.ok("taxonomy_update", {"name": "category", "collections": [*current["collections"], "recipes"]})
    assert "recipes" in updated["taxonomy"]["collections"]
    mcp.ok("taxonomy_create_term", {"taxonomy": "category", "slug": "dinner", "label": "Dinner"})
    made = mcp.ok("content_create", item)
    assert [t["slug"] for t in made["item"]["terms"]["category"]] == ["dinner"]


def test_create_update_delete_a_taxonomy(mcp: MCP, posts: Any) -> None:
    made = mcp.ok(
        "taxonomy_create",
        {
            "name": "cuisine",
            "label": "Cuisines",
            "labelSingular": "Cuisine",
            "hierarchical": True,
            "collections": ["posts"],
        },
    )
    assert made == {
        "taxonomy": {
            "name": "cuisine",
            "label": "Cuisines",
            "labelSingular": "Cuisine",
            "hierarchical": True,
            "collections": ["posts"],
        }
    }
    assert mcp.ok("taxonomy_update", {"name": "cuisine", "label": "Kitchens"})["taxonomy"]["label"] == "Kitchens"
    mcp.ok("taxonomy_create_term", {"taxonomy": "cuisine", "slug": "thai", "label": "Thai"})
    assert mcp.ok("taxonomy_delete", {"name": "cuisine"}) == {"deleted": True}
    assert not TaxonomyDefinition.objects.filter(name="cuisine").exists()
    assert not Term.objects.filter(slug="thai").exists()
    gone = mcp.fails("taxonomy_delete", {"name": "cuisine"})
    assert gone["_meta"]["code"] == "NOT_FOUND" and "taxonomy_create adds one" in _text(gone)


def test_an_unknown_collection_is_refused_naming_the_known_ones_and_nothing_is_made(mcp: MCP, posts: Any) -> None:
    result = mcp.fails("taxonomy_create", {"name": "genre", "label": "Genres", "collections": ["books"]})
    assert result["_meta"]["code"] == "VALIDATION_ERROR"
    assert "books" in _text(result) and "known: posts" in _text(result)
    assert not TaxonomyDefinition.objects.filter(name="genre").exists()


def test_an_author_may_not_define_taxonomies(make_mcp: MakeMCP, posts: Any) -> None:
    author = make_mcp(Role.AUTHOR, "taxonomies:manage")
    answer = author.rpc("tools/call", {"name": "taxonomy_create", "arguments": {"name": "genre", "label": "Genres"}})
    assert "error" in answer or answer["result"]["isError"] is True
    assert not TaxonomyDefinition.objects.filter(name="genre").exists()
