"""The 6 byline tools and bylines on content items (SPEC 10), in-process through POST /_emdash/api/mcp."""

from __future__ import annotations

from typing import Any

import pytest

from bylines.models import Byline, ContentByline
from emdash.roles import Role
from tests.mcp.conftest import MCP, MakeMCP

pytestmark = pytest.mark.django_db
V = "2025-11-25"
TOOLS = {
    "byline_list": ("content:read", "subscriber", True, False),
    "byline_get": ("content:read", "subscriber", True, False),
    "byline_create": ("content:write", "editor", False, False),
    "byline_update": ("content:write", "editor", False, False),
    "byline_delete": ("content:write", "editor", False, True),
    "byline_translations": ("content:read", "subscriber", True, False),
}


def new_byline(mcp: MCP, slug: str, **extra: Any) -> dict[str, Any]:
    return mcp.ok("byline_create", {"slug": slug, "displayName": slug.replace("-", " ").title(), **extra})


def test_the_tools_are_listed_with_their_scope_role_and_hints(mcp: MCP) -> None:
    listed = {t["name"]: t for t in mcp.result("tools/list", version=V)["tools"]}
    for name, (scope, role, read_only, destructive) in TOOLS.items():
        tool = listed[name]
        assert tool["_meta"] == {"emdash/scope": scope, "emdash/minRole": role, "emdash/category": "byline"}
        assert tool["annotations"]["readOnlyHint"] is read_only, name
        assert tool["annotations"]["destructiveHint"] is destructive, name
        assert "outputSchema" in tool


def test_a_byline_has_the_reference_fields(mcp: MCP) -> None:
    made = new_byline(mcp, "jane-doe", bio="Writes about food", websiteUrl="https://jane.example/")
    assert made == {
        "id": made["id"],
        "slug": "jane-doe",
        "displayName": "Jane Doe",
        "bio": "Writes about food",
        "avatarMediaId": None,
        "websiteUrl": "https://jane.example/",
        "userId": None,
        "isGuest": True,
        "locale": "en",
        "translationGroup": made["id"],
        "createdAt": made["createdAt"],
        "updatedAt": made["updatedAt"],
    }
    assert mcp.ok("byline_get", {"id": made["id"]}) == made
    assert mcp.ok("byline_get", {"id": "jane-doe"})["id"] == made["id"]  # a slug works too


def test_a_linked_user_makes_a_staff_byline(mcp: MCP) -> None:
    made = new_byline(mcp, "me", userId=mcp.user.pk)
    assert made["userId"] == mcp.user.pk and made["isGuest"] is False
    listed = mcp.ok("byline_list", {"userId": mcp.user.pk})["items"]
    assert [b["id"] for b in listed] == [made["id"]]


def test_bad_input_is_refused_and_changes_nothing(mcp: MCP) -> None:
    result = mcp.fails("byline_create", {"slug": "Bad Slug", "displayName": "x", "websiteUrl": "javascript:alert(1)"})
    text = result["content"][0]["text"]
    assert result["_meta"]["code"] == "VALIDATION_ERROR"
    assert "slug" in text and "websiteUrl" in text
    assert (
        "avatarMediaId"
        in mcp.fails("byline_create", {"slug": "a", "displayName": "A", "avatarMediaId": "nope"})["content"][0]["text"]
    )
    assert not Byline.objects.exists()


def test_a_slug_is_unique_per_locale(mcp: MCP) -> None:
    new_byline(mcp, "sam")
    assert mcp.fails("byline_create", {"slug": "sam", "displayName": "Other Sam"})["_meta"]["code"] == "SLUG_CONFLICT"


def test_list_filters_and_pages(mcp: MCP) -> None:
    for slug in ("alice", "bob", "carol"):
        new_byline(mcp, slug)
    new_byline(mcp, "dave", userId=mcp.user.pk)
    first = mcp.ok("byline_list", {"limit": 2})
    assert [b["slug"] for b in first["items"]] == ["alice", "bob"]
    rest = mcp.ok("byline_list", {"limit": 2, "cursor": first["nextCursor"]})
    assert [b["slug"] for b in rest["items"]] == ["carol", "dave"] and "nextCursor" not in rest
    assert [b["slug"] for b in mcp.ok("byline_list", {"search": "aro"})["items"]] == ["carol"]
    assert [b["slug"] for b in mcp.ok("byline_list", {"isGuest": False})["items"]] == ["dave"]
    assert mcp.ok("byline_list", {"locale": "fr"})["items"] == []


def test_update_changes_only_what_is_sent_and_null_clears(mcp: MCP) -> None:
    made = new_byline(mcp, "kim", bio="Old bio", websiteUrl="https://kim.example/")
    changed = mcp.ok("byline_update", {"id": made["id"], "displayName": "Kim Lee", "bio": None})
    assert changed["displayName"] == "Kim Lee" and changed["bio"] is None
    assert changed["websiteUrl"] == "https://kim.example/" and changed["slug"] == "kim"


def test_translations_share_a_group(mcp: MCP, settings: Any) -> None:
    settings.EMDASH = {**settings.EMDASH, "LOCALES": ["en", "fr"]}
    source = new_byline(mcp, "pat")
    variant = new_byline(mcp, "pat-fr", locale="fr", translationOf=source["id"])
    assert variant["translationGroup"] == source["id"]
    found = mcp.ok("byline_translations", {"id": variant["id"]})
    assert found["translationGroup"] == source["id"]
    assert [(t["locale"], t["id"]) for t in found["translations"]] == [("en", source["id"]), ("fr", variant["id"])]
    again = mcp.fails("byline_create", {"slug": "pat-fr2", "displayName": "P", "locale": "fr", "translationOf": "pat"})
    assert again["_meta"]["code"] == "CONFLICT"


