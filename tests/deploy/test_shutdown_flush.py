"""Issue 21.8 (SPEC 13): the audit writer is flushed when a server is stopped with SIGTERM, under every server
docs/production.md names. granian and uvicorn run the ASGI lifespan (emdash.lifespan); daphne exits through
``atexit``. Rows are held back by a long flush interval, so only the shutdown can write them."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from accounts.tokens import token_create
from audit.models import AuditLog
from tests.mcp.conftest import fast_user
from tests.servers import serve

BIN = Path(sys.executable).parent
HOST_PORT = ("--host", "127.0.0.1", "--port", "{port}")
SERVERS = {
    "granian": [str(BIN / "granian"), "--interface", "asgi", *HOST_PORT, "--workers", "1", "config.asgi:application"],
    "uvicorn": [sys.executable, "-m", "uvicorn", *HOST_PORT, "config.asgi:application"],
    "daphne": [sys.executable, "-m", "config.serve", "-b", "127.0.0.1", "-p", "{port}"],
}
READS = 6


@pytest.mark.parametrize("server", sorted(SERVERS))
def test_sigterm_flushes_the_audit_rows(transactional_db, tmp_path, server: str) -> None:
    token = token_create(user=fast_user(), name=server, scopes=["admin"]).raw
    env = {"EMDASH_VAR_DIR": str(tmp_path), "EMDASH_RATE_LIMITS": "off", "EMDASH_AUDIT_FLUSH_INTERVAL": "30"}
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream"}
    headers["MCP-Protocol-Version"] = "2025-11-25"
    with serve(SERVERS[server], env) as (base, process):
        for n in range(READS):
            body = {"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {"name": "menu_list"}}
            answer = httpx.post(base + "/_emdash/api/mcp", json=body, headers=headers, timeout=30).json()
            assert answer["result"]["isError"] is False, answer
        assert AuditLog.objects.filter(action="menu_list").count() == 0  # still queued in the server
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{server} did not stop within 30 s of SIGTERM")
        errors = process.stderr.read().decode() if process.stderr else ""
    assert AuditLog.objects.filter(action="menu_list", source="mcp").count() == READS, errors[-3000:]
    # granian's and uvicorn's words for an app without lifespan support
    assert "Lifespan errored" not in errors and "'lifespan' protocol appears unsupported" not in errors, errors
