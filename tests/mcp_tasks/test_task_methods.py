"""MCP Tasks (seed 001, protocol 2025-11-25) in process: creation, the status machine, ownership, limits.

The worker is simulated by calling the job (``run_mcp_task.call``) directly; tests/mcp_tasks/test_live.py runs
the real worker process.
"""

from __future__ import annotations

from datetime import timedelta
from importlib.util import find_spec

import orjson
import pytest
from django.test import override_settings
from django.utils import timezone

from accounts.tokens import token_revoke
from audit.models import AuditLog
from emdash.roles import Role
from mcp_endpoint import task_store
from mcp_endpoint.models import McpTask
from mcp_endpoint.registry import REGISTRY, load_tools
from mcp_endpoint.tasks_exec import run_mcp_task
from tests.mcp.conftest import MCP, MakeMCP

TASKS = "2025-11-25"
RELATED = "io.modelcontextprotocol/related-task"
INVALID_PARAMS = -32602
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601


def create(mcp: MCP, name: str, arguments: dict | None = None, task: dict | None = None, **kw) -> dict:
    params = {"name": name, "arguments": arguments or {}, "task": {} if task is None else task}
    return mcp.result("tools/call", params, version=kw.pop("version", TASKS), **kw)["task"]


def work(task_id: str) -> str:
    """What the worker does with one queued job."""
    return run_mcp_task.call(task_id)


