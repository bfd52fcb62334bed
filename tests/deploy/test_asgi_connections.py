"""Issue 27 goal 1: under an ASGI server, database connections persist across requests. HTTP runs on a fixed pool
of threads (emdash.edge.threaded_wsgi), each keeping its connection (CONN_MAX_AGE, or psycopg's pool on
PostgreSQL); Django's own ASGI handler opened one per request. Run on SQLite and on PostgreSQL (DATABASE_URL)."""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from accounts.tokens import token_create
from tests.mcp.conftest import fast_user
from tests.servers import serve

BIN = Path(sys.executable).parent
APP = "tests.deploy.counting_asgi:application"
HOST_PORT = ("--host", "127.0.0.1", "--port", "{port}")
SERVERS = {
    "granian": [str(BIN / "granian"), "--interface", "asgi", *HOST_PORT, "--workers", "1", APP],
    "uvicorn": [sys.executable, "-m", "uvicorn", *HOST_PORT, APP],
}
REQUESTS = 100
CLIENTS = 4
THREADS = 4


def _call(base: str, token: str, name: str, arguments: dict) -> dict:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream"}
    headers["MCP-Protocol-Version"] = "2025-11-25"
    answer = httpx.post(base + "/_emdash/api/mcp", json=body, headers=headers, timeout=30).json()
    assert answer["result"]["isError"] is False, answer
    return answer["result"]["structuredContent"]


@pytest.mark.parametrize("server", sorted(SERVERS))
def test_connections_persist_across_100_requests(posts, tmp_path, server: str) -> None:
    token = token_create(user=fast_user(), name=server, scopes=["admin"]).raw
    counted = tmp_path / "connections.txt"
    env = {
        "EMDASH_VAR_DIR": str(tmp_path),
        "EMDASH_RATE_LIMITS": "off",
        "EMDASH_HTTP_THREADS": str(THREADS),
        "EMDASH_TEST_CONNECTIONS_FILE": str(counted),
    }
    with serve(SERVERS[server], env) as (base, _):
        created = _call(base, token, "content_create", {"collection": "posts", "data": {"title": "Kept"}})
        entry_id = created.get("item", created)["id"]
        opened_before = len(counted.read_text().splitlines())
        with ThreadPoolExecutor(CLIENTS) as clients:
            got = list(
                clients.map(
                    lambda _: _call(base, token, "content_get", {"collection": "posts", "id": entry_id}),
                    range(REQUESTS),
                )
            )
        opened = len(counted.read_text().splitlines()) - opened_before
    assert all(item.get("item", item)["id"] == entry_id for item in got)
    # At most one per HTTP thread (each may be new to these 100 requests); Django's ASGI handler opened ~100.
    assert opened <= THREADS, f"{opened} database connections opened over {REQUESTS} requests"
