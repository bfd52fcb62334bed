"""The ``references`` field type (SPEC 10): an ordered list of items of one or more target collections, written as
ids or slugs, read with each target's {id, collection, slug, title, status}, ``validation.max``, targets deleted
independently, and ``filter.fields.<field>`` matching "contains"."""

from __future__ import annotations

from typing import Any

import pytest

from content.entries import services
from tests.factories import SYSTEM, make_collection
from tests.mcp.conftest import MCP

pytestmark = pytest.mark.django_db
TITLE = {"slug": "title", "label": "Title", "type": "string", "required": True}


@pytest.fixture
def recipes(cms: None) -> None:
    make_collection("ingredients", fields=[TITLE])
    make_collection("tools", fields=[TITLE])
    related = {
        "slug": "uses",
        "label": "Uses",
        "type": "references",
        "options": {"collections": ["ingredients", "tools"]},
        "validation": {"max": 3},
    }
    make_collection("recipes", fields=[TITLE, related])


def made(collection: str, title: str, status: str = "published") -> Any:
    return services.entry_create(actor=SYSTEM, collection=collection, data={"title": title}, status=status)


def test_ids_and_slugs_of_several_collections_keep_their_order(recipes: None, mcp: MCP) -> None:
    flour, whisk = made("ingredients", "Flour"), made("tools", "Whisk")
    sugar = made("ingredients", "Sugar", status="draft")
    data = {"title": "Cake", "uses": ["whisk", flour.id.lower(), sugar.id]}
    item = mcp.ok("content_create", {"collection": "recipes", "data": data})["item"]
    assert item["data"]["uses"] == [
        {"id": whisk.id, "collection": "tools", "slug": "whisk", "title": "Whisk", "status": "published"},
        {"id": flour.id, "collection": "ingredients", "slug": "flour", "title": "Flour", "status": "published"},
        {"id": sugar.id, "collection": "ingredients", "slug": "sugar", "title": "Sugar", "status": "draft"},
    ]
    listed = mcp.ok("content_list", {"collection": "recipes"})["items"][0]["data"]["uses"]
    assert [u["slug"] for u in listed] == ["whisk", "flour", "sugar"]


def test_bad_lists_are_refused_with_the_item_named(recipes: None, mcp: MCP) -> None:
    flour = made("ingredients", "Flour")
    cases = [
        ({"title": "A", "uses": ["nope"]}, "data.uses[0]"),
        ({"title": "A", "uses": "flour"}, "data.uses"),
        ({"title": "A", "uses": ["flour", flour.id]}, "listed twice"),
        ({"title": "A", "uses": [made("ingredients", f"I{n}").id for n in range(4)]}, "at most 3"),
    ]
    for data, said in cases:
        result = mcp.fails("content_create", {"collection": "recipes", "data": data})
        assert result["_meta"]["code"] == "VALIDATION_ERROR" and said in result["content"][0]["text"], data
    assert mcp.ok("content_list", {"collection": "recipes"})["items"] == []


def test_deleting_a_target_leaves_the_others(recipes: None, mcp: MCP) -> None:
    flour, whisk = made("ingredients", "Flour"), made("tools", "Whisk")
    item = mcp.ok("content_create", {"collection": "recipes", "data": {"title": "Cake", "uses": [flour.id, whisk.id]}})
    services.entry_trash(actor=SYSTEM, collection="ingredients", id=flour.id)
    services.entry_delete_permanently(actor=SYSTEM, collection="ingredients", id=flour.id)
    got = mcp.ok("content_get", {"collection": "recipes", "id": item["item"]["id"]})["item"]["data"]["uses"]
    assert [u["id"] for u in got] == [whisk.id]


def test_the_filter_matches_items_whose_list_contains_the_id(recipes: None, mcp: MCP) -> None:
    flour, whisk = made("ingredients", "Flour"), made("tools", "Whisk")
    mcp.ok("content_create", {"collection": "recipes", "data": {"title": "Cake", "uses": [flour.id, whisk.id]}})
    mcp.ok("content_create", {"collection": "recipes", "data": {"title": "Tea", "uses": [whisk.id]}})
    mcp.ok("content_create", {"collection": "recipes", "data": {"title": "Toast"}})
    found = mcp.ok("content_list", {"collection": "recipes", "filter": {"fields": {"uses": flour.id}}})["items"]
    assert [i["data"]["title"] for i in found] == ["Cake"]
    both = mcp.ok("content_list", {"collection": "recipes", "filter": {"fields": {"uses": whisk.id}}})["items"]
    assert sorted(i["data"]["title"] for i in both) == ["Cake", "Tea"]


def test_the_field_definition_needs_existing_target_collections(recipes: None, mcp: MCP) -> None:
    field = {"collection": "recipes", "slug": "more", "label": "More", "type": "references"}
    assert "options.collections" in mcp.fails("schema_create_field", field)["content"][0]["text"]
    bad = mcp.fails("schema_create_field", {**field, "options": {"collections": ["ghosts"]}})
    assert "options.collections" in bad["content"][0]["text"]
    made = mcp.ok("schema_create_field", {**field, "options": {"collections": ["tools"]}, "validation": {"max": 2}})
    assert made["options"] == {"collections": ["tools"]} and made["validation"] == {"max": 2}
    schema = mcp.ok("schema_get_collection", {"slug": "recipes"})
    uses = next(f for f in schema["fields"] if f["slug"] == "uses")
    assert uses["type"] == "references" and uses["options"]["collections"] == ["ingredients", "tools"]


def test_a_target_collection_cannot_be_dropped_while_referenced(recipes: None, mcp: MCP) -> None:
    refused = mcp.fails("schema_delete_collection", {"slug": "tools", "force": True})
    assert refused["_meta"]["code"] == "CONFLICT" and "recipes.uses" in refused["content"][0]["text"]


def test_the_public_reader_sees_published_targets_only(recipes: None, make_mcp: Any) -> None:
    flour, sugar = made("ingredients", "Flour"), made("ingredients", "Sugar", status="draft")
    services.entry_create(
        actor=SYSTEM, collection="recipes", data={"title": "Cake", "uses": [flour.id, sugar.id]}, status="published"
    )
    reader = make_mcp("subscriber", "content:read")
    listed = reader.ok("content_list", {"collection": "recipes"})["items"][0]["data"]["uses"]
    assert [u["slug"] for u in listed] == ["flour"]
