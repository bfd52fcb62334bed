"""Every door builds one ``Call`` (emdash/call.py) carrying the provenance SPEC 9.3 asks for — door, user, token
id and name or OAuth client id and name, the calling program's name and version — and every audit row is built
from it by ``emdash.audit.record``, written in the write's transaction or batched off the request path."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from django.test import Client

from accounts.auth import resolve_bearer
from accounts.oauth.models import OAuthClient
from accounts.oauth.tokens import issue_pair
from accounts.tokens import token_create
from audit import record as audit
from audit import writer as audit_writer
from audit.models import AuditLog
from emdash.actor import Actor
from emdash.call import Call, agent_version
from tests.api.helpers import session_client
from tests.factories import SYSTEM, make_user
from tests.mcp.conftest import MODERN, MakeMCP, modern_meta


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[Call]:
    """Every Call an audit row is built from, in order (all rows go through ``audit.columns``)."""
    seen: list[Call] = []
    real = audit.columns  # both writers (now and later) build their row's columns here

    def spy(call: Call, *args: Any, **kwargs: Any) -> dict[str, Any]:
        seen.append(call)
        return real(call, *args, **kwargs)

    monkeypatch.setattr(audit, "columns", spy)
    return seen


def test_mcp_names_the_program_from_meta_client_info_at_2026_07_28(make_mcp: MakeMCP, calls: list[Call]) -> None:
    client = make_mcp("admin", "admin")
    meta = {**modern_meta(), "io.modelcontextprotocol/clientInfo": {"name": "Claude Code", "version": "2.1.0"}}
    params = {"name": "settings_get", "_meta": meta}
    client.result("tools/call", params, version=MODERN, headers={"User-Agent": "node-fetch/3.0"})
    (call,) = calls
    assert (call.door, call.client, call.client_version) == ("mcp", "Claude Code", "2.1.0")
    assert call.user == client.user and call.token_id == f"pat:{client.issued.token.pk}"
    assert call.token_name == "test token" and call.oauth_client_id == "" and call.oauth_client_name == ""
    assert AuditLog.objects.get(trace_id=call.trace_id).client == "Claude Code"


def test_a_client_name_cannot_reorder_or_hide_what_the_audit_log_shows(make_mcp: MakeMCP, calls: list[Call]) -> None:
    """clientInfo is the caller's own text, shown in the audit log and as "by Alice via X (MCP)": a right-to-left
    override (U+202E) in it reversed the rest of that line on screen ("via ‮Evil (MCP)" reads backwards), and
    zero-width or control characters hid parts of it. Such characters are dropped from the recorded name."""
    client = make_mcp("admin", "admin")
    info = {"name": "\u202eEvil\u200b Bot\x1b[31m\u2066", "version": "1\u202e.0"}
    meta = {**modern_meta(), "io.modelcontextprotocol/clientInfo": info}
    client.result("tools/call", {"name": "settings_get", "_meta": meta}, version=MODERN)
    (call,) = calls
    assert (call.client, call.client_version) == ("Evil Bot[31m", "1.0")
    assert AuditLog.objects.get(trace_id=call.trace_id).client == "Evil Bot[31m"


def test_mcp_before_2026_names_the_program_by_its_user_agent(make_mcp: MakeMCP, calls: list[Call]) -> None:
    client = make_mcp("admin", "admin")
    client.call("settings_get", version="2025-06-18", headers={"User-Agent": "cursor/1.4.2 (darwin)"})
    (call,) = calls
    assert (call.door, call.client, call.client_version) == ("mcp", "cursor/1.4.2 (darwin)", "1.4.2")


def test_rest_names_the_program_by_its_user_agent(db: None, calls: list[Call]) -> None:
    user = make_user("admin")
    issued = token_create(user=user, name="deploy bot", scopes="admin")
    client = Client(headers={"Authorization": f"Bearer {issued.raw}", "User-Agent": "emdash-cli/0.3"})
    assert client.post("/_emdash/api/menus", {"name": "top", "label": "Top"}, "application/json").status_code == 201
    (call,) = calls
    assert (call.door, call.user, call.token_name, call.client, call.client_version) == (
        "rest",
        user,
        "deploy bot",
        "emdash-cli/0.3",
        "0.3",
    )
    assert call.token_id == f"pat:{issued.token.pk}"


def test_the_admin_call_is_the_session_user_without_token_or_program(db: None, calls: list[Call]) -> None:
    user = make_user("admin")
    response = session_client(user).post("/_emdash/admin/menus/", {"name": "top", "label": "Top"})
    assert response.status_code in (200, 302)
    assert [(c.door, c.user, c.token_id, c.client) for c in calls] == [("admin", user, "", "")]


def test_an_oauth_token_carries_its_clients_id_and_name(db: None) -> None:
    app = OAuthClient.objects.create(client_id="claude-ai", name="Claude", redirect_uris=["https://c.example/cb"])
    resource = "https://cms.example/_emdash/api/mcp"
    pair = issue_pair(client=app, user=make_user("editor"), scopes=["content:read"], resource=resource)
    actor = resolve_bearer(pair["access_token"], resource)
    assert actor is not None
    call = Call.at("mcp", actor)
    assert (call.oauth_client_id, call.oauth_client_name) == ("claude-ai", "Claude")
    assert call.token_id.startswith("oauth:") and call.token_name == ""


def test_the_worker_runs_a_task_under_a_worker_call(transactional_db: None, calls: list[Call]) -> None:
    from mcp_endpoint.tasks_exec import execute_tool_call

    actor = Actor.for_user(make_user("admin"))
    result, error = execute_tool_call(
        actor, "settings_get", {}, version="2025-11-25", trace_id="a" * 24, client_name="Claude Code"
    )
    assert error is None and result is not None and result["isError"] is False
    assert [(c.door, c.client, c.trace_id) for c in calls] == [("worker", "Claude Code", "a" * 24)]
    assert AuditLog.objects.get(action="settings_get", trace_id="a" * 24).source == "worker"


def test_user_agent_versions() -> None:
    assert agent_version("claude-code/1.2.3 (linux)") == "1.2.3"
    assert agent_version("curl/8.5.0") == "8.5.0"
    assert agent_version("Mozilla") == "" and agent_version("") == ""


def test_record_now_commits_and_rolls_back_with_the_write(db: None) -> None:
    call = Call.at("worker", SYSTEM)
    with pytest.raises(RuntimeError), transaction.atomic():
        audit.record(call, "menu_create", "ok", "menus/top")
        assert AuditLog.objects.filter(trace_id=call.trace_id).exists()  # inside the write's transaction
        raise RuntimeError("the write failed")
    assert not AuditLog.objects.filter(trace_id=call.trace_id).exists()
    audit.record(call, "menu_create", "ok", "menus/top", started=0.0)
    row = AuditLog.objects.get(trace_id=call.trace_id)
    assert (row.source, row.action, row.target, row.outcome) == ("worker", "menu_create", "menus/top", "ok")
    assert row.trace_id == call.trace_id and row.duration_ms > 0


def test_record_later_goes_to_the_doors_batch_and_the_writer_flushes_it(transactional_db: None, settings) -> None:
    settings.EMDASH = {**settings.EMDASH, "AUDIT_ASYNC": True, "AUDIT_FLUSH_INTERVAL": 0.05}
    batch: list[AuditLog] = []
    call = Call(Actor.for_user(make_user("editor")), "mcp", "b" * 24, "Claude\x00Code")
    audit.record(call, "content_get", "ok", later=batch.append)
    audit.record(call, "content_get", "NOT_FOUND", later=batch.append)
    assert len(batch) == 2 and not AuditLog.objects.filter(trace_id="b" * 24).exists()  # nothing written yet
    audit_writer.submit(batch)
    audit_writer.flush()
    rows = list(AuditLog.objects.filter(trace_id="b" * 24).order_by("id").values_list("outcome", "client", "user_id"))
    user_id = call.actor.user_id
    assert rows == [("ok", "Claude\ufffdCode", user_id), ("NOT_FOUND", "Claude\ufffdCode", user_id)]
