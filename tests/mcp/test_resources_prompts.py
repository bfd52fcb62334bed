"""MCP resources, resource templates, prompts and completions (SPEC 10), in process: served from 2025-06-18 on,
advertised only there, scope-checked like the tools they mirror, with clear errors for bad params."""

from __future__ import annotations

import json

import pytest

from audit.models import AuditLog
from content.changesets import services as changesets
from emdash.actor import Actor
from emdash.roles import Role
from tests.factories import make_collection, make_user
from tests.mcp.conftest import MCP, MakeMCP

NEW = ["2025-06-18", "2025-11-25"]
OLD = ["2024-11-05", "2025-03-26"]
METHOD_NOT_FOUND, INVALID_PARAMS, RESOURCE_NOT_FOUND = -32601, -32602, -32002


@pytest.fixture
def recipes(cms):
    return make_collection(
        "recipes",
        fields=[
            {"slug": "title", "label": "Title", "type": "string", "required": True},
            {"slug": "course", "label": "Course", "type": "select", "validation": {"options": ["starter", "main"]}},
            {"slug": "body", "label": "Method", "type": "portableText"},
        ],
    )


def initialize(mcp: MCP, version: str) -> dict:
    return mcp.result(
        "initialize",
        {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
        version=version,
    )


@pytest.mark.parametrize("version", NEW)
def test_capabilities_are_advertised_from_2025_06_18(mcp: MCP, version: str) -> None:
    caps = initialize(mcp, version)["capabilities"]
    assert caps["resources"] == {"listChanged": False}
    assert caps["prompts"] == {"listChanged": False}
    assert caps["completions"] == {}


@pytest.mark.parametrize("version", OLD)
def test_older_versions_see_neither_capabilities_nor_methods(mcp: MCP, version: str) -> None:
    caps = initialize(mcp, version)["capabilities"]
    assert not {"resources", "prompts", "completions"} & set(caps)
    for method in ("resources/list", "resources/templates/list", "prompts/list"):
        assert mcp.error(method, {}, version=version)["code"] == METHOD_NOT_FOUND
    assert mcp.error("resources/read", {"uri": "emdash://guide"}, version=version)["code"] == METHOD_NOT_FOUND


def test_lists(mcp: MCP) -> None:
    listed = mcp.result("resources/list", {}, version="2025-06-18")["resources"]
    assert [r["uri"] for r in listed] == ["emdash://schema", "emdash://settings", "emdash://guide"]
    assert {r["mimeType"] for r in listed} == {"application/json", "text/markdown"}
    templates = mcp.result("resources/templates/list", {}, version="2025-06-18")["resourceTemplates"]
    assert [t["uriTemplate"] for t in templates] == ["emdash://schema/{collection}"]
    prompts = {p["name"]: p for p in mcp.result("prompts/list", {}, version="2025-06-18")["prompts"]}
    assert set(prompts) == {"write_item", "review_changeset", "audit_content"}
    assert [a["name"] for a in prompts["write_item"]["arguments"]] == ["collection", "topic"]
    assert mcp.error("prompts/list", {"cursor": "x"}, version="2025-06-18")["code"] == INVALID_PARAMS


def read(mcp: MCP, uri: str, version: str = "2025-06-18") -> dict:
    return mcp.result("resources/read", {"uri": uri}, version=version)["contents"][0]


def test_schema_resources(recipes, mcp: MCP) -> None:
    whole = read(mcp, "emdash://schema")
    assert whole["mimeType"] == "application/json" and whole["uri"] == "emdash://schema"
    collections = json.loads(whole["text"])["collections"]
    recipe = next(c for c in collections if c["slug"] == "recipes")
    assert [f["slug"] for f in recipe["fields"]] == ["title", "course", "body"]
    one = json.loads(read(mcp, "emdash://schema/recipes")["text"])
    assert one["slug"] == "recipes" and one["fields"][1]["validation"] == {"options": ["starter", "main"]}


def test_settings_and_guide_resources(cms, mcp: MCP) -> None:
    mcp.ok("settings_update", {"title": "Cookbook", "editorialGuide": "# House style\n\nUse metric units."})
    assert json.loads(read(mcp, "emdash://settings")["text"])["title"] == "Cookbook"
    guide = read(mcp, "emdash://guide")
    assert guide == {"uri": "emdash://guide", "mimeType": "text/markdown", "text": "# House style\n\nUse metric units."}
    assert mcp.ok("settings_get")["editorialGuide"] == "# House style\n\nUse metric units."


def test_unknown_resources_say_what_exists(recipes, mcp: MCP) -> None:
    error = mcp.error("resources/read", {"uri": "emdash://nothing"}, version="2025-06-18")
    assert error["code"] == RESOURCE_NOT_FOUND and error["data"] == {"uri": "emdash://nothing"}
    assert "emdash://schema/{collection}" in error["message"]
    missing = mcp.error("resources/read", {"uri": "emdash://schema/nope"}, version="2025-11-25")
    assert missing["code"] == RESOURCE_NOT_FOUND and "recipes" in missing["message"]
    assert mcp.error("resources/read", {}, version="2025-06-18")["code"] == INVALID_PARAMS


def test_reads_are_scope_checked_like_their_tools(recipes, make_mcp: MakeMCP) -> None:
    writer = make_mcp("author", "content:read content:write")
    assert read(writer, "emdash://guide")["mimeType"] == "text/markdown"  # writers need the guide
    response = writer.post(
        {"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"uri": "emdash://schema/recipes"}},
        version="2025-06-18",
    )
    assert response.status_code == 403 and "insufficient_scope" in response["WWW-Authenticate"]
    error = writer.error("resources/read", {"uri": "emdash://settings"}, version="2025-06-18", status=403)
    assert error["data"] == {"code": "INSUFFICIENT_SCOPE", "requiredScope": "settings:read"}
    low_role = make_mcp("author", "schema:read")
    denied = low_role.error("resources/read", {"uri": "emdash://schema"}, version="2025-06-18")
    assert denied["data"]["code"] == "INSUFFICIENT_PERMISSIONS"
    assert AuditLog.objects.filter(action="resources/read", outcome="INSUFFICIENT_SCOPE").exists()


def test_write_item_prompt_carries_the_fields_the_guide_and_the_way_to_submit(recipes, mcp: MCP) -> None:
    mcp.ok("settings_update", {"editorialGuide": "Always give quantities in grams."})
    got = mcp.result(
        "prompts/get",
        {"name": "write_item", "arguments": {"collection": "recipes", "topic": "Leek soup"}},
        version="2025-06-18",
    )
    text = got["messages"][0]["content"]["text"]
    assert got["messages"][0]["role"] == "user"
    assert "Leek soup" in text and "`course` (select, optional): Course; one of: starter, main" in text
    assert "Always give quantities in grams." in text and "content_create" in text


def test_prompt_errors_name_what_works(recipes, mcp: MCP) -> None:
    def error(params):
        return mcp.error("prompts/get", params, version="2025-06-18")

    unknown = error({"name": "nope"})
    assert unknown["code"] == INVALID_PARAMS and "write_item" in unknown["message"]
    missing = error({"name": "write_item", "arguments": {"collection": "recipes"}})
    assert "'topic' is required" in missing["message"]
    extra = error({"name": "audit_content", "arguments": {"collection": "recipes", "bogus": "x"}})
    assert "unknown argument 'bogus'" in extra["message"]
    no_collection = error({"name": "audit_content", "arguments": {"collection": "soups"}})
    assert "collections: recipes" in no_collection["message"]


def test_prompts_are_permission_checked(recipes, make_mcp: MakeMCP) -> None:
    reader = make_mcp("subscriber", "content:read")
    args = {"name": "audit_content", "arguments": {"collection": "recipes"}}
    assert reader.error("prompts/get", args, version="2025-06-18")["data"]["code"] == "INSUFFICIENT_PERMISSIONS"
    proposal = changesets.changeset_create(actor=Actor.for_user(make_user(Role.AUTHOR)), title="Spring menu")
    contributor = make_mcp("contributor", "content:read")
    got = contributor.result(
        "prompts/get", {"name": "review_changeset", "arguments": {"id": proposal.id}}, version="2025-06-18"
    )
    assert f'"Spring menu" (`{proposal.id}`)' in got["messages"][0]["content"]["text"]
    unknown = contributor.error(
        "prompts/get", {"name": "review_changeset", "arguments": {"id": "cs1"}}, version="2025-06-18"
    )
    assert unknown["code"] == INVALID_PARAMS and "no change set 'cs1'" in unknown["message"]


def test_completion_of_collections_taxonomies_and_menus(recipes, mcp: MCP, make_mcp: MakeMCP) -> None:
    make_collection("reviews", fields=[{"slug": "title", "label": "Title", "type": "string"}])
    mcp.ok("menu_create", {"name": "main", "label": "Main"})

    def complete(ref, name, value=""):
        params = {"ref": ref, "argument": {"name": name, "value": value}}
        return mcp.result("completion/complete", params, version="2025-06-18")["completion"]

    prompt = {"type": "ref/prompt", "name": "write_item"}
    assert complete(prompt, "collection", "re") == {"values": ["recipes", "reviews"], "total": 2, "hasMore": False}
    assert complete(prompt, "collection", "REC")["values"] == ["recipes"]
    template = {"type": "ref/resource", "uri": "emdash://schema/{collection}"}
    assert complete(template, "collection", "rev")["values"] == ["reviews"]
    assert complete(prompt, "menu")["values"] == ["main"]
    assert complete(prompt, "topic")["values"] == []
    schema_reader = make_mcp("editor", "schema:read")
    offered = schema_reader.result(
        "completion/complete",
        {"ref": template, "argument": {"name": "collection", "value": "rec"}},
        version="2025-06-18",
    )
    assert offered["completion"]["values"] == ["recipes"], "who may read the template is offered its values"
    bad = mcp.error(
        "completion/complete",
        {"ref": {"type": "ref/prompt", "name": "x"}, "argument": {"name": "a"}},
        version="2025-06-18",
    )
    assert bad["code"] == INVALID_PARAMS


def test_the_modern_revision_gets_caching_hints(recipes, mcp: MCP) -> None:
    listed = mcp.result("resources/list", {}, version="2026-07-28")
    assert listed["cacheScope"] == "public" and listed["ttlMs"] > 0 and listed["resultType"] == "complete"
    got = mcp.result("resources/read", {"uri": "emdash://guide"}, version="2026-07-28")
    assert got["cacheScope"] == "private" and got["ttlMs"] == 0
    error = mcp.error("resources/read", {"uri": "emdash://nothing"}, version="2026-07-28")
    assert error["code"] == INVALID_PARAMS and error["data"] == {"uri": "emdash://nothing"}  # SEP-2164


def test_discover_advertises_them(mcp: MCP) -> None:
    from tests.mcp.conftest import modern_meta

    caps = mcp.result("server/discover", modern_meta(), version="2026-07-28")["capabilities"]
    assert {"resources", "prompts", "completions"} <= set(caps)
