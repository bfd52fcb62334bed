"""The 6 menu tools, in-process through POST /_emdash/api/mcp."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from emdash.roles import Role
from mcp_endpoint import registry
from menus.models import Menu, MenuItem
from tests.factories import make_entry
from tests.mcp.conftest import MCP, MakeMCP

TOOLS = {
    "menu_list": ("content:read", "subscriber", True, False),
    "menu_get": ("content:read", "subscriber", True, False),
    "menu_create": ("menus:manage", "editor", False, False),
    "menu_update": ("menus:manage", "editor", False, False),
    "menu_delete": ("menus:manage", "editor", False, True),
    "menu_set_items": ("menus:manage", "editor", False, False),
}


def code_of(result: dict[str, Any]) -> str:
    return result["_meta"]["code"]


def structured(mcp: MCP, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """Call at a version with structured output and check it against the tool's outputSchema."""
    result = mcp.call(name, arguments, version="2025-11-25")
    assert result["isError"] is False, result
    Draft202012Validator(registry.REGISTRY[name].output_schema).validate(result["structuredContent"])
    return result["structuredContent"]


@pytest.mark.django_db
def test_the_tools_are_listed_with_their_scope_role_and_hints(mcp: MCP) -> None:
    listed = {t["name"]: t for t in mcp.result("tools/list", version="2025-11-25")["tools"]}
    for name, (scope, role, read_only, destructive) in TOOLS.items():
        tool = listed[name]
        assert tool["_meta"] == {"emdash/scope": scope, "emdash/minRole": role, "emdash/category": "menu"}
        assert tool["annotations"]["readOnlyHint"] is read_only, name
        assert tool["annotations"]["destructiveHint"] is destructive, name


@pytest.mark.django_db
def test_menu_lifecycle(mcp: MCP) -> None:
    created = structured(mcp, "menu_create", {"name": "primary", "label": "Primary"})
    assert (created["name"], created["itemCount"], created["items"]) == ("primary", 0, [])
    duplicate = mcp.fails("menu_create", {"name": "primary", "label": "Again"})
    assert code_of(duplicate) == "CONFLICT"
    bad_name = mcp.fails("menu_create", {"name": "Primary Menu", "label": "X"})
    assert code_of(bad_name) == "VALIDATION_ERROR"
    assert structured(mcp, "menu_update", {"name": "primary", "label": "Main"})["label"] == "Main"
    renamed = mcp.fails("menu_update", {"name": "primary", "label": "X", "newName": "other"})
    assert code_of(renamed) == "VALIDATION_ERROR"  # the name is immutable: no argument changes it
    items = [
        {"label": "Home", "type": "custom", "customUrl": "/"},
        {"label": "Docs", "type": "custom", "customUrl": "https://docs.example.com", "target": "_blank"},
        {"label": "API", "type": "custom", "customUrl": "/docs/api/", "parentIndex": 1},
    ]
    assert structured(mcp, "menu_set_items", {"name": "primary", "items": items}) == {
        "name": "primary",
        "itemCount": 3,
    }
    got = structured(mcp, "menu_get", {"name": "primary"})
    assert [(i["label"], i["url"], i["parentIndex"]) for i in got["items"]] == [
        ("Home", "/", None),
        ("Docs", "https://docs.example.com", None),
        ("API", "/docs/api/", 1),
    ]
    listed = structured(mcp, "menu_list", {})
    assert listed["items"][0]["name"] == "primary" and listed["items"][0]["itemCount"] == 3
    assert mcp.ok("menu_delete", {"name": "primary"}) == {"deleted": True}
    assert code_of(mcp.fails("menu_get", {"name": "primary"})) == "NOT_FOUND"
    assert not MenuItem.objects.exists()


