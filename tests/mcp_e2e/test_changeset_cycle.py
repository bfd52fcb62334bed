"""SPEC 9.2 end to end with the official ``mcp`` SDK client: an assistant's token proposes a change set, an editor
reviews it (four-eyes), publishes it, and the public site changes only then.

The assistant's token is the one SPEC 9.1 tells an owner to hand over: it may write drafts and propose, and the
publish call itself is refused to it. The database is touched only outside the event loop.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from audit.models import AuditLog
from content.schema import specs as schema
from emdash.roles import Role
from tests.factories import make_entry
from tests.mcp_e2e.conftest import new_user, token_for
from tests.mcp_e2e.test_sdk_client import MODES, Session, connect

# What an owner gives an assistant (SPEC 9.1): read, write drafts and propose; never publish.
ASSISTANT_SCOPES = ["content:read", "content:draft"]


async def review_cycle(
    url: str, tokens: dict[str, str], mode: str, version: str, ids: dict[str, str]
) -> dict[str, Any]:
    async with connect(url, tokens["assistant"], mode) as a_client, connect(url, tokens["editor"], mode) as e_client:
        assistant, editor = Session(a_client, version), Session(e_client, version)
        target = {"collection": "posts", "id": ids["published"]}
        await assistant.ok("content_update", {**target, "data": {"title": "Rewritten by the assistant"}})
        made = (await assistant.ok("changeset_create", {"title": "Assistant's rewrite"}))["changeset"]
        for item in (ids["published"], ids["draft"]):
            await assistant.ok("changeset_add", {"id": made["id"], "collection": "posts", "item": item})
        refused = await assistant.rpc_error(
            "changeset_add", {"id": made["id"], "collection": "posts", "item": ids["editors"]}
        )
        assert refused.data == {"code": "INSUFFICIENT_PERMISSIONS"}, "an author proposes only items it may edit"
        submitted = (await assistant.ok("changeset_submit", {"id": made["id"]}))["changeset"]
        assert submitted["state"] == "submitted"
        refused = await assistant.rpc_error("changeset_publish", {"id": made["id"]})
        assert refused.data["code"] == "INSUFFICIENT_SCOPE", "a draft-only token never publishes, even a set"
        assert "content:write" in str(refused)

        queue = (await editor.ok("changeset_list", {"state": "submitted"}))["items"]
        assert [c["id"] for c in queue] == [made["id"]]
        shown = await editor.ok("changeset_get", {"id": made["id"]})
        diffs = {e["id"]: e["diff"] for e in shown["entries"]}
        assert {"field": "title", "live": "Live title", "draft": "Rewritten by the assistant"} in diffs[
            ids["published"]
        ]
        refused = await assistant.rpc_error("changeset_review", {"id": made["id"], "decision": "approve"})
        assert refused.data["code"] in ("INSUFFICIENT_SCOPE", "INSUFFICIENT_PERMISSIONS"), "authors never review"
        approved = await editor.ok("changeset_review", {"id": made["id"], "decision": "approve", "comment": "Good"})
        assert approved["changeset"]["state"] == "approved" and approved["changeset"]["comment"] == "Good"
        published = await editor.ok("changeset_publish", {"id": made["id"]})
        assert sorted(published["published"]) == sorted(f"posts/{ids[k]}" for k in ("published", "draft"))
        live = (await assistant.ok("content_get", target))["item"]
        return {"live_title": live["data"]["title"], "set": made["id"]}


@pytest.mark.parametrize(("mode", "version"), MODES)
def test_an_assistant_proposes_an_editor_approves_and_publishes(posts, mcp_url, mode, version):
    author, editor = new_user(Role.AUTHOR), new_user(Role.EDITOR)
    ids = {
        "published": make_entry(data={"title": "Live title"}, status="published").id,
        "draft": make_entry(data={"title": "New post"}).id,
        "editors": make_entry(data={"title": "Not the assistant's"}).id,
    }
    model = schema.get_collection("posts").model
    model.objects.filter(pk__in=[ids["published"], ids["draft"]]).update(author_id=author.pk)
    model.objects.filter(pk=ids["editors"]).update(author_id=editor.pk)
    tokens = {
        "assistant": token_for(author, ASSISTANT_SCOPES, name="assistant"),
        "editor": token_for(editor, ["content:read", "content:write"], name="editor"),
    }
    outcome = asyncio.run(review_cycle(mcp_url, tokens, mode, version, ids))
    assert outcome["live_title"] == "Rewritten by the assistant"
    assert model.objects.get(pk=ids["draft"]).status == "published"
    audited = set(AuditLog.objects.filter(action="changeset_publish", outcome="ok").values_list("target", flat=True))
    assert audited == {f"changesets/{outcome['set']}", f"posts/{ids['published']}", f"posts/{ids['draft']}"}
