"""SPEC 12 + 5.6: an assistant migrates a site with the MCP tool ``import_wordpress``, run as a task by a real
``emdash_worker`` process; the WXR file is fetched from its URL (a local server, allowed by
EMDASH_FETCH_ALLOW_PRIVATE in the worker only)."""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

from content.schema import specs as schema
from emdash.roles import Role
from tests import servers
from tests.mcp_e2e.conftest import new_user, token_for
from tests.mcp_tasks.test_live import Http

DATA = Path(__file__).parent / "wordpress_data"
pytestmark = pytest.mark.slow


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def wxr_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(DATA)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/site.wxr"
    server.shutdown()


@pytest.fixture
def worker(cms: None) -> Iterator[Any]:
    proc = servers.start_worker({"EMDASH_FETCH_ALLOW_PRIVATE": "1"})
    yield proc
    servers.stop_worker(proc)


def test_import_wordpress_runs_as_a_task_in_the_worker(live_server: Any, worker: Any, wxr_url: str) -> None:
    http = Http(live_server.url + "/_emdash/api/mcp", token_for(new_user(Role.ADMIN), ["admin"]))
    arguments = {"url": wxr_url}
    created = http.result("tools/call", {"name": "import_wordpress", "arguments": arguments, "task": {}})["task"]
    task = http.wait(created["taskId"], timeout=180)
    assert task["status"] == "completed", task
    report = http.result("tasks/result", {"taskId": created["taskId"]})["structuredContent"]
    assert report["created"]["posts"] == 5 and report["created"]["pages"] == 2 and report["created"]["menus"] == 1
    assert schema.current(fresh=True).get("posts").model.objects.filter(slug="formatting").exists()
    again = http.result("tools/call", {"name": "import_wordpress", "arguments": arguments, "task": {}})["task"]
    assert http.wait(again["taskId"], timeout=180)["status"] == "completed"
    second = http.result("tasks/result", {"taskId": again["taskId"]})["structuredContent"]
    assert second["created"] == {} and second["alreadyImported"]["posts"] == 5


def test_an_editor_cannot_import(live_server: Any, cms: None) -> None:
    http = Http(live_server.url + "/_emdash/api/mcp", token_for(new_user(Role.EDITOR), ["content:write"]))
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "import_wordpress", "arguments": {}}}
    response = httpx.post(http.url, json=body, headers=http.headers, timeout=30)
    assert response.status_code == 403 and response.json()["error"]["data"]["requiredScope"] == "admin"
    assert "posts" not in schema.current(fresh=True).collections
