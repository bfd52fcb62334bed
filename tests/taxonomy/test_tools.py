"""The 5 taxonomy tools, in-process through POST /_emdash/api/mcp."""

from __future__ import annotations

from typing import Any

import pytest

from emdash.roles import Role
from taxonomy.models import Term
from tests.mcp.conftest import MCP, MakeMCP

pytestmark = pytest.mark.django_db
TOOLS = {
    "taxonomy_list": ("content:read", "subscriber", True, False),
    "taxonomy_list_terms": ("content:read", "subscriber", True, False),
    "taxonomy_create_term": ("taxonomies:manage", "editor", False, False),
    "taxonomy_update_term": ("taxonomies:manage", "editor", False, False),
    "taxonomy_delete_term": ("taxonomies:manage", "editor", False, True),
}


def code_of(result: dict[str, Any]) -> str:
    return result["_meta"]["code"]


def new_term(mcp: MCP, slug: str, taxonomy: str = "category", **extra: Any) -> dict[str, Any]:
    return mcp.ok("taxonomy_create_term", {"taxonomy": taxonomy, "slug": slug, "label": slug.title(), **extra})["term"]


def test_the_tools_are_listed_with_their_scope_role_and_hints(mcp: MCP) -> None:
    listed = {t["name"]: t for t in mcp.result("tools/list", version="2025-11-25")["tools"]}
    for name, (scope, role, read_only, destructive) in TOOLS.items():
        tool = listed[name]
        assert tool["_meta"] == {"emdash/scope": scope, "emdash/minRole": role, "emdash/category": "taxonomy"}
        assert tool["annotations"]["readOnlyHint"] is read_only, name
        assert tool["annotations"]["destructiveHint"] is destructive, name
        assert "outputSchema" in tool


def test_taxonomy_list(mcp: MCP) -> None:
    result = mcp.call("taxonomy_list", {}, version="2025-11-25")
    names = [t["name"] for t in result["structuredContent"]["taxonomies"]]
    assert names == ["category", "tag"]
    assert result["structuredContent"]["taxonomies"][0]["hierarchical"] is True


def test_term_lifecycle(mcp: MCP) -> None:
    parent = new_term(mcp, "tech", description="Computers")
    child = new_term(mcp, "python", parentId=parent["id"])
    assert child == {
        "id": child["id"],
        "taxonomy": "category",
        "slug": "python",
        "label": "Python",
        "parentId": parent["id"],
        "description": "",
        "locale": "en",
        "translationGroup": child["id"],
    }
    moved = mcp.ok("taxonomy_update_term", {"taxonomy": "category", "termSlug": "python", "parentId": None})
    assert moved["term"]["parentId"] is None
    renamed = mcp.ok(
        "taxonomy_update_term", {"taxonomy": "category", "termSlug": "python", "slug": "py", "label": "Py"}
    )["term"]
    assert (renamed["slug"], renamed["label"], renamed["parentId"]) == ("py", "Py", None)
    again = mcp.ok("taxonomy_update_term", {"taxonomy": "category", "termSlug": "py", "parentId": parent["id"]})
    assert again["term"]["parentId"] == parent["id"]
    refused = mcp.fails("taxonomy_delete_term", {"taxonomy": "category", "termSlug": "tech"})
    assert code_of(refused) == "CONFLICT"
    assert mcp.ok("taxonomy_delete_term", {"taxonomy": "category", "termSlug": "py"}) == {"deleted": True}
    assert mcp.ok("taxonomy_delete_term", {"taxonomy": "category", "termSlug": "tech"}) == {"deleted": True}
    gone = mcp.fails("taxonomy_delete_term", {"taxonomy": "category", "termSlug": "tech"})
    assert code_of(gone) == "NOT_FOUND"


def test_hierarchy_errors_over_mcp(mcp: MCP) -> None:
    a = new_term(mcp, "a")
    b = new_term(mcp, "b", parentId=a["id"])
    cycle = mcp.fails("taxonomy_update_term", {"taxonomy": "category", "termSlug": "a", "parentId": b["id"]})
    assert code_of(cycle) == "VALIDATION_ERROR"
    assert "cycle" in cycle["_meta"]["details"]["fields"]["parentId"]
    itself = mcp.fails("taxonomy_update_term", {"taxonomy": "category", "termSlug": "a", "parentId": a["id"]})
    assert code_of(itself) == "VALIDATION_ERROR"
    flat = mcp.fails("taxonomy_create_term", {"taxonomy": "tag", "slug": "t", "label": "T", "parentId": a["id"]})
    assert code_of(flat) == "VALIDATION_ERROR"
    duplicate = mcp.fails("taxonomy_create_term", {"taxonomy": "category", "slug": "a", "label": "A"})
    assert code_of(duplicate) == "SLUG_CONFLICT"
    unknown = mcp.fails("taxonomy_create_term", {"taxonomy": "genre", "slug": "a", "label": "A"})
    assert code_of(unknown) == "NOT_FOUND"
    bad_type = mcp.fails("taxonomy_update_term", {"taxonomy": "category", "termSlug": "a", "parentId": 5})
    assert code_of(bad_type) == "VALIDATION_ERROR"
    assert Term.objects.get(slug="a").parent_id is None


