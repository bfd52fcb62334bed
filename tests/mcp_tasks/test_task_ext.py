"""MCP Tasks at 2026-07-28: the io.modelcontextprotocol/tasks extension (SEP-2663) over the same task rows.

The worker is simulated by calling the job directly, as in test_task_methods.py (the 2025-11-25 wire).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import orjson
from django.test import override_settings
from django.utils import timezone

from audit.models import AuditLog
from emdash.roles import Role
from mcp_endpoint import task_store
from mcp_endpoint.models import McpTask
from tests.mcp.conftest import MCP, MakeMCP, modern_meta
from tests.mcp_tasks.test_task_methods import work

MODERN = "2026-07-28"
EXT = "io.modelcontextprotocol/tasks"
CAPS = "io.modelcontextprotocol/clientCapabilities"
INVALID_PARAMS = -32602
METHOD_NOT_FOUND = -32601
MISSING_CAPABILITY = -32021
HEADER_MISMATCH = -32020


def declaring(params: dict[str, Any]) -> dict[str, Any]:
    """params whose _meta declares the tasks extension (per request: the revision has no session)."""
    meta = modern_meta()
    meta[CAPS] = {"extensions": {EXT: {}}}
    return {**params, "_meta": meta}


def start(mcp: MCP, name: str, arguments: dict | None = None, **extra: Any) -> dict[str, Any]:
    return mcp.result("tools/call", declaring({"name": name, "arguments": arguments or {}, **extra}), version=MODERN)


def get(mcp: MCP, task_id: str) -> dict[str, Any]:
    return mcp.result("tasks/get", declaring({"taskId": task_id}), version=MODERN)


def test_discover_advertises_the_extension_not_the_2025_slot(mcp: MCP):
    caps = mcp.result("server/discover", version=MODERN)["capabilities"]
    assert caps["extensions"] == {EXT: {}}
    assert "tasks" not in caps
    tools = mcp.result("tools/list", version=MODERN)["tools"]
    assert all("execution" not in t for t in tools)  # deleted from Tool in this revision


def test_without_the_extension_calls_run_at_once_even_with_a_task_hint(mcp: MCP):
    result = mcp.result("tools/call", {"name": "menu_list", "arguments": {}, "task": {"ttl": 1000}}, version=MODERN)
    assert result["resultType"] == "complete" and result["isError"] is False and "taskId" not in result
    assert not McpTask.objects.exists()


def test_declaring_the_extension_makes_a_flat_create_task_result_and_get_inlines_the_result(mcp: MCP):
    mcp.ok("menu_create", {"name": "main", "label": "Main"}, version=MODERN)
    direct = mcp.call("menu_list", {}, version=MODERN)
    created = start(mcp, "menu_list")
    assert created["resultType"] == "task" and created["status"] == "working"
    assert set(created) == {"resultType", "taskId", "status", "createdAt", "lastUpdatedAt", "ttlMs", "pollIntervalMs"}
    assert isinstance(created["ttlMs"], int) and created["pollIntervalMs"] == 1000
    working = get(mcp, created["taskId"])
    assert working["status"] == "working" and "result" not in working and "error" not in working

    assert work(created["taskId"]) == "completed"
    done = get(mcp, created["taskId"])
    assert done["resultType"] == "complete" and done["status"] == "completed" and done["taskId"] == created["taskId"]
    result = done["result"]
    assert "io.modelcontextprotocol/related-task" not in result["_meta"]  # the taskId is at the root already
    assert orjson.loads(result["content"][0]["text"]) == orjson.loads(direct["content"][0]["text"])
    assert result["structuredContent"] == direct["structuredContent"]
    actions = set(AuditLog.objects.filter(user=mcp.user).values_list("action", "outcome"))
    assert {
        ("tasks/create:menu_list", "ok"),
        ("tasks/complete:menu_list", "completed"),
        ("tasks/get:menu_list", "completed"),
    } <= actions
    assert not AuditLog.objects.filter(action="tasks/get:menu_list", outcome="working").exists()


def test_a_tool_error_is_a_completed_task_with_an_error_result(mcp: MCP):
    created = start(mcp, "menu_get", {"name": "nope"})
    work(created["taskId"])
    done = get(mcp, created["taskId"])
    assert done["status"] == "completed" and "statusMessage" not in done and "error" not in done
    assert done["result"]["isError"] is True and done["result"]["_meta"]["code"] == "NOT_FOUND"
    # the same row read through 2025-11-25 keeps that revision's answer (a tool error fails the task)
    assert McpTask.objects.get(pk=created["taskId"]).status == "failed"


def test_a_protocol_level_failure_is_failed_with_the_error_inlined(mcp: MCP):
    created = start(mcp, "menu_list")
    assert task_store.claim(created["taskId"]) is not None
    McpTask.objects.filter(pk=created["taskId"]).update(lease_expires_at=timezone.now() - timedelta(seconds=1))
    task_store.sweep()
    failed = get(mcp, created["taskId"])
    assert failed["status"] == "failed" and "result" not in failed
    assert failed["error"]["code"] == -32603 and "stopped before it finished" in failed["error"]["message"]


def test_cancel_is_an_idempotent_empty_acknowledgement(mcp: MCP):
    created = start(mcp, "menu_list")
    cancel = declaring({"taskId": created["taskId"]})
    assert mcp.result("tasks/cancel", cancel, version=MODERN) == {"resultType": "complete"}
    assert get(mcp, created["taskId"])["status"] == "cancelled"
    assert work(created["taskId"]) == "skipped"
    assert mcp.result("tasks/cancel", cancel, version=MODERN) == {"resultType": "complete"}
    outcomes = list(AuditLog.objects.filter(action="tasks/cancel:menu_list").values_list("outcome", flat=True))
    assert sorted(outcomes) == ["ALREADY_TERMINAL", "ok"]


def test_unknown_and_foreign_task_ids_are_invalid_params(mcp: MCP, make_mcp: MakeMCP):
    created = start(mcp, "menu_list")
    other = make_mcp(Role.ADMIN, "admin")
    for method in ("tasks/get", "tasks/cancel", "tasks/update"):
        for client, task_id in ((mcp, "nope"), (other, created["taskId"])):
            error = client.error(method, declaring({"taskId": task_id}), version=MODERN)
            assert error["code"] == INVALID_PARAMS, (method, error)
    assert McpTask.objects.get(pk=created["taskId"]).status == "working"


def test_update_says_emdash_tasks_never_wait_for_input(mcp: MCP):
    created = start(mcp, "menu_list")
    error = mcp.error("tasks/update", declaring({"taskId": created["taskId"], "inputResponses": {}}), version=MODERN)
    assert error["code"] == INVALID_PARAMS and error["data"]["status"] == "working"


def test_task_methods_need_the_extension_declared(mcp: MCP):
    created = start(mcp, "menu_list")
    for method in ("tasks/get", "tasks/cancel", "tasks/update"):
        error = mcp.error(method, {"taskId": created["taskId"]}, version=MODERN, status=400)
        assert error["code"] == MISSING_CAPABILITY
        assert error["data"] == {"requiredCapabilities": {"extensions": {EXT: {}}}}
    assert McpTask.objects.get(pk=created["taskId"]).status == "working"


def test_removed_methods_and_the_2026_only_update(mcp: MCP):
    for method in ("tasks/result", "tasks/list"):
        error = mcp.error(method, declaring({"taskId": "x"}), version=MODERN, status=404)
        assert error["code"] == METHOD_NOT_FOUND
    assert mcp.error("tasks/update", {"taskId": "x"}, version="2025-11-25")["code"] == METHOD_NOT_FOUND


def test_task_requests_carry_the_task_id_in_mcp_name(mcp: MCP):
    created = start(mcp, "menu_list")
    params = declaring({"taskId": created["taskId"]})
    missing = mcp.error("tasks/get", params, version=MODERN, headers={"Mcp-Name": ""}, status=400)
    wrong = mcp.error("tasks/get", params, version=MODERN, headers={"Mcp-Name": "other"}, status=400)
    assert missing["code"] == wrong["code"] == HEADER_MISMATCH


def test_ttl_hint_limit_and_denials_as_in_2025(mcp: MCP, make_mcp: MakeMCP):
    assert start(mcp, "menu_list", task={"ttl": 10**12})["ttlMs"] == 24 * 3600 * 1000
    assert start(mcp, "menu_list", task={"ttl": "junk"})["resultType"] == "task"  # a bad hint is tolerated
    with override_settings(EMDASH={"TASKS_MAX_WORKING": 2}):
        error = mcp.error("tools/call", declaring({"name": "menu_list"}), version=MODERN)
        assert error["data"] == {"code": "TASK_LIMIT", "limit": 2}
    reader = make_mcp(Role.ADMIN, ["content:read"])
    error = reader.error("tools/call", declaring({"name": "menu_create", "arguments": {}}), version=MODERN, status=403)
    assert error["data"]["code"] == "INSUFFICIENT_SCOPE"
    assert McpTask.objects.filter(owner=reader.user).count() == 0