@pytest.mark.django_db
def test_forward_parent_index_over_mcp_names_the_item_and_changes_nothing(mcp: MCP) -> None:
    mcp.ok("menu_create", {"name": "primary", "label": "Primary"})
    mcp.ok("menu_set_items", {"name": "primary", "items": [{"label": "Kept", "type": "custom", "customUrl": "/"}]})
    result = mcp.fails(
        "menu_set_items",
        {
            "name": "primary",
            "items": [
                {"label": "A", "type": "custom", "customUrl": "/a/", "parentIndex": 1},
                {"label": "B", "type": "custom", "customUrl": "/b/"},
            ],
        },
    )
    assert code_of(result) == "VALIDATION_ERROR"
    assert "items.0.parentIndex" in result["_meta"]["details"]["fields"]
    assert "items.0" in result["content"][0]["text"]
    assert [i["label"] for i in mcp.ok("menu_get", {"name": "primary"})["items"]] == ["Kept"]


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["javascript:alert(1)", " JaVaScRiPt:alert(1)", "java\tscript:x", "\x01javascript:x"])
def test_javascript_urls_are_refused_over_mcp(mcp: MCP, url: str) -> None:
    mcp.ok("menu_create", {"name": "primary", "label": "Primary"})
    result = mcp.fails(
        "menu_set_items", {"name": "primary", "items": [{"label": "X", "type": "custom", "customUrl": url}]}
    )
    assert code_of(result) == "VALIDATION_ERROR"
    assert "items.0.customUrl" in result["_meta"]["details"]["fields"]
    assert not MenuItem.objects.exists()


@pytest.mark.usefixtures("posts")
def test_references_over_mcp(mcp: MCP) -> None:
    entry = make_entry(data={"title": "Launch"}, status="published")
    mcp.ok("menu_create", {"name": "primary", "label": "Primary"})
    mcp.ok(
        "menu_set_items",
        {
            "name": "primary",
            "items": [
                {"label": "Launch", "type": "post", "referenceId": "launch"},
                {"label": "Blog", "type": "collection", "referenceCollection": "posts"},
            ],
        },
    )
    items = structured(mcp, "menu_get", {"name": "primary"})["items"]
    assert [(i["url"], i["referenceId"]) for i in items] == [("/posts/launch/", entry.id), ("/posts/", None)]
    missing = mcp.fails(
        "menu_set_items", {"name": "primary", "items": [{"label": "X", "type": "post", "referenceId": "nope"}]}
    )
    assert code_of(missing) == "VALIDATION_ERROR"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("role", "scopes", "outcome"),
    [
        (Role.EDITOR, "menus:manage", "ok"),
        (Role.EDITOR, "content:write", "ok"),  # content:write implies menus:manage
        (Role.EDITOR, "content:read", "INSUFFICIENT_SCOPE"),
        (Role.EDITOR, "taxonomies:manage", "INSUFFICIENT_SCOPE"),
        (Role.AUTHOR, "admin", "INSUFFICIENT_PERMISSIONS"),
        (Role.CONTRIBUTOR, "menus:manage", "INSUFFICIENT_PERMISSIONS"),
    ],
)
def test_who_may_manage_menus(make_mcp: MakeMCP, role: Role, scopes: str, outcome: str) -> None:
    client = make_mcp(role, scopes)
    args = {"name": "primary", "label": "Primary"}
    if outcome == "ok":
        client.ok("menu_create", args)
        assert Menu.objects.count() == 1
        return
    status = 403 if outcome == "INSUFFICIENT_SCOPE" else 200  # a missing scope is a step-up challenge
    error = client.error("tools/call", {"name": "menu_create", "arguments": args}, status=status)
    assert error["data"]["code"] == outcome
    if outcome == "INSUFFICIENT_SCOPE":
        assert error["data"]["requiredScope"] == "menus:manage"
    assert not Menu.objects.exists()


@pytest.mark.django_db
def test_subscribers_read_menus(make_mcp: MakeMCP, mcp: MCP) -> None:
    mcp.ok("menu_create", {"name": "footer", "label": "Footer"})
    reader = make_mcp(Role.SUBSCRIBER, "content:read")
    assert [m["name"] for m in reader.ok("menu_list", {})["items"]] == ["footer"]
    assert reader.ok("menu_get", {"name": "footer"})["label"] == "Footer"
    error = reader.error("tools/call", {"name": "menu_delete", "arguments": {"name": "footer"}}, status=403)
    assert error["data"]["code"] == "INSUFFICIENT_SCOPE"