def test_depth_101_is_refused_over_mcp(mcp: MCP) -> None:
    parent_id = None
    for i in range(101):
        args = {"taxonomy": "category", "slug": f"d{i}", "label": f"D{i}"}
        if parent_id:
            args["parentId"] = parent_id
        parent_id = mcp.ok("taxonomy_create_term", args)["term"]["id"]
    deep = mcp.fails(
        "taxonomy_create_term", {"taxonomy": "category", "slug": "d101", "label": "X", "parentId": parent_id}
    )
    assert code_of(deep) == "VALIDATION_ERROR"


def test_list_terms_pages_through_every_term_once(mcp: MCP) -> None:
    for i in range(7):
        new_term(mcp, f"tag-{i}", taxonomy="tag")
    seen: list[str] = []
    args: dict[str, Any] = {"taxonomy": "tag", "limit": 3}
    while True:
        page = mcp.ok("taxonomy_list_terms", args)
        seen += [t["slug"] for t in page["items"]]
        assert set(page["items"][0]) == {
            "id",
            "taxonomy",
            "slug",
            "label",
            "parentId",
            "description",
            "locale",
            "translationGroup",
        }
        if "nextCursor" not in page:
            break
        args["cursor"] = page["nextCursor"]
    assert seen == [f"tag-{i}" for i in range(7)]
    bad = mcp.fails("taxonomy_list_terms", {"taxonomy": "tag", "cursor": "not-a-cursor"})
    assert code_of(bad) == "INVALID_CURSOR"
    other = mcp.fails("taxonomy_list_terms", {"taxonomy": "category", "cursor": args["cursor"]})
    assert code_of(other) == "INVALID_CURSOR"


@pytest.mark.parametrize(
    ("role", "scopes", "outcome"),
    [
        (Role.EDITOR, "taxonomies:manage", "ok"),
        (Role.EDITOR, "content:write", "ok"),  # content:write implies taxonomies:manage
        (Role.ADMIN, "admin", "ok"),
        (Role.EDITOR, "content:read", "INSUFFICIENT_SCOPE"),
        (Role.EDITOR, "menus:manage", "INSUFFICIENT_SCOPE"),
        (Role.AUTHOR, "admin", "INSUFFICIENT_PERMISSIONS"),
        (Role.AUTHOR, "content:write", "INSUFFICIENT_PERMISSIONS"),
        (Role.SUBSCRIBER, "taxonomies:manage", "INSUFFICIENT_PERMISSIONS"),
    ],
)
def test_who_may_manage_terms(make_mcp: MakeMCP, role: Role, scopes: str, outcome: str) -> None:
    client = make_mcp(role, scopes)
    args = {"taxonomy": "tag", "slug": "x", "label": "X"}
    if outcome == "ok":
        new_term(client, "x", taxonomy="tag")
        return
    status = 403 if outcome == "INSUFFICIENT_SCOPE" else 200  # a missing scope is a step-up challenge
    error = client.error("tools/call", {"name": "taxonomy_create_term", "arguments": args}, status=status)
    assert error["code"] == -32600
    assert error["data"]["code"] == outcome
    if outcome == "INSUFFICIENT_SCOPE":
        assert error["data"]["requiredScope"] == "taxonomies:manage"
    assert not Term.objects.exists()


def test_subscribers_read_taxonomies_and_terms(make_mcp: MakeMCP, mcp: MCP) -> None:
    new_term(mcp, "visible", taxonomy="tag")
    reader = make_mcp(Role.SUBSCRIBER, "content:read")
    assert [t["slug"] for t in reader.ok("taxonomy_list_terms", {"taxonomy": "tag"})["items"]] == ["visible"]
    assert len(reader.ok("taxonomy_list", {})["taxonomies"]) == 2
    media_only = make_mcp(Role.ADMIN, "media:read")
    error = media_only.error("tools/call", {"name": "taxonomy_list", "arguments": {}}, status=403)
    assert error["data"] == {"code": "INSUFFICIENT_SCOPE", "requiredScope": "content:read"}
