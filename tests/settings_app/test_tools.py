"""SPEC 7 settings tools through POST /_emdash/api/mcp: settings_get and settings_update."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from jsonschema import Draft202012Validator

from emdash.actor import Actor
from settings_app import validation
from tests.mcp.conftest import MCP, MakeMCP
from tests.media.helpers import make_media

pytestmark = pytest.mark.django_db
VERSION = "2025-06-18"


def structured(mcp: MCP, name: str, arguments: dict[str, Any]) -> Any:
    schemas = {t["name"]: t.get("outputSchema") for t in mcp.result("tools/list", version=VERSION)["tools"]}
    result = mcp.call(name, arguments, version=VERSION)
    assert result["isError"] is False, result
    payload = orjson.loads(result["content"][0]["text"])
    assert result["structuredContent"] == payload
    errors = [e.message for e in Draft202012Validator(schemas[name]).iter_errors(payload)]
    assert not errors, (name, errors)
    return payload


def _typed(prop: dict) -> dict:
    """A nullable property's non-null branch (``anyOf: [{type: X, ...}, {type: null}]``), else the property."""
    branches = [b for b in prop.get("anyOf", []) if b.get("type") != "null"]
    return branches[0] if len(branches) == 1 else prop


def test_settings_tools_are_listed_with_every_key(mcp: MCP) -> None:
    tools = {t["name"]: t for t in mcp.result("tools/list", version="2025-11-25")["tools"]}
    assert tools["settings_get"]["_meta"] == {
        "emdash/scope": "settings:read",
        "emdash/minRole": "editor",
        "emdash/category": "settings",
    }
    assert tools["settings_update"]["_meta"] == {
        "emdash/scope": "settings:manage",
        "emdash/minRole": "admin",
        "emdash/category": "settings",
    }
    assert tools["settings_get"]["annotations"]["readOnlyHint"] is True
    assert tools["settings_update"]["annotations"]["readOnlyHint"] is False
    schema = tools["settings_update"]["inputSchema"]
    assert list(schema["properties"]) == list(validation.TOP_KEYS)
    props = {name: _typed(prop) for name, prop in schema["properties"].items()}  # one type per schema (SPEC 10)
    assert list(props["social"]["properties"]) == list(validation.SOCIAL_KEYS)
    assert list(props["seo"]["properties"]) == list(validation.SEO_KEYS)
    assert props["postsPerPage"]["minimum"] == 1 and props["postsPerPage"]["maximum"] == 100
    assert schema["additionalProperties"] is False and props["seo"]["additionalProperties"] is False
    assert "required" not in schema


def test_update_and_get_with_resolved_media(mcp: MCP) -> None:
    assert structured(mcp, "settings_get", {}) == {}
    og = make_media(Actor.for_user(mcp.user))
    logo = make_media(Actor.for_user(mcp.user))
    updated = structured(
        mcp,
        "settings_update",
        {
            "title": "EmDash",
            "postsPerPage": 20,
            "logo": {"mediaId": logo.id, "alt": "EmDash logo"},
            "seo": {"defaultOgImage": {"mediaId": og.id}, "titleSeparator": "-"},
            "social": {"github": "https://github.com/emdash-cms"},
        },
    )
    assert updated["seo"]["defaultOgImage"] == {"mediaId": og.id, "url": f"/media/{og.storage_key}"}
    assert updated["logo"]["url"] == f"/media/{logo.storage_key}"
    assert structured(mcp, "settings_get", {}) == updated
    merged = structured(mcp, "settings_update", {"seo": {"robotsTxt": "User-agent: *"}})
    assert merged["seo"]["defaultOgImage"]["mediaId"] == og.id and merged["seo"]["robotsTxt"] == "User-agent: *"


def test_validation_errors_are_tool_errors_and_change_nothing(mcp: MCP) -> None:
    mcp.ok("settings_update", {"title": "Before", "url": "https://ok.example"})
    result = mcp.fails(
        "settings_update",
        {"title": "After", "url": "javascript:alert(1)", "timezone": "Not/AZone", "logo": {"mediaId": "0" * 26}},
    )
    assert result["_meta"]["code"] == "VALIDATION_ERROR"
    assert set(result["_meta"]["details"]["fields"]) == {"url", "timezone", "logo.mediaId"}
    assert mcp.ok("settings_get", {}) == {"title": "Before", "url": "https://ok.example"}

    schema_level = mcp.fails("settings_update", {"postsPerPage": 0, "seo": {"keywords": "x"}, "theme": "dark"})
    assert set(schema_level["_meta"]["details"]["fields"]) == {"postsPerPage", "seo.keywords", "theme"}
    assert mcp.fails("settings_update", {"postsPerPage": 101})["_meta"]["code"] == "VALIDATION_ERROR"


def test_roles_and_scopes(make_mcp: MakeMCP) -> None:
    editor = make_mcp("editor", "settings:read settings:manage")
    assert editor.ok("settings_get", {}) == {}
    error = editor.error("tools/call", {"name": "settings_update", "arguments": {"title": "x"}})
    assert error["data"]["code"] == "INSUFFICIENT_PERMISSIONS"
    author = make_mcp("author", "settings:read")
    error = author.error("tools/call", {"name": "settings_get", "arguments": {}})
    assert error["data"]["code"] == "INSUFFICIENT_PERMISSIONS"
    reader = make_mcp("admin", "settings:read")
    error = reader.error("tools/call", {"name": "settings_update", "arguments": {"title": "x"}}, status=403)
    assert error["data"] == {"code": "INSUFFICIENT_SCOPE", "requiredScope": "settings:manage"}
    no_scope = make_mcp("admin", "content:read")
    error = no_scope.error("tools/call", {"name": "settings_get", "arguments": {}}, status=403)
    assert error["data"] == {"code": "INSUFFICIENT_SCOPE", "requiredScope": "settings:read"}
