"""SPEC 9.3: provenance on revisions and audit rows, and ``changes_revert`` (undo by token, client or user).

An assistant with a draft token makes changes over MCP; an editor takes them back over MCP or REST: a dry run
lists each item and its plan and changes nothing, applying reverts every item in one transaction, items someone
else changed afterwards are skipped unless ``force``; bad input is a clear error that changes nothing.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from accounts.models import User
from audit.models import AuditLog
from content.changes import services as undo
from content.entries import services
from content.entries.services.publishing import publish_due
from content.models import Collection, Revision
from emdash.roles import Role
from tests.factories import SYSTEM, make_entry
from tests.mcp_e2e.conftest import MCP_PATH, new_user, token_for

pytestmark = pytest.mark.usefixtures("posts")
AGENT = "Claude Code/2.1.0"


class Door:
    def __init__(self, token: str, user_agent: str = AGENT) -> None:
        self.token, self.client, self.user_agent = token, Client(), user_agent

    def mcp(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
        response = self.client.post(
            MCP_PATH,
            data=json.dumps(message),
            content_type="application/json",
            headers={
                "Authorization": f"Bearer {self.token}",
                "Accept": "application/json, text/event-stream",
                "MCP-Protocol-Version": "2025-11-25",
                "User-Agent": self.user_agent,
            },
        )
        body = response.json()
        if "error" in body:
            data = body["error"].get("data") or {}
            return {"error": data.get("code", "INTERNAL_ERROR"), "message": body["error"]["message"]}
        result = body["result"]
        text = result["content"][0]["text"]
        return {"error": result["_meta"]["code"], "message": text} if result["isError"] else json.loads(text)

    def rest(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
        response = getattr(self.client, method)(
            path,
            data=json.dumps(body or {}),
            content_type="application/json",
            headers={"Authorization": f"Bearer {self.token}", "User-Agent": self.user_agent},
        )
        return response.status_code, response.json()


@pytest.fixture
def alice() -> User:
    user = new_user(Role.AUTHOR)
    user.name = "Alice"
    user.save(update_fields=["name"])
    return user


@pytest.fixture
def assistant(alice: User) -> Door:
    return Door(token_for(alice, ["content:read", "content:draft", "content:write"], name="assistant"))


@pytest.fixture
def editor() -> Door:
    return Door(token_for(new_user(Role.EDITOR), ["content:read", "content:write"], name="editor's laptop"), "curl/8")


def row_of(entry_id: str) -> dict[str, Any]:
    table = Collection.objects.get(slug="posts").table_name
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT title, status, deleted_at, draft_revision_id "
            f"FROM {connection.ops.quote_name(table)} WHERE id = %s",
            [entry_id],
        )
        title, status, deleted, draft = cursor.fetchone()
    return {"title": title, "status": status, "trashed": deleted is not None, "draft": draft}


def owned_by(user: User, **kwargs: Any) -> str:
    entry = make_entry(data={"title": "Original", "excerpt": "x"}, **kwargs)
    table = Collection.objects.get(slug="posts").table_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {connection.ops.quote_name(table)} SET author_id = %s WHERE id = %s", [user.pk, entry.id]
        )
    return entry.id


def token_id(door: Door) -> str:
    return AuditLog.objects.filter(token_name="assistant").values_list("token_ref", flat=True).first() or ""


def everything() -> Any:
    table = Collection.objects.get(slug="posts").table_name
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)} ORDER BY id")
        entries = [tuple(str(v) for v in r) for r in cursor.fetchall()]
    return entries, list(Revision.objects.order_by("id").values_list("id", "data"))


# --- provenance ---------------------------------------------------------------------------------------------


def test_revision_list_says_how_each_revision_was_made(alice: User, assistant: Door, editor: Door) -> None:
    item = owned_by(alice)
    assert assistant.mcp("content_update", {"collection": "posts", "id": item, "data": {"title": "By MCP"}})["item"]
    status, _ = editor.rest("put", f"/_emdash/api/content/posts/{item}", {"data": {"title": "By REST"}})
    assert status == 200
    listed = assistant.mcp("revision_list", {"collection": "posts", "id": item})["items"]
    assert listed[0]["via"] == {"door": "rest", "client": "curl/8", "token": "editor's laptop"}
    assert listed[1]["via"] == {"door": "mcp", "client": AGENT, "token": "assistant"}
    assert listed[-1]["via"]["door"] == "cli"  # made by a service outside any door (the test's factory)


def test_audit_rows_carry_the_whole_provenance(alice: User, assistant: Door) -> None:
    assistant.mcp("content_create", {"collection": "posts", "data": {"title": "New"}})
    row = AuditLog.objects.get(action="content_create")
    assert (row.source, row.token_name, row.client, row.client_version) == ("mcp", "assistant", AGENT, "2.1.0")
    assert row.token_ref.startswith("pat:") and row.user_id == alice.pk
    assert row.via_text() == "Claude Code (MCP)"


def test_the_worker_and_the_admin_are_named_as_doors(alice: User) -> None:
    item = owned_by(alice)
    services.entry_schedule(
        actor=SYSTEM, collection="posts", id=item, scheduled_at=(timezone.now() + timedelta(hours=1)).isoformat()
    )
    assert publish_due(now=timezone.now() + timedelta(hours=2)) == 1
    assert Revision.objects.filter(entry_id=item).order_by("-created_at", "-id").first().source == "worker"
    client = Client()
    client.force_login(alice)
    page = client.post(f"/_emdash/admin/content/posts/{item}/", {"f_title": "From the admin", "f_excerpt": "x"})
    assert page.status_code in (200, 302)
    newest = Revision.objects.filter(entry_id=item).order_by("-created_at", "-id").first()
    assert newest.source == "admin" and newest.author_id == alice.pk


def test_admin_revision_list_says_by_whom_and_via_what(alice: User, assistant: Door) -> None:
    item = owned_by(alice)
    assistant.mcp("content_update", {"collection": "posts", "id": item, "data": {"title": "By MCP"}})
    admin = Client()
    admin.force_login(new_user(Role.ADMIN))
    page = admin.get(f"/_emdash/admin/content/posts/{item}/revisions/").content.decode()
    assert "by Alice via Claude Code (MCP)" in page
    log = admin.get("/_emdash/admin/audit/").content.decode()
    assert "by Alice via Claude Code (MCP)" in log


# --- undo ---------------------------------------------------------------------------------------------------


@pytest.fixture
def session(alice: User, assistant: Door) -> dict[str, str]:
    """Before: a published item, a draft and an item to trash. Then the assistant creates one, edits the
    published one (a draft over the live version), edits the draft and trashes the third."""
    published = owned_by(alice, status="published")
    draft = owned_by(alice)
    doomed = owned_by(alice)
    start = timezone.now()
    made = assistant.mcp("content_create", {"collection": "posts", "data": {"title": "Invented"}})["item"]["id"]
    assistant.mcp("content_update", {"collection": "posts", "id": published, "data": {"title": "Rewritten"}})
    assistant.mcp("content_update", {"collection": "posts", "id": draft, "data": {"title": "Rewritten draft"}})
    assistant.mcp("content_delete", {"collection": "posts", "id": doomed})
    return {"since": start.isoformat(), "made": made, "published": published, "draft": draft, "doomed": doomed}


def test_dry_run_lists_each_item_and_its_plan_and_changes_nothing(
    session: dict[str, str], assistant: Door, editor: Door
) -> None:
    before = everything()
    plan = editor.mcp("changes_revert", {"by": {"token": token_id(assistant)}, "since": session["since"]})
    assert everything() == before
    assert plan["dryRun"] is True and plan["applied"] == 0 and plan["skipped"] == []
    actions = {i["id"]: i["action"] for i in plan["items"]}
    assert actions == {
        session["made"]: "trash",
        session["published"]: "restore",
        session["draft"]: "restore",
        session["doomed"]: "untrash",
    }
    published = next(i for i in plan["items"] if i["id"] == session["published"])
    assert published["steps"] == ["drop the pending draft (the live version is the one from before)"]


@pytest.mark.parametrize("door", ["mcp", "rest"])
def test_applying_reverts_every_item(session: dict[str, str], assistant: Door, editor: Door, door: str) -> None:
    args = {"by": {"token": token_id(assistant)}, "since": session["since"], "dryRun": False}
    if door == "mcp":
        done = editor.mcp("changes_revert", args)
    else:
        status, done = editor.rest("post", "/_emdash/api/changes/revert", args)
        assert status == 200, done
    assert done["applied"] == 4
    assert row_of(session["made"])["trashed"]
    assert row_of(session["published"]) == {"title": "Original", "status": "published", "trashed": False, "draft": None}
    assert row_of(session["draft"])["title"] == "Original"  # the values of the revision before the change
    assert not row_of(session["doomed"])["trashed"]
    rows = AuditLog.objects.filter(action="changes_revert", outcome="ok")
    assert sorted(rows.values_list("target", flat=True)) == sorted(
        [f"token {token_id(assistant)}"] + [f"posts/{session[k]}" for k in ("made", "published", "draft", "doomed")]
    ), "one row for the undo, one per item it changed"


def test_items_someone_else_changed_afterwards_are_skipped_unless_forced(
    session: dict[str, str], assistant: Door, editor: Door
) -> None:
    editor.mcp("content_update", {"collection": "posts", "id": session["draft"], "data": {"title": "Editor's word"}})
    args = {"by": {"token": token_id(assistant)}, "since": session["since"], "dryRun": False}
    done = editor.mcp("changes_revert", args)
    assert [s["id"] for s in done["skipped"]] == [session["draft"]]
    assert "changed afterwards by" in done["skipped"][0]["reason"] and "force" in done["skipped"][0]["reason"]
    assert row_of(session["draft"])["title"] == "Editor's word"
    forced = editor.mcp("changes_revert", {**args, "force": True})
    assert session["draft"] in [i["id"] for i in forced["items"]]
    assert row_of(session["draft"])["title"] != "Editor's word"


def test_undoing_twice_changes_nothing_the_second_time(session: dict[str, str], assistant: Door, editor: Door) -> None:
    """The first undo changed every item, so to a second one each was changed afterwards by someone else."""
    args = {"by": {"token": token_id(assistant)}, "since": session["since"], "dryRun": False}
    assert editor.mcp("changes_revert", args)["applied"] == 4
    before = everything()
    again = editor.mcp("changes_revert", args)
    assert again["applied"] == 0 and again["items"] == []
    assert len(again["skipped"]) == 4 and all("(changes_revert)" in s["reason"] for s in again["skipped"])
    assert everything() == before


def test_an_item_an_editor_published_through_a_change_set_since_is_skipped(
    session: dict[str, str], alice: User, assistant: Door, editor: Door
) -> None:
    """A change set's publish is someone else's change to each of its items (audited per item)."""
    reviewer = Door(token_for(new_user(Role.EDITOR), ["content:read", "content:write"], name="reviewer"))
    made = editor.mcp("changeset_create", {"title": "Ship the draft"})["changeset"]["id"]
    editor.mcp("changeset_add", {"id": made, "collection": "posts", "item": session["draft"]})
    editor.mcp("changeset_submit", {"id": made})
    assert reviewer.mcp("changeset_review", {"id": made, "decision": "approve"})["changeset"]["state"] == "approved"
    assert "error" not in reviewer.mcp("changeset_publish", {"id": made})
    args = {"by": {"token": token_id(assistant)}, "since": session["since"], "dryRun": False}
    done = editor.mcp("changes_revert", args)
    skipped = {s["id"]: s["reason"] for s in done["skipped"]}
    assert list(skipped) == [session["draft"]] and "(changeset_publish)" in skipped[session["draft"]]
    assert (row_of(session["draft"])["title"], row_of(session["draft"])["status"]) == ("Rewritten draft", "published")


def test_a_token_is_named_as_the_token_list_shows_it(session: dict[str, str], assistant: Door, editor: Door) -> None:
    ref = token_id(assistant)
    number = int(ref.split(":")[1])
    for given in (ref, str(number), number):
        plan = editor.mcp("changes_revert", {"by": {"token": given}, "since": session["since"]})
        assert len(plan["items"]) == 4 and plan["by"] == f"token {ref}", given


def test_undo_by_user_and_by_oauth_client_id_find_the_same_changes(
    session: dict[str, str], alice: User, editor: Door
) -> None:
    by_user = editor.mcp("changes_revert", {"by": {"user": alice.email}, "since": session["since"]})
    assert len(by_user["items"]) == 4 and by_user["by"] == f"user {alice.email}"
    nobody = editor.mcp("changes_revert", {"by": {"client": "some-app"}, "since": session["since"]})
    assert nobody["error"] == "VALIDATION_ERROR" and "Nothing to undo" in nobody["message"]


def test_a_user_is_named_by_the_id_items_show_as_authorId(session: dict[str, str], alice: User, editor: Door) -> None:
    """``authorId`` (and the user list) give a user's id as a number; ``by.user`` took only strings, so passing the
    id as shown was refused with "must be of type string". 7, "7" and the email all name the user."""
    for given in (alice.pk, str(alice.pk), alice.email):
        plan = editor.mcp("changes_revert", {"by": {"user": given}, "since": session["since"]})
        assert len(plan.get("items", [])) == 4 and plan["by"] == f"user {alice.email}", (given, plan)
    # Neither a string nor an integer: one line naming the argument, not one per branch of the union.
    for field in ("user", "token"):
        refused = editor.mcp("changes_revert", {"by": {field: True}, "since": session["since"]})
        assert refused["error"] == "VALIDATION_ERROR", refused
        assert f"by.{field}: must be of type string or integer" in refused["message"], refused
        assert "by." + field + "." not in refused["message"], refused


def test_applying_is_all_or_nothing(session: dict[str, str], assistant: Door, editor: Door, monkeypatch) -> None:
    real = undo._apply
    calls = []

    def failing(actor, plan):
        calls.append(plan.id)
        if len(calls) == 3:
            raise RuntimeError("injected failure at the third item")
        real(actor, plan)

    monkeypatch.setattr(undo, "_apply", failing)
    before = everything()
    answer = editor.mcp(
        "changes_revert", {"by": {"token": token_id(assistant)}, "since": session["since"], "dryRun": False}
    )
    assert answer.get("error") == "INTERNAL_ERROR", answer
    assert everything() == before, "a failed undo left some items reverted"


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        ({"by": {"token": "pat:1"}, "since": "2999-01-01T00:00:00Z"}, "future"),
        ({"by": {"token": "pat:1"}, "since": "yesterday"}, "since"),
        ({"by": {"token": "pat:1", "user": "a@example.com"}, "since": "2020-01-01T00:00:00Z"}, "exactly one"),
        ({"by": {}, "since": "2020-01-01T00:00:00Z"}, "exactly one"),
        ({"by": {"user": "nobody@example.com"}, "since": "2020-01-01T00:00:00Z"}, "no user"),
        ({"by": {"token": "pat:999999"}, "since": "2020-01-01T00:00:00Z"}, "Nothing to undo"),
    ],
)
def test_bad_input_is_a_clear_error_that_changes_nothing(
    session: dict[str, str], editor: Door, arguments, problem
) -> None:
    before = everything()
    answer = editor.mcp("changes_revert", {**arguments, "dryRun": False})
    assert answer["error"] == "VALIDATION_ERROR" and problem in answer["message"], answer
    assert everything() == before


def test_only_editors_with_content_write_may_undo(session: dict[str, str], assistant: Door) -> None:
    args = {"by": {"token": token_id(assistant)}, "since": session["since"]}
    author = Door(token_for(new_user(Role.AUTHOR), ["content:read", "content:write"]))
    assert author.mcp("changes_revert", args)["error"] == "INSUFFICIENT_PERMISSIONS"
    drafter = Door(token_for(new_user(Role.EDITOR), ["content:read", "content:draft"]))
    assert drafter.mcp("changes_revert", args)["error"] == "INSUFFICIENT_SCOPE"


# --- the admin's "Undo these changes" ------------------------------------------------------------------------


def test_admin_audit_log_undoes_a_tokens_changes_after_showing_the_plan(
    session: dict[str, str], assistant: Door
) -> None:
    admin = Client()
    admin.force_login(new_user(Role.ADMIN))
    token = token_id(assistant)
    page = admin.get("/_emdash/admin/audit/", {"token": token}).content.decode()
    assert "Undo these changes" in page and "Preview the undo" in page
    before = everything()
    since = timezone.localtime(timezone.now() - timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M")
    preview = admin.post("/_emdash/admin/audit/undo/", {"token": token, "since": since}).content.decode()
    assert everything() == before, "the preview changed something"
    assert "Confirm: undo 4 items" in preview and "Invented" in preview
    since_iso = re.search(r'name="since" value="([^"]+)"', preview).group(1)
    done = admin.post("/_emdash/admin/audit/undo/", {"token": token, "since": since_iso, "confirm": "1"})
    assert "4 items reverted" in done.content.decode()
    assert row_of(session["made"])["trashed"] and not row_of(session["doomed"])["trashed"]


def test_admin_undo_with_an_empty_window_says_so_and_changes_nothing(session: dict[str, str], assistant: Door) -> None:
    admin = Client()
    admin.force_login(new_user(Role.ADMIN))
    before = everything()
    answer = admin.post("/_emdash/admin/audit/undo/", {"client": "nobody", "since": "2020-01-01T00:00"}, follow=True)
    assert "Nothing to undo" in answer.content.decode()
    assert everything() == before


def test_undo_by_oauth_client_takes_back_what_its_tokens_did(alice: User, editor: Door) -> None:
    from accounts.oauth.models import OAuthClient
    from accounts.oauth.tokens import issue_pair

    app = OAuthClient.objects.create(client_id="helper-app", name="Helper App", redirect_uris=["https://x.test/cb"])
    pair = issue_pair(
        client=app, user=alice, scopes=["content:read", "content:draft"], resource="http://testserver/_emdash/api/mcp"
    )
    since = timezone.now().isoformat()
    made = Door(pair["access_token"]).mcp("content_create", {"collection": "posts", "data": {"title": "Via OAuth"}})
    row = AuditLog.objects.get(action="content_create")
    assert (row.oauth_client_id, row.oauth_client_name, row.token_ref[:6]) == ("helper-app", "Helper App", "oauth:")
    listed = editor.mcp("revision_list", {"collection": "posts", "id": made["item"]["id"]})["items"]
    assert listed[0]["via"] == {"door": "mcp", "client": AGENT, "token": "Helper App"}
    done = editor.mcp("changes_revert", {"by": {"client": "helper-app"}, "since": since, "dryRun": False})
    assert [i["action"] for i in done["items"]] == ["trash"] and row_of(made["item"]["id"])["trashed"]
