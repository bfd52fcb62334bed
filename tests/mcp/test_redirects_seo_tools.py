"""The redirect tools and the SEO / slug / publishedAt arguments of the content tools, over MCP."""

from __future__ import annotations

from typing import Any

from content.models import Redirect
from tests.mcp.conftest import MCP


def _code(result: dict[str, Any]) -> str:
    return str(result["_meta"]["code"])


def test_pending_slug_redirect_and_seo_through_mcp(posts: Any, mcp: MCP) -> None:
    created = mcp.ok(
        "content_create",
        {"collection": "posts", "data": {"title": "Tool post"}, "status": "published", "seo": {"noindex": True}},
    )
    item = created["item"]
    assert item["seo"] == {"noindex": True}
    updated = mcp.ok(
        "content_update", {"collection": "posts", "id": item["id"], "slug": "moved", "seo": {"title": "T"}}
    )
    assert updated["item"]["slug"] == "tool-post" and updated["item"]["draftSlug"] == "moved"
    assert updated["item"]["seo"] == {"noindex": True, "title": "T"} and updated["item"]["liveSeo"] == {"noindex": True}
    published = mcp.ok(
        "content_publish", {"collection": "posts", "id": item["id"], "publishedAt": "2020-01-02T03:04:05Z"}
    )
    assert published["item"]["slug"] == "moved" and published["item"]["publishedAt"] == "2020-01-02T03:04:05Z"
    listed = mcp.ok("redirect_list", {})
    assert [(r["source"], r["target"]) for r in listed["items"]] == [("/posts/tool-post/", "/posts/moved/")]
    made = mcp.ok("redirect_create", {"source": "/elsewhere/", "target": "/posts/tool-post/"})
    assert made["target"] == "/posts/moved/"  # collapsed onto the end of the chain
    assert mcp.ok("redirect_delete", {"redirectId": made["id"]}) == {"deleted": True}
    assert Redirect.objects.count() == 1


def test_bad_arguments_are_tool_errors_and_change_nothing(posts: Any, mcp: MCP) -> None:
    item = mcp.ok("content_create", {"collection": "posts", "data": {"title": "Safe"}})["item"]
    bad_seo = mcp.fails(
        "content_update", {"collection": "posts", "id": item["id"], "seo": {"canonical": "//evil.example"}}
    )
    assert _code(bad_seo) == "VALIDATION_ERROR"
    bad_date = mcp.fails("content_publish", {"collection": "posts", "id": item["id"], "publishedAt": "soon"})
    assert _code(bad_date) == "VALIDATION_ERROR"
    assert mcp.ok("content_get", {"collection": "posts", "id": item["id"]})["item"]["status"] == "draft"
    bad_redirect = mcp.fails("redirect_create", {"source": "/x/", "target": "https://evil.example/"})
    assert _code(bad_redirect) == "VALIDATION_ERROR" and not Redirect.objects.exists()
    assert _code(mcp.fails("redirect_delete", {"redirectId": "01ZZZZZZZZZZZZZZZZZZZZZZZZ"})) == "NOT_FOUND"


def test_authors_may_not_manage_redirects(posts: Any, make_mcp: Any) -> None:
    author = make_mcp("author")
    error = author.error("tools/call", {"name": "redirect_create", "arguments": {"source": "/a/", "target": "/b/"}})
    assert error["data"]["code"] == "INSUFFICIENT_PERMISSIONS" and not Redirect.objects.exists()
