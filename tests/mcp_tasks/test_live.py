"""MCP tasks end to end: a live HTTP server, a real ``emdash_worker`` process, the ``emdash mcp`` bridge.

Runs on SQLite and PostgreSQL (``DATABASE_URL``): the worker subprocess shares the test database.
The kill test makes the worker enter the test-only ``test_block`` tool (tests/mcp_tasks/block_tool.py), waits
for its marker file, SIGKILLs the worker, and checks that the task ends failed instead of staying working.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from io import StringIO
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.core.management import call_command

from audit.models import AuditLog
from emdash.background import TaskResultStatus, default_task_backend
from emdash.roles import Role
from mcp_endpoint.models import McpTask
from mcp_endpoint.registry import REGISTRY
from tests import servers
from tests.mcp_e2e.conftest import new_user, token_for
from tests.mcp_tasks import block_tool

pytestmark = pytest.mark.slow

PROJECT_DIR = Path(__file__).resolve().parents[2]
EMDASH = Path(sys.executable).parent / "emdash"
TASKS = "2025-11-25"
RELATED = "io.modelcontextprotocol/related-task"


def start_worker(settings_module: str = "config.settings") -> subprocess.Popen[str]:
    return servers.start_worker({"DJANGO_SETTINGS_MODULE": settings_module})


stop = servers.stop_worker


@pytest.fixture
def worker(transactional_db: None) -> Iterator[subprocess.Popen[str]]:
    proc = start_worker()
    yield proc
    stop(proc)


class Http:
    def __init__(self, url: str, token: str) -> None:
        self.url = url
        self.headers = {"Authorization": f"Bearer {token}", "MCP-Protocol-Version": TASKS, "Accept": "application/json"}
        self.ids = 0

    def rpc(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.ids += 1
        body = {"jsonrpc": "2.0", "id": self.ids, "method": method, "params": params}
        response = httpx.post(self.url, json=body, headers=self.headers, timeout=30)
        assert response.status_code == 200, response.text
        return response.json()

    def result(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        answer = self.rpc(method, params)
        assert "result" in answer, answer
        return answer["result"]

    def wait(self, task_id: str, timeout: float = 60) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            task = self.result("tasks/get", {"taskId": task_id})
            if task["status"] != "working" or time.monotonic() > deadline:
                return task
            time.sleep(task["pollInterval"] / 1000)


def without_meta(result: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in result.items() if k != "_meta"}


def test_task_round_trip_with_a_live_worker(live_server, worker):
    user = new_user(Role.EDITOR)
    http = Http(live_server.url + "/_emdash/api/mcp", token_for(user, ["menus:manage", "content:read"]))
    http.result("tools/call", {"name": "menu_create", "arguments": {"name": "main", "label": "Main"}})
    direct = http.result("tools/call", {"name": "menu_list", "arguments": {}})

    created = http.result("tools/call", {"name": "menu_list", "arguments": {}, "task": {"ttl": 120000}})["task"]
    assert created["status"] == "working" and created["ttl"] == 120000
    task = http.wait(created["taskId"])
    assert task["status"] == "completed", task
    result = http.result("tasks/result", {"taskId": created["taskId"]})
    assert result["_meta"][RELATED] == {"taskId": created["taskId"]}
    assert without_meta(result) == without_meta(direct)
    listed = http.result("tasks/list", {})["tasks"]
    assert [t["taskId"] for t in listed] == [created["taskId"]]

    row = McpTask.objects.get(pk=created["taskId"])
    assert AuditLog.objects.filter(trace_id=row.trace_id, action="menu_list", outcome="ok").count() == 1


def test_tasks_result_waits_for_the_worker(live_server, worker):
    user = new_user(Role.EDITOR)
    http = Http(live_server.url + "/_emdash/api/mcp", token_for(user, ["menus:manage"]))
    created = http.result("tools/call", {"name": "menu_create", "arguments": {"name": "x", "label": "X"}, "task": {}})
    result = http.result("tasks/result", {"taskId": created["task"]["taskId"]})  # blocks until it is done
    assert result["isError"] is False and result["structuredContent"]["name"] == "x"


def test_database_backend_runs_enqueued_jobs_with_worker_once(transactional_db):
    """The configuration seam: enqueue through the task framework, ``emdash_worker --once`` drains the queue."""
    from mcp_endpoint import task_store
    from mcp_endpoint.tasks_exec import run_mcp_task

    user = new_user(Role.EDITOR)
    row = task_store.create(
        owner_id=user.pk,
        token_ref="",
        client_name="t",
        tool_name="menu_list",
        arguments={},
        protocol_version=TASKS,
        trace_id="abc",
        ttl_ms=60000,
    )
    job = run_mcp_task.enqueue(row.pk)
    assert default_task_backend.get_result(job.id).status == TaskResultStatus.READY
    out = StringIO()
    call_command("emdash_worker", "--once", stdout=out)
    done = default_task_backend.get_result(job.id)
    assert done.status == TaskResultStatus.SUCCESSFUL and done.return_value == "completed"
    row.refresh_from_db()
    assert row.status == "completed" and row.result["isError"] is False


@pytest.fixture
def block(transactional_db: None) -> Iterator[None]:
    block_tool.register()  # the live server (this process) must accept the name when the task is created
    yield
    REGISTRY.pop(block_tool.NAME, None)


def test_worker_killed_mid_task_leaves_it_failed_not_working(live_server, block, tmp_path):
    user = new_user(Role.EDITOR)
    http = Http(live_server.url + "/_emdash/api/mcp", token_for(user, ["settings:read"]))
    proc = start_worker("tests.mcp_tasks.block_settings")
    marker = tmp_path / "entered"
    try:
        created = http.result("tools/call", {"name": "test_block", "arguments": {"marker": str(marker)}, "task": {}})
        task_id = created["task"]["taskId"]
        deadline = time.monotonic() + 60
        while not marker.exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert marker.exists(), "the worker never entered the tool"
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    row = McpTask.objects.get(pk=task_id)
    assert row.status == "working" and row.attempts == 1  # claimed, and the worker died inside the call
    assert http.result("tasks/get", {"taskId": task_id})["status"] == "working"

    time.sleep(max(0.0, (row.lease_expires_at - row.updated_at).total_seconds()) + 0.5)  # the 3 s lease runs out
    call_command("emdash_worker", "--once", stdout=StringIO())  # any worker's next sweep
    task = http.result("tasks/get", {"taskId": task_id})
    assert task["status"] == "failed" and "stopped before it finished" in task["statusMessage"]
    error = http.rpc("tasks/result", {"taskId": task_id})["error"]
    assert error["code"] == -32603 and error["data"][RELATED] == {"taskId": task_id}
    # A second worker does not pick the dead task up again.
    call_command("emdash_worker", "--once", stdout=StringIO())
    assert McpTask.objects.get(pk=task_id).attempts == 1


def test_task_round_trip_through_the_stdio_bridge(live_server, worker):
    user = new_user(Role.EDITOR)
    env = {**os.environ, "EMDASH_TOKEN": token_for(user, ["menus:manage", "content:read"])}
    bridge = subprocess.Popen(
        [str(EMDASH), "mcp", "--url", live_server.url],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert bridge.stdin is not None and bridge.stdout is not None

    def ask(msg_id: int, method: str, params: dict[str, Any]) -> dict[str, Any]:
        bridge.stdin.write(json.dumps({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}) + "\n")
        bridge.stdin.flush()
        answer = json.loads(bridge.stdout.readline())
        assert answer["id"] == msg_id and "result" in answer, answer
        return answer["result"]

    try:
        init = ask(
            1, "initialize", {"protocolVersion": TASKS, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
        )
        assert init["protocolVersion"] == TASKS and "tasks" in init["capabilities"]
        created = ask(2, "tools/call", {"name": "menu_list", "arguments": {}, "task": {}})["task"]
        result = ask(3, "tasks/result", {"taskId": created["taskId"]})
        assert result["isError"] is False and result["_meta"][RELATED] == {"taskId": created["taskId"]}
        assert ask(4, "tasks/get", {"taskId": created["taskId"]})["status"] == "completed"
    finally:
        bridge.stdin.close()
        bridge.wait(timeout=30)
