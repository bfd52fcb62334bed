"""granian (ASGI), the recommended server: MCP calls and the admin's live updates over its websockets, with the
command line the README documents."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import httpx
import pytest
from django.conf import settings
from django.test import Client

from accounts.tokens import token_create
from tests.mcp.conftest import fast_user
from tests.servers import serve

GRANIAN = [
    str(Path(sys.executable).parent / "granian"),
    *("--interface", "asgi", "--host", "127.0.0.1", "--port", "{port}", "--workers", "1", "config.asgi:application"),
]


def _thread_policies(server: int) -> list[int]:
    """The scheduling policy of every thread of the server's worker processes (its children)."""
    workers = [int(stat.parent.name) for stat in Path("/proc").glob("[0-9]*/stat") if _parent(stat) == server]
    return [os.sched_getscheduler(int(task.name)) for pid in workers for task in Path(f"/proc/{pid}/task").iterdir()]


def _parent(stat: Path) -> int | None:
    try:
        return int(stat.read_text().rsplit(")", 1)[1].split()[1])  # the field after the state
    except (OSError, IndexError, ValueError):
        return None


def test_live_updates_reach_the_admin_websocket_under_granian(posts, tmp_path):
    connect = pytest.importorskip("websockets.sync.client").connect
    refused = pytest.importorskip("websockets.exceptions").WebSocketException
    admin = fast_user()
    token = token_create(user=admin, name="granian", scopes=["admin"]).raw
    browser = Client()
    browser.force_login(admin)
    cookie = f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}"
    # The session's hash is signed with the secret key: the server must use this process's.
    env = {"EMDASH_VAR_DIR": str(tmp_path), "EMDASH_RATE_LIMITS": "off", "SECRET_KEY": settings.SECRET_KEY}
    with serve(GRANIAN, env) as (base, server):
        policies = _thread_policies(server.pid)
        socket_url = base.replace("http://", "ws://") + "/_emdash/admin/ws/changes/"
        with connect(socket_url, additional_headers={"Cookie": cookie, "Origin": base}, open_timeout=10) as socket:
            body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call"}
            body["params"] = {"name": "content_create", "arguments": {"collection": "posts", "data": {"title": "Live"}}}
            headers = {"Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream"}
            headers["MCP-Protocol-Version"] = "2025-11-25"
            answer = httpx.post(base + "/_emdash/api/mcp", json=body, headers=headers, timeout=30).json()
            assert "structuredContent" in answer.get("result", {}), answer
            created = answer["result"]["structuredContent"]
            notice = json.loads(socket.recv(timeout=10))
        # Refused without the session: the socket checks who is listening.
        with pytest.raises(refused), connect(socket_url, additional_headers={"Origin": base}) as anonymous:
            anonymous.recv(timeout=5)
    # The worker's threads (event loop, granian's, the HTTP threads) run SCHED_BATCH (threaded_wsgi.batch_scheduling)
    if hasattr(os, "sched_getscheduler"):
        assert policies and set(policies) == {os.SCHED_BATCH}, policies
    assert notice["id"] == created.get("item", created)["id"]
    assert (notice["collection"], notice["action"]) == ("posts", "created")
    assert notice["by"] == f"{admin.email} via an API client"