def test_capability_is_advertised_from_2025_11_25_only(mcp: MCP):
    for version in ("2025-11-25",):
        caps = mcp.result(
            "initialize", {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
        )["capabilities"]
        assert caps["tasks"] == {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}
    for version in ("2025-06-18", "2025-03-26", "2024-11-05"):
        caps = mcp.result(
            "initialize", {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
        )["capabilities"]
        assert "tasks" not in caps
    # 2026-07-28 moved tasks into an extension: tests/mcp_tasks/test_task_ext.py


def test_every_tool_declares_optional_task_support_from_2025_11_25(mcp: MCP):
    load_tools()
    tools = mcp.result("tools/list", version=TASKS)["tools"]
    assert len(tools) == len(REGISTRY)
    assert all(t["execution"] == {"taskSupport": "optional"} for t in tools)
    for version in ("2025-06-18", "2025-03-26"):
        assert all("execution" not in t for t in mcp.result("tools/list", version=version)["tools"])


def test_task_runs_and_result_equals_the_direct_call(mcp: MCP):
    mcp.ok("menu_create", {"name": "main", "label": "Main"}, version=TASKS)
    direct = mcp.call("menu_list", {}, version=TASKS)
    task = create(mcp, "menu_list", task={"ttl": 60000})
    assert task["status"] == "working"
    assert set(task) >= {"taskId", "status", "createdAt", "lastUpdatedAt", "ttl", "pollInterval"}
    assert task["ttl"] == 60000 and task["pollInterval"] == 1000
    assert task["createdAt"].endswith("Z")
    row = McpTask.objects.get(pk=task["taskId"])
    assert row.owner == mcp.user and row.arguments == {} and row.tool_name == "menu_list"

    assert work(task["taskId"]) == "completed"
    got = mcp.result("tasks/get", {"taskId": task["taskId"]}, version=TASKS)
    assert got["status"] == "completed" and got["taskId"] == task["taskId"]
    result = mcp.result("tasks/result", {"taskId": task["taskId"]}, version=TASKS)
    assert result["_meta"][RELATED] == {"taskId": task["taskId"]}
    assert result["isError"] is False
    assert orjson.loads(result["content"][0]["text"]) == orjson.loads(direct["content"][0]["text"])
    assert result["structuredContent"] == direct["structuredContent"]
    actions = set(AuditLog.objects.filter(user=mcp.user).values_list("action", "outcome"))
    assert {
        ("tasks/create:menu_list", "ok"),
        ("menu_list", "ok"),
        ("tasks/complete:menu_list", "completed"),
        ("tasks/result:menu_list", "completed"),
    } <= actions
    audit = AuditLog.objects.get(user=mcp.user, action="menu_list", trace_id=row.trace_id)
    assert audit.token_ref == row.token_ref  # the task's run is audited like the call, with the creator's token


def test_task_param_is_ignored_before_2025_11_25(mcp: MCP):
    for version in ("2025-06-18", "2025-03-26"):
        result = mcp.result("tools/call", {"name": "menu_list", "arguments": {}, "task": {}}, version=version)
        assert "task" not in result and result["isError"] is False
    assert not McpTask.objects.exists()
    assert mcp.error("tasks/list", {}, version="2025-06-18")["code"] == METHOD_NOT_FOUND


def test_tool_error_fails_the_task_and_keeps_the_tool_result(mcp: MCP):
    task = create(mcp, "menu_get", {"name": "nope"})
    assert work(task["taskId"]) == "failed"
    got = mcp.result("tasks/get", {"taskId": task["taskId"]}, version=TASKS)
    assert got["status"] == "failed" and got["statusMessage"]
    result = mcp.result("tasks/result", {"taskId": task["taskId"]}, version=TASKS)
    assert result["isError"] is True and result["_meta"]["code"] == "NOT_FOUND"
    assert result["_meta"][RELATED] == {"taskId": task["taskId"]}


def test_invalid_arguments_fail_at_run_time_like_the_direct_call(mcp: MCP):
    task = create(mcp, "menu_list", {"bogus": 1})
    assert work(task["taskId"]) == "failed"
    result = mcp.result("tasks/result", {"taskId": task["taskId"]}, version=TASKS)
    assert result["_meta"]["code"] == "VALIDATION_ERROR"


def test_denied_call_makes_no_task(make_mcp: MakeMCP):
    reader = make_mcp(Role.ADMIN, ["content:read"])
    error = reader.error(
        "tools/call", {"name": "menu_create", "arguments": {}, "task": {}}, version=TASKS, status=403
    )  # step-up authorization (SPEC 5.3)
    assert error["code"] == INVALID_REQUEST and error["data"]["code"] == "INSUFFICIENT_SCOPE"
    contributor = make_mcp(Role.CONTRIBUTOR, "admin")
    error = contributor.error("tools/call", {"name": "schema_list_collections", "task": {}}, version=TASKS)
    assert error["data"]["code"] == "INSUFFICIENT_PERMISSIONS"
    assert not McpTask.objects.exists()
    assert reader.error("tools/call", {"name": "no_such_tool", "task": {}}, version=TASKS)["code"] == INVALID_PARAMS


@pytest.mark.parametrize("bad", [[], "x", {"ttl": -1}, {"ttl": "60"}, {"ttl": 1.5}, {"ttl": True}])
def test_malformed_task_param_is_invalid_params(mcp: MCP, bad):
    error = mcp.error("tools/call", {"name": "menu_list", "task": bad}, version=TASKS)
    assert error["code"] == INVALID_PARAMS
    assert not McpTask.objects.exists()


def test_ttl_is_capped_and_defaulted(mcp: MCP):
    assert create(mcp, "menu_list", task={"ttl": 10**12})["ttl"] == 24 * 60 * 60 * 1000
    assert create(mcp, "menu_list")["ttl"] == 60 * 60 * 1000
    with override_settings(EMDASH={"TASKS_MAX_TTL": 5000}):
        assert create(mcp, "menu_list", task={"ttl": 60000})["ttl"] == 5000


def test_revoked_token_fails_the_task_at_run_time(mcp: MCP):
    task = create(mcp, "menu_list")
    token_revoke(user=mcp.user, token_id=mcp.issued.token.pk)
    assert work(task["taskId"]) == "failed"
    row = McpTask.objects.get(pk=task["taskId"])
    assert row.error["code"] == INVALID_REQUEST and "revoked" in row.error["message"]


def test_scopes_are_rechecked_at_run_time(mcp: MCP, make_mcp: MakeMCP):
    """The owner's role is read again when the task runs: a demoted user's queued task is refused."""
    task = create(mcp, "schema_list_collections")
    mcp.user.role = Role.CONTRIBUTOR
    mcp.user.save(update_fields=["role"])
    assert work(task["taskId"]) == "failed"
    assert McpTask.objects.get(pk=task["taskId"]).error["data"]["code"] == "INSUFFICIENT_PERMISSIONS"


def test_other_users_get_invalid_params_and_never_see_the_task(mcp: MCP, make_mcp: MakeMCP):
    task = create(mcp, "menu_list")
    work(task["taskId"])
    other = make_mcp()
    for method in ("tasks/get", "tasks/result", "tasks/cancel"):
        error = other.error(method, {"taskId": task["taskId"]}, version=TASKS)
        assert error["code"] == INVALID_PARAMS, method
        unknown = other.error(method, {"taskId": "no-such-task"}, version=TASKS)
        assert unknown["message"].replace("no-such-task", task["taskId"]) == error["message"]  # indistinguishable
    assert other.result("tasks/list", {}, version=TASKS)["tasks"] == []
    assert [t["taskId"] for t in mcp.result("tasks/list", {}, version=TASKS)["tasks"]] == [task["taskId"]]
    # Another token of the same user does see it: tasks belong to the user.
    same_user = make_mcp(user=mcp.user)
    assert same_user.result("tasks/get", {"taskId": task["taskId"]}, version=TASKS)["status"] == "completed"


@pytest.mark.parametrize("bad", [None, 5, "", "x" * 65])
def test_bad_task_ids_are_invalid_params(mcp: MCP, bad):
    params = {} if bad is None else {"taskId": bad}
    assert mcp.error("tasks/get", params, version=TASKS)["code"] == INVALID_PARAMS


def test_list_is_paginated_newest_first(mcp: MCP, monkeypatch):
    from mcp_endpoint import task_methods

    monkeypatch.setattr(task_methods, "PAGE_SIZE", 2)
    ids = [create(mcp, "menu_list")["taskId"] for _ in range(5)]
    seen: list[str] = []
    cursor = None
    while True:
        page = mcp.result("tasks/list", {} if cursor is None else {"cursor": cursor}, version=TASKS)
        seen += [t["taskId"] for t in page["tasks"]]
        cursor = page.get("nextCursor")
        if cursor is None:
            break
    assert seen == list(reversed(ids))
    assert mcp.error("tasks/list", {"cursor": "garbage"}, version=TASKS)["code"] == INVALID_PARAMS


def test_cursor_of_another_user_is_refused(mcp: MCP, make_mcp: MakeMCP, monkeypatch):
    from mcp_endpoint import task_methods

    monkeypatch.setattr(task_methods, "PAGE_SIZE", 1)
    for _ in range(2):
        create(mcp, "menu_list")
    cursor = mcp.result("tasks/list", {}, version=TASKS)["nextCursor"]
    assert make_mcp().error("tasks/list", {"cursor": cursor}, version=TASKS)["code"] == INVALID_PARAMS


def test_cancel_a_working_task_and_the_worker_does_not_overwrite_it(mcp: MCP):
    task = create(mcp, "menu_create", {"name": "never", "label": "Never"})
    cancelled = mcp.result("tasks/cancel", {"taskId": task["taskId"]}, version=TASKS)
    assert cancelled["status"] == "cancelled" and cancelled["taskId"] == task["taskId"]
    assert work(task["taskId"]) == "skipped"  # the queued job finds it cancelled and does nothing
    assert not mcp.ok("menu_list", {}, version=TASKS)["items"]
    error = mcp.error("tasks/cancel", {"taskId": task["taskId"]}, version=TASKS)
    assert error["code"] == INVALID_PARAMS and "cancelled" in error["message"]
    assert mcp.error("tasks/result", {"taskId": task["taskId"]}, version=TASKS)["code"] == INVALID_PARAMS


def test_cancel_while_running_keeps_cancelled(mcp: MCP):
    """The worker's finish is conditional: a cancel that lands mid-run wins."""
    task = create(mcp, "menu_list")
    row = task_store.claim(task["taskId"])
    assert row is not None and row.attempts == 1
    mcp.result("tasks/cancel", {"taskId": task["taskId"]}, version=TASKS)
    assert task_store.finish(task["taskId"], McpTask.COMPLETED, result={"content": []}) is False
    assert McpTask.objects.get(pk=task["taskId"]).status == "cancelled"


def test_terminal_tasks_cannot_be_cancelled(mcp: MCP):
    done = create(mcp, "menu_list")
    work(done["taskId"])
    failed = create(mcp, "menu_get", {"name": "nope"})
    work(failed["taskId"])
    for task_id, status in ((done["taskId"], "completed"), (failed["taskId"], "failed")):
        error = mcp.error("tasks/cancel", {"taskId": task_id}, version=TASKS)
        assert error["code"] == INVALID_PARAMS and error["data"]["status"] == status


def test_a_task_is_claimed_once(mcp: MCP):
    task = create(mcp, "menu_create", {"name": "once", "label": "Once"})
    assert work(task["taskId"]) == "completed"
    assert work(task["taskId"]) == "skipped"  # a duplicate delivery (at-least-once queues) runs nothing
    assert len(mcp.ok("menu_list", {}, version=TASKS)["items"]) == 1


def test_per_user_limit_on_working_tasks(mcp: MCP, make_mcp: MakeMCP):
    with override_settings(EMDASH={"TASKS_MAX_WORKING": 2}):
        first = create(mcp, "menu_list")
        create(mcp, "menu_list")
        error = mcp.error("tools/call", {"name": "menu_list", "task": {}}, version=TASKS)
        assert error["code"] == INVALID_REQUEST and error["data"] == {"code": "TASK_LIMIT", "limit": 2}
        assert "at most 2" in error["message"]
        assert make_mcp().result("tools/call", {"name": "menu_list", "task": {}}, version=TASKS)["task"]
        work(first["taskId"])  # a finished task frees its slot
        assert create(mcp, "menu_list")["status"] == "working"
    assert McpTask.objects.filter(owner=mcp.user).count() == 3


def test_result_of_a_working_task_waits_then_says_so(mcp: MCP, monkeypatch):
    from mcp_endpoint import task_methods

    monkeypatch.setattr(task_methods, "RESULT_WAIT", 0.3)
    task = create(mcp, "menu_list")
    error = mcp.error("tasks/result", {"taskId": task["taskId"]}, version=TASKS)
    assert error["code"] == INVALID_REQUEST and error["data"]["code"] == "TASK_NOT_FINISHED"
    assert error["data"]["status"] == "working"


def test_sweep_deletes_expired_and_fails_abandoned_tasks(mcp: MCP):
    expired = create(mcp, "menu_list", task={"ttl": 1000})
    abandoned = create(mcp, "menu_list")
    fresh = create(mcp, "menu_list")
    assert task_store.claim(abandoned["taskId"]) is not None
    McpTask.objects.filter(pk=abandoned["taskId"]).update(lease_expires_at=timezone.now() - timedelta(seconds=1))
    later = timezone.now() + timedelta(seconds=2)
    assert task_store.sweep(now=later) == 2
    assert not McpTask.objects.filter(pk=expired["taskId"]).exists()
    row = McpTask.objects.get(pk=abandoned["taskId"])
    assert row.status == "failed" and "stopped before it finished" in row.status_message
    assert McpTask.objects.get(pk=fresh["taskId"]).status == "working"
    error = mcp.error("tasks/result", {"taskId": abandoned["taskId"]}, version=TASKS)
    assert error["code"] == -32603 and error["data"][RELATED] == {"taskId": abandoned["taskId"]}


def test_expired_tasks_are_invisible_before_the_sweep(mcp: MCP):
    task = create(mcp, "menu_list")
    McpTask.objects.filter(pk=task["taskId"]).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert mcp.error("tasks/get", {"taskId": task["taskId"]}, version=TASKS)["code"] == INVALID_PARAMS
    assert mcp.result("tasks/list", {}, version=TASKS)["tasks"] == []
    assert work(task["taskId"]) == "skipped"


def test_the_backend_is_a_setting(mcp: MCP, django_capture_on_commit_callbacks):
    """With the immediate backend the job runs when the creating transaction commits, no worker needed."""
    from emdash.background import uses_database_queue

    assert uses_database_queue()
    package = "django.tasks" if find_spec("django.tasks") else "django_tasks"  # Django 6, or the 5.2 backport
    immediate = {"default": {"BACKEND": f"{package}.backends.immediate.ImmediateBackend"}}
    with override_settings(TASKS=immediate):
        assert not uses_database_queue()
        with django_capture_on_commit_callbacks(execute=True):
            task = create(mcp, "menu_list")
        assert McpTask.objects.get(pk=task["taskId"]).status == "completed"


def test_a_failed_hand_off_fails_the_task(mcp: MCP, django_capture_on_commit_callbacks):
    broken = {"default": {"BACKEND": "tests.no_such_module.Backend"}}
    with override_settings(TASKS=broken), django_capture_on_commit_callbacks(execute=True):
        task = create(mcp, "menu_list")
    row = McpTask.objects.get(pk=task["taskId"])
    assert row.status == "failed" and "could not be queued" in row.status_message
