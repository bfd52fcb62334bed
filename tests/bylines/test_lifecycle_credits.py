"""Every answer that carries an item carries its credits (SPEC 10: items return ``bylines`` and ``byline``): the
lifecycle actions too. Before, publish, unpublish, schedule, unschedule, duplicate, discard_draft and restore
returned the item without them, so an assistant that published an item saw it uncredited."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from content.entries.operations import _item_only, _restored
from emdash.operations import TABLE
from tests.mcp.conftest import MCP

pytestmark = pytest.mark.usefixtures("posts")

# The actions whose answer is {item} or {restored, item}, from the operation table.
ACTIONS = sorted(name for name, op in TABLE.items() if op.present in (_item_only, _restored))


def test_the_table_has_the_actions_this_file_walks() -> None:
    assert {"content_publish", "content_unpublish", "content_schedule", "content_unschedule"} <= set(ACTIONS)
    assert {"content_duplicate", "content_discard_draft", "content_restore"} <= set(ACTIONS)


def _arguments(name: str, item_id: str) -> dict[str, Any]:
    args: dict[str, Any] = {"collection": "posts", "id": item_id}
    if name == "content_schedule":
        args["scheduledAt"] = (timezone.now() + timedelta(days=2)).isoformat()
    return args


def _prepare(mcp: MCP, name: str, item_id: str) -> None:
    """Put the item in the state the action needs."""
    if name in ("content_unpublish", "content_discard_draft"):
        mcp.ok("content_publish", {"collection": "posts", "id": item_id})
    if name == "content_discard_draft":
        mcp.ok("content_update", {"collection": "posts", "id": item_id, "data": {"title": "Changed"}})
    if name == "content_unschedule":
        mcp.ok("content_schedule", _arguments("content_schedule", item_id))
    if name == "content_restore":
        mcp.ok("content_delete", {"collection": "posts", "id": item_id})


@pytest.mark.parametrize("name", ACTIONS)
def test_a_lifecycle_answer_carries_the_items_credits(mcp: MCP, name: str) -> None:
    ann = str(mcp.ok("byline_create", {"slug": "ann", "displayName": "Ann"})["id"])
    created = mcp.ok(
        "content_create",
        {"collection": "posts", "data": {"title": "Credited"}, "bylines": [{"bylineId": ann, "roleLabel": "Words"}]},
    )["item"]
    _prepare(mcp, name, created["id"])
    item = mcp.ok(name, _arguments(name, created["id"]))["item"]
    assert item["byline"]["id"] == ann, item
    explicit = [(c["byline"]["id"], c["roleLabel"]) for c in item["bylines"] if c["source"] == "explicit"]
    assert explicit == [(ann, "Words")]  # a duplicate copies the credits too


def test_a_duplicate_copies_terms_and_credits_but_not_seo(mcp: MCP) -> None:
    ann = str(mcp.ok("byline_create", {"slug": "ann", "displayName": "Ann"})["id"])
    mcp.ok("taxonomy_create_term", {"taxonomy": "tag", "slug": "rust", "label": "Rust"})
    source = mcp.ok(
        "content_create",
        {
            "collection": "posts",
            "data": {"title": "Source"},
            "terms": {"tag": ["rust"]},
            "bylines": [{"bylineId": ann}],
            "seo": {"title": "Only one page should say this"},
        },
    )["item"]
    copy = mcp.ok("content_duplicate", {"collection": "posts", "id": source["id"]})["item"]
    got = mcp.ok("content_get", {"collection": "posts", "id": copy["id"]})["item"]
    assert got["data"]["title"] == "Source (Copy)" and got["status"] == "draft"
    assert [t["slug"] for t in got["terms"]["tag"]] == ["rust"]
    assert [c["byline"]["id"] for c in got["bylines"]] == [ann]
    assert not (got.get("seo") or {}).get("title")
