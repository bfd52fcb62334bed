"""Credits in revisions: every revision keeps the item's credits (ordered, with roles); revision_list shows them,
revision_restore and changes_revert bring them back, on MCP and REST; a byline deleted since stays gone."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from bylines.models import ContentByline
from content.models import Revision
from emdash.roles import Role
from tests.admin.conftest import login
from tests.mcp.conftest import MCP, MakeMCP

pytestmark = pytest.mark.usefixtures("posts")


def byline(mcp: MCP, slug: str) -> str:
    return str(mcp.ok("byline_create", {"slug": slug, "displayName": slug.title()})["id"])


def credits_of(mcp: MCP, item_id: str) -> list[tuple[str, str | None]]:
    item = mcp.ok("content_get", {"collection": "posts", "id": item_id})["item"]
    return [(c["byline"]["slug"], c["roleLabel"]) for c in item["bylines"] if c["source"] == "explicit"]


def test_each_revision_keeps_the_credits_and_a_restore_brings_them_back(mcp: MCP, client: Any) -> None:
    ann, bob = byline(mcp, "ann"), byline(mcp, "bob")
    first = [{"bylineId": ann}]
    item = mcp.ok("content_create", {"collection": "posts", "data": {"title": "One"}, "bylines": first})["item"]
    changed = [{"bylineId": bob, "roleLabel": "Photos"}, {"bylineId": ann}]
    mcp.ok("content_update", {"collection": "posts", "id": item["id"], "data": {"title": "Two"}, "bylines": changed})
    listed = mcp.ok("revision_list", {"collection": "posts", "id": item["id"]})["items"]
    assert [r["bylines"] for r in listed] == [
        [{"bylineId": bob, "roleLabel": "Photos"}, {"bylineId": ann, "roleLabel": None}],
        [{"bylineId": ann, "roleLabel": None}],
    ]
    assert credits_of(mcp, item["id"]) == [("bob", "Photos"), ("ann", None)]
    restored = mcp.ok("revision_restore", {"revisionId": listed[-1]["id"]})["item"]
    assert restored["data"]["title"] == "One" and [c["byline"]["id"] for c in restored["bylines"]] == [ann]
    assert credits_of(mcp, item["id"]) == [("ann", None)]
    # The draft revision the restore wrote keeps the restored credits too; REST restores the same way.
    newest = mcp.ok("revision_list", {"collection": "posts", "id": item["id"], "limit": 1})["items"][0]
    assert newest["bylines"] == [{"bylineId": ann, "roleLabel": None}]
    headers = {"Authorization": f"Bearer {mcp.token}"}
    answer = client.post(f"/_emdash/api/revisions/{listed[0]['id']}/restore", headers=headers)
    assert answer.status_code == 200, answer.content
    assert [c["roleLabel"] for c in answer.json()["item"]["bylines"]] == ["Photos", None]
    rest_list = client.get(f"/_emdash/api/content/posts/{item['id']}/revisions", headers=headers).json()
    assert rest_list["items"][0]["bylines"][0] == {"bylineId": bob, "roleLabel": "Photos"}


def test_a_published_items_restore_drafts_the_values_and_applies_the_credits(mcp: MCP) -> None:
    ann, bob = byline(mcp, "ann"), byline(mcp, "bob")
    args = {"collection": "posts", "data": {"title": "Live"}, "status": "published", "bylines": [{"bylineId": ann}]}
    item = mcp.ok("content_create", args)["item"]
    mcp.ok("content_update", {"collection": "posts", "id": item["id"], "bylines": [{"bylineId": bob}]})
    oldest = mcp.ok("revision_list", {"collection": "posts", "id": item["id"]})["items"][-1]
    assert oldest["bylines"] == [{"bylineId": ann, "roleLabel": None}]
    mcp.ok("revision_restore", {"revisionId": oldest["id"]})
    assert credits_of(mcp, item["id"]) == [("ann", None)]


def test_a_byline_deleted_since_stays_gone_and_old_revisions_leave_credits_alone(mcp: MCP) -> None:
    ann, bob, cy = byline(mcp, "ann"), byline(mcp, "bob"), byline(mcp, "cy")
    both = [{"bylineId": ann, "roleLabel": "Words"}, {"bylineId": bob}]
    item = mcp.ok("content_create", {"collection": "posts", "data": {"title": "T"}, "bylines": both})["item"]
    kept = mcp.ok("revision_list", {"collection": "posts", "id": item["id"]})["items"][0]
    mcp.ok("content_update", {"collection": "posts", "id": item["id"], "bylines": [{"bylineId": cy}]})
    mcp.ok("byline_delete", {"id": ann})
    mcp.ok("revision_restore", {"revisionId": kept["id"]})
    assert credits_of(mcp, item["id"]) == [("bob", None)]
    # A revision saved before revisions kept credits has no _bylines: today's credits stay.
    Revision.objects.filter(id=kept["id"]).update(data={"title": "Before"})
    assert "bylines" not in mcp.ok("revision_list", {"collection": "posts", "id": item["id"]})["items"][-1]
    mcp.ok("content_update", {"collection": "posts", "id": item["id"], "bylines": [{"bylineId": cy}]})
    mcp.ok("revision_restore", {"revisionId": kept["id"]})
    assert credits_of(mcp, item["id"]) == [("cy", None)]


def test_a_draft_only_token_may_not_change_a_live_items_credits(mcp: MCP, make_mcp: MakeMCP) -> None:
    ann = byline(mcp, "ann")
    drafter = make_mcp(Role.EDITOR, ["content:read", "content:draft"])
    live = {"collection": "posts", "data": {"title": "Live"}, "status": "published"}
    item = mcp.ok("content_create", live)["item"]
    args = {"collection": "posts", "id": item["id"], "bylines": [{"bylineId": ann}]}
    refused = drafter.rpc("tools/call", {"name": "content_update", "arguments": args}, status=403)["error"]
    assert refused["data"]["code"] == "INSUFFICIENT_SCOPE" and "bylines" in refused["message"]
    assert not ContentByline.objects.exists()


def test_changes_revert_brings_the_credits_back(mcp: MCP, make_mcp: MakeMCP) -> None:
    ann, bob = byline(mcp, "ann"), byline(mcp, "bob")
    item = mcp.ok("content_create", {"collection": "posts", "data": {"title": "T"}, "bylines": [{"bylineId": ann}]})
    item_id = item["item"]["id"]
    since = (timezone.now() - timedelta(milliseconds=1)).isoformat()
    author = make_mcp(Role.EDITOR, ["content:read", "content:write"])
    author.ok("content_update", {"collection": "posts", "id": item_id, "bylines": [{"bylineId": bob}]})
    by = {"user": str(author.user.pk)} if author.user else {}
    plan = mcp.ok("changes_revert", {"by": by, "since": since})
    assert any("credits" in step for step in plan["items"][0]["steps"]), plan
    assert credits_of(mcp, item_id) == [("bob", None)]  # a dry run changes nothing
    mcp.ok("changes_revert", {"by": by, "since": since, "dryRun": False})
    assert credits_of(mcp, item_id) == [("ann", None)]


def test_the_admin_compares_a_revisions_credits_and_restores_them(mcp: MCP) -> None:
    ann, bob = byline(mcp, "ann"), byline(mcp, "bob")
    args = {"collection": "posts", "data": {"title": "T"}, "bylines": [{"bylineId": ann, "roleLabel": "Words"}]}
    item_id = mcp.ok("content_create", args)["item"]["id"]
    mcp.ok("content_update", {"collection": "posts", "id": item_id, "bylines": [{"bylineId": bob}]})
    mcp.ok("content_update", {"collection": "posts", "id": item_id, "data": {"title": "U"}})
    oldest = mcp.ok("revision_list", {"collection": "posts", "id": item_id})["items"][-1]
    client, _ = login("editor")
    page = client.get(f"/_emdash/admin/content/posts/{item_id}/revisions/?revision={oldest['id']}").content.decode()
    assert "Credits" in page and "Ann (Words)" in page and "Bob" in page
    response = client.post(f"/_emdash/admin/revisions/{oldest['id']}/restore/", {"collection": "posts", "id": item_id})
    assert response.status_code == 302
    assert credits_of(mcp, item_id) == [("ann", "Words")]