def test_writes_need_an_editor(make_mcp: MakeMCP) -> None:
    author = make_mcp(Role.AUTHOR, "content:write")
    error = author.error("tools/call", {"name": "byline_create", "arguments": {"slug": "x", "displayName": "X"}})
    assert error["data"]["code"] == "INSUFFICIENT_PERMISSIONS"
    reader = make_mcp(Role.SUBSCRIBER, "content:read")
    assert reader.ok("byline_list", {})["items"] == []


# --- bylines on content -----------------------------------------------------------------------------------


def test_content_credits_bylines_in_order_with_roles(posts: Any, mcp: MCP) -> None:
    writer, photographer = new_byline(mcp, "writer"), new_byline(mcp, "photographer")
    credits = [{"bylineId": writer["id"]}, {"bylineId": photographer["id"], "roleLabel": "Photos"}]
    created = mcp.ok("content_create", {"collection": "posts", "data": {"title": "Credited"}, "bylines": credits})
    item = created["item"]
    assert [(c["byline"]["slug"], c["roleLabel"], c["sortOrder"], c["source"]) for c in item["bylines"]] == [
        ("writer", None, 0, "explicit"),
        ("photographer", "Photos", 1, "explicit"),
    ]
    assert item["byline"]["id"] == writer["id"]
    got = mcp.ok("content_get", {"collection": "posts", "id": item["id"]})["item"]
    assert got["bylines"] == item["bylines"] and got["byline"] == item["byline"]
    listed = mcp.ok("content_list", {"collection": "posts"})["items"]
    assert listed[0]["bylines"] == item["bylines"]
    # Reordering makes the other primary; [] clears.
    swapped = mcp.ok(
        "content_update", {"collection": "posts", "id": item["id"], "bylines": [{"bylineId": photographer["id"]}]}
    )
    assert swapped["item"]["byline"]["id"] == photographer["id"]
    cleared = mcp.ok("content_update", {"collection": "posts", "id": item["id"], "bylines": []})
    assert cleared["item"]["bylines"] == [] and cleared["item"]["byline"] is None


def test_without_credits_the_authors_own_byline_is_inferred(posts: Any, mcp: MCP) -> None:
    mine = new_byline(mcp, "staff", userId=mcp.user.pk)
    item = mcp.ok("content_create", {"collection": "posts", "data": {"title": "Mine"}})["item"]
    assert item["byline"]["id"] == mine["id"]
    assert item["bylines"] == [{"byline": item["byline"], "sortOrder": 0, "roleLabel": None, "source": "inferred"}]
    got = mcp.ok("content_get", {"collection": "posts", "id": item["id"]})["item"]
    assert got["bylines"] == item["bylines"]


def test_an_unknown_byline_is_refused_and_nothing_is_written(posts: Any, mcp: MCP) -> None:
    result = mcp.fails(
        "content_create", {"collection": "posts", "data": {"title": "X"}, "bylines": [{"bylineId": "01NOPE"}]}
    )
    assert result["_meta"]["code"] == "VALIDATION_ERROR"
    assert "byline_list" in result["content"][0]["text"]
    assert mcp.ok("content_list", {"collection": "posts"})["items"] == []


def test_deleting_a_byline_drops_its_credits_and_the_next_becomes_primary(posts: Any, mcp: MCP) -> None:
    first, second = new_byline(mcp, "first"), new_byline(mcp, "second")
    credits = [{"bylineId": first["id"]}, {"bylineId": second["id"]}]
    item = mcp.ok("content_create", {"collection": "posts", "data": {"title": "T"}, "bylines": credits})["item"]
    assert mcp.ok("byline_delete", {"id": first["id"]}) == {"deleted": first["id"]}  # EmDash's answer
    got = mcp.ok("content_get", {"collection": "posts", "id": item["id"]})["item"]
    assert [c["byline"]["id"] for c in got["bylines"]] == [second["id"]]
    assert got["bylines"][0]["sortOrder"] == 0
    assert mcp.fails("byline_get", {"id": first["id"]})["_meta"]["code"] == "NOT_FOUND"


def test_a_permanent_delete_takes_the_credits_along(posts: Any, mcp: MCP) -> None:
    byline = new_byline(mcp, "gone")
    item = mcp.ok(
        "content_create", {"collection": "posts", "data": {"title": "T"}, "bylines": [{"bylineId": byline["id"]}]}
    )["item"]
    mcp.ok("content_delete", {"collection": "posts", "id": item["id"]})
    mcp.ok("content_permanent_delete", {"collection": "posts", "id": item["id"]})
    assert not ContentByline.objects.exists()


def test_the_rest_routes_come_from_the_declarations(client: Any, mcp: MCP) -> None:
    headers = {"Authorization": f"Bearer {mcp.token}"}
    made = client.post(
        "/_emdash/api/bylines",
        {"slug": "rest", "displayName": "Rest"},
        content_type="application/json",
        headers=headers,
    )
    assert made.status_code == 201, made.content
    byline_id = made.json()["id"]
    assert client.get(f"/_emdash/api/bylines/{byline_id}", headers=headers).json()["slug"] == "rest"
    assert client.get("/_emdash/api/bylines?search=res", headers=headers).json()["items"][0]["id"] == byline_id
    gone = client.delete(f"/_emdash/api/bylines/{byline_id}", headers=headers)
    assert gone.status_code == 200 and gone.json() == {"deleted": byline_id}
    # Named by slug, the answer still carries the id; the slug now names nothing.
    slugged = new_byline(mcp, "by-slug")
    assert mcp.ok("byline_delete", {"id": "by-slug"}) == {"deleted": slugged["id"]}
    assert mcp.fails("byline_delete", {"id": "by-slug"})["_meta"]["code"] == "NOT_FOUND"
