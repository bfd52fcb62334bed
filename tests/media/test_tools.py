"""SPEC 7 media tools, called in-process through POST /_emdash/api/mcp with a PAT."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from jsonschema import Draft202012Validator

from emdash.actor import Actor
from tests.mcp.conftest import MCP, MakeMCP
from tests.media.helpers import PDF, image_bytes, make_media, place

pytestmark = pytest.mark.django_db
MEDIA_TOOLS = {"media_list", "media_get", "media_create", "media_update", "media_delete"}
VERSION = "2025-06-18"  # structuredContent


def structured(mcp: MCP, name: str, arguments: dict[str, Any]) -> Any:
    """Call a tool that must succeed; check its structuredContent against the declared outputSchema."""
    schemas = {t["name"]: t.get("outputSchema") for t in mcp.result("tools/list", version=VERSION)["tools"]}
    result = mcp.call(name, arguments, version=VERSION)
    assert result["isError"] is False, result
    payload = orjson.loads(result["content"][0]["text"])
    assert result["structuredContent"] == payload
    errors = [e.message for e in Draft202012Validator(schemas[name]).iter_errors(payload)]
    assert not errors, (name, errors)
    return payload


def test_media_tools_are_listed_with_spec_metadata(mcp: MCP) -> None:
    tools = {t["name"]: t for t in mcp.result("tools/list", version="2025-11-25")["tools"]}
    assert set(tools) >= MEDIA_TOOLS
    meta = {name: tools[name]["_meta"] for name in MEDIA_TOOLS}
    assert meta["media_list"] == {
        "emdash/scope": "media:read",
        "emdash/minRole": "subscriber",
        "emdash/category": "media",
    }
    assert meta["media_get"]["emdash/scope"] == "media:read"
    assert meta["media_create"] == {
        "emdash/scope": "media:write",
        "emdash/minRole": "author",
        "emdash/category": "media",
    }
    assert meta["media_update"]["emdash/minRole"] == "author"
    assert meta["media_delete"]["emdash/scope"] == "media:write"
    for name in MEDIA_TOOLS:
        annotations = tools[name]["annotations"]
        assert annotations["readOnlyHint"] is (name in {"media_list", "media_get"}), name
        assert annotations["destructiveHint"] is (name == "media_delete"), name
        assert annotations["openWorldHint"] is False
        assert tools[name]["inputSchema"]["additionalProperties"] is False
        assert "outputSchema" in tools[name]
    assert set(tools["media_create"]["inputSchema"]["required"]) == {"filename", "mimeType", "storageKey"}
    assert tools["media_get"]["inputSchema"]["required"] == ["id"]
    assert "required" not in tools["media_list"]["inputSchema"]


def test_every_media_tool_round_trip(mcp: MCP, media_root: Path, django_capture_on_commit_callbacks) -> None:
    key = place(image_bytes("PNG", (30, 15)), "uploads/banner.png")
    created = structured(
        mcp, "media_create", {"filename": "banner.png", "mimeType": "image/png", "storageKey": key, "alt": "Banner"}
    )["item"]
    assert (created["width"], created["height"], created["url"]) == (30, 15, "/media/uploads/banner.png")
    pdf_key = place(PDF, ext=".pdf")
    structured(mcp, "media_create", {"filename": "doc.pdf", "mimeType": "application/pdf", "storageKey": pdf_key})

    got = structured(mcp, "media_get", {"id": created["id"]})["item"]
    assert got == {**created, "usage": [], "usageCount": 0}  # media_get also says where the item is used
    images = structured(mcp, "media_list", {"mimeType": "image/"})
    assert [i["id"] for i in images["items"]] == [created["id"]]
    first = structured(mcp, "media_list", {"limit": 1})
    second = structured(mcp, "media_list", {"limit": 1, "cursor": first["nextCursor"]})
    assert second["items"][0]["id"] == created["id"] and "nextCursor" not in second

    updated = structured(mcp, "media_update", {"id": created["id"], "caption": "Top of page", "alt": None})["item"]
    assert (updated["caption"], updated["alt"]) == ("Top of page", "")

    with django_capture_on_commit_callbacks(execute=True):
        assert structured(mcp, "media_delete", {"id": created["id"]}) == {"deleted": True}
    assert not (media_root / key).exists()
    result = mcp.fails("media_get", {"id": created["id"]})
    assert result["_meta"]["code"] == "NOT_FOUND"


def test_a_key_with_dot_dot_is_a_validation_error(mcp: MCP, media_root: Path, tmp_path: Path) -> None:
    (tmp_path / "secret.png").write_bytes(image_bytes())
    result = mcp.fails("media_create", {"filename": "x.png", "mimeType": "image/png", "storageKey": "../secret.png"})
    assert result["_meta"]["code"] == "VALIDATION_ERROR"
    assert "storageKey" in result["_meta"]["details"]["fields"]
    assert "'..'" in result["content"][0]["text"]


def test_arguments_are_validated_by_the_schema(mcp: MCP) -> None:
    result = mcp.fails(
        "media_create",
        {"filename": "", "mimeType": "image/png", "storageKey": "a.png", "width": 0, "colour": "red"},
    )
    fields = result["_meta"]["details"]["fields"]
    assert set(fields) == {"filename", "width", "colour"}
    assert mcp.fails("media_list", {"limit": 101})["_meta"]["code"] == "VALIDATION_ERROR"
    assert mcp.fails("media_list", {"cursor": "garbage"})["_meta"]["code"] == "INVALID_CURSOR"
    assert mcp.fails("media_update", {})["_meta"]["details"]["fields"] == {"id": "is required"}


def test_missing_scope_and_role_are_protocol_errors(make_mcp: MakeMCP) -> None:
    key = place(image_bytes())
    arguments = {"filename": "a.png", "mimeType": "image/png", "storageKey": key}
    reader = make_mcp("admin", "media:read content:write")
    error = reader.error("tools/call", {"name": "media_create", "arguments": arguments}, status=403)
    assert error["code"] == -32600
    assert error["data"] == {"code": "INSUFFICIENT_SCOPE", "requiredScope": "media:write"}
    contributor = make_mcp("contributor", "media:read media:write")
    error = contributor.error("tools/call", {"name": "media_create", "arguments": arguments})
    assert error["data"]["code"] == "INSUFFICIENT_PERMISSIONS"
    assert reader.ok("media_list", {}) == {"items": []}


def test_authors_cannot_touch_media_of_others(make_mcp: MakeMCP) -> None:
    alice = make_mcp("author", "media:read media:write")
    bob = make_mcp("author", "media:read media:write")
    row = make_media(Actor.for_user(alice.user))
    assert alice.ok("media_update", {"id": row.id, "alt": "mine"})["item"]["alt"] == "mine"
    for name, arguments in (("media_update", {"id": row.id, "alt": "x"}), ("media_delete", {"id": row.id})):
        error = bob.error("tools/call", {"name": name, "arguments": arguments})
        assert error["data"]["code"] == "INSUFFICIENT_PERMISSIONS"
        assert str(alice.user.pk) not in error["message"]
    editor = make_mcp("editor", "media:write media:read")
    assert editor.ok("media_update", {"id": row.id, "caption": "ok"})["item"]["caption"] == "ok"
