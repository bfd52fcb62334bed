"""What tools/list costs a client and a model: byte budgets per protocol version, described inputs, shapes once.

The figures (before/after) are in docs/mcp-wire-notes.md ("Size of tools/list"). The model-facing part is
what a model reads of each tool: name, description and inputSchema, as compact JSON.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import orjson
import pytest

from emdash.operations import shapes
from emdash.operations.record import TABLE, load
from mcp_endpoint import dispatch, versions

# Ceilings a little above today's sizes: a change that makes the list grow has to raise them on purpose.
# 2025-06-18 and later: media results gained focalPoint, renditions and srcset (SPEC 11), +500 bytes;
# import_wordpress (SPEC 12) about 1 KB more.
# SPEC 10: one type per schema (anyOf branches instead of type arrays), about +1.8 KB at 2025-06-18; five more tools
# (taxonomy_create/_update/_delete, media_upload_url, media_confirm), about +6 KB; media_usage_repair and media usage
# (usage, usageCount, media_delete's force), about 1.8 KB; settings_update's editorialGuide, about 140 bytes; the 6
# byline tools, items' bylines/byline, locale and translationOf on terms and menus, taxonomy_term_translations and
# menu_translations, options.collections of references fields: +11.1 KB (+6.6 KB model-facing).
# content:draft (SPEC 9.1): six tools say "Needs content:write or content:draft", +110 bytes. SPEC 9.3:
# revision_list items' via (+360 bytes) and changes_revert (about 2 KB). SPEC 9.2: the nine changeset_* tools,
# +6.4 KB without output schemas, +10.1 KB with them (the change set shape listed once, by changeset_list).
# Branch parity: taxonomy_list_terms' locale, revision_list items' bylines, byline_delete's {deleted: id}, the term
# translations' id naming a group: +104 bytes (model-facing +104), +350 from 2025-06-18 (docs/mcp-wire-notes.md).
# Branch parity, later: taxonomy_create_term's slug optional (made from the label), byline_translations' items
# beside translations (EmDash's shape), termSlug naming the default locale's term first: +94 bytes (model-facing
# +94), +198 from 2025-06-18.
# Branch hardening: revision_restore's output names droppedMedia and note (a restore with deleted media): +341
# bytes from 2025-06-18, nothing model-facing.
WHOLE_MAX = {"2024-11-05": 74_500, "2025-03-26": 74_500, "2025-06-18": 100_300, "2025-11-25": 103_200}
WHOLE_MAX[versions.MODERN] = WHOLE_MAX["2025-06-18"]  # lists no execution (SPEC 5.6: the tasks extension)
MODEL_MAX = 55_700  # media_update.focalPoint (SPEC 11), import_wordpress (SPEC 12), SPEC 9 and SPEC 10


def model_facing(tools: list[dict[str, Any]]) -> int:
    return len(orjson.dumps([{k: tool[k] for k in ("name", "description", "inputSchema")} for tool in tools]))


@pytest.mark.parametrize("version", versions.SUPPORTED)
def test_the_list_stays_within_its_byte_budget(version: str) -> None:
    tools = dispatch.tool_definitions(version)
    assert len(orjson.dumps(tools)) <= WHOLE_MAX[version]
    assert model_facing(tools) <= MODEL_MAX
    assert len(tools) == len([op for op in load().values() if op.mcp])


def _properties(schema: dict[str, Any], path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every property of an input schema, nested objects and array items included."""
    for name, sub in schema.get("properties", {}).items():
        yield f"{path}.{name}", sub
        yield from _properties(sub, f"{path}.{name}")
        items = sub.get("items")
        if isinstance(items, dict):
            yield from _properties(items, f"{path}.{name}[]")


def test_every_input_property_has_a_description() -> None:
    missing = [
        where
        for tool in dispatch.tool_definitions(versions.NEWEST_HANDSHAKE)
        for where, prop in _properties(tool["inputSchema"], tool["name"])
        if not (isinstance(prop.get("description"), str) and prop["description"].strip())
    ]
    assert missing == []


def test_every_description_names_what_the_call_needs() -> None:
    for tool in dispatch.tool_definitions(versions.NEWEST_HANDSHAKE):
        scope, role = tool["_meta"]["emdash/scope"], tool["_meta"]["emdash/minRole"]
        # "Needs content:write (author+...", or with the scopes that also pass: "Needs content:write or content:draft"
        assert re.search(rf"Needs {scope}( or [a-z:]+)* \({role}", tool["description"]), tool["name"]


def _described_shapes(schema: Any) -> Iterator[dict[str, Any]]:
    if isinstance(schema, dict):
        if "properties" in schema:
            yield schema
        for value in schema.values():
            yield from _described_shapes(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from _described_shapes(item)


def test_a_shared_output_shape_is_listed_in_full_once_and_pointed_to_elsewhere() -> None:
    tools = {t["name"]: t for t in dispatch.tool_definitions(versions.NEWEST_HANDSHAKE)}
    # The content item: its translationGroup property is listed by content_get only.
    holders = [
        name
        for name, tool in tools.items()
        if any("translationGroup" in s["properties"] for s in _described_shapes(tool.get("outputSchema")))
        # Their own shapes have a translationGroup too: an item's variants, bylines, terms and menus (SPEC 10).
        and name.split("_")[0] not in ("byline", "taxonomy", "menu")
        and name != "content_translations"
    ]
    assert holders == ["content_get"]
    pointer = tools["content_publish"]["outputSchema"]["properties"]["item"]
    assert pointer == {"type": "object", "description": "Shape of content_get's item"}
    listing = tools["content_list"]["outputSchema"]["properties"]["items"]["items"]
    assert listing["description"].startswith("Shape of content_get's item, data without")
    # OpenAPI and validation keep every shape in full, without the marker.
    assert "translationGroup" in TABLE["content_publish"].output_schema["properties"]["item"]["properties"]
    assert shapes.HOME not in orjson.dumps(TABLE["content_publish"].output_schema).decode()


def test_a_pointer_to_a_tool_that_does_not_list_the_shape_is_refused() -> None:
    from emdash.operations import record

    load()
    saved = dict(record._HOMES)
    try:
        record._HOMES["content_publish"] = {"no_such_tool"}
        with pytest.raises(ValueError, match="no_such_tool"):
            record._check_homes()
    finally:
        record._HOMES.clear()
        record._HOMES.update(saved)


def test_a_second_use_of_a_shape_points_to_it_keeping_its_own_description() -> None:
    tools = {t["name"]: t for t in dispatch.tool_definitions(versions.NEWEST_HANDSHAKE)}
    item = tools["content_get"]["outputSchema"]["properties"]["item"]["properties"]
    assert "properties" in item["seo"]
    assert item["liveSeo"] == {
        "type": "object",
        "description": "The live SEO, when the draft changes it (shape of item.seo)",
    }
    compare = tools["content_compare"]["outputSchema"]["properties"]
    assert compare["liveSeo"]["anyOf"] == [{"type": "object"}, {"type": "null"}]  # one type per schema (SPEC 10)
    assert compare["draftSeo"]["description"].endswith("(shape of content_get's item.seo)")
    # Validation and OpenAPI keep the copies in full.
    assert "noindex" in TABLE["content_compare"].output_schema["properties"]["draftSeo"]["properties"]


def test_an_accepted_alias_is_not_advertised() -> None:
    tool = next(t for t in dispatch.tool_definitions(versions.NEWEST_HANDSHAKE) if t["name"] == "content_list")
    assert not [value for value in tool["inputSchema"]["properties"]["orderBy"]["enum"] if "_" in value]
