"""The read path's budget (issue 15): a warm read tool call runs at most 2 SQL queries and no write, with
the per-process token and schema caches and the background audit writer on (the suite turns them off,
see tests/conftest.py). Counts, not timings."""

from __future__ import annotations

import signal
import sys
import time
from pathlib import Path

import httpx
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts import token_cache
from accounts.models import PersonalAccessToken
from accounts.tokens import token_revoke
from audit import writer as audit_writer
from audit.models import AuditLog
from content.schema import specs as schema
from tests.factories import make_entry
from tests.servers import DAPHNE, serve

WRITES = ("INSERT", "UPDATE", "DELETE", "BEGIN", "SAVEPOINT", "COMMIT")


@pytest.fixture
def read_path(settings):
    settings.EMDASH = {
        **settings.EMDASH,
        "AUTH_CACHE_SECONDS": 1.0,
        "SCHEMA_CHECK_SECONDS": 1.0,
        "AUDIT_ASYNC": True,
        "RATE_LIMITS": "off",
    }
    token_cache.clear()
    schema.invalidate()
    yield
    audit_writer.shutdown()
    token_cache.clear()


def _warm_call(mcp, arguments, name="content_get"):
    mcp.ok(name, arguments)  # warm-up: token, schema and model classes are cached
    with CaptureQueriesContext(connection) as queries:
        payload = mcp.ok(name, arguments)
    return payload, [q["sql"] for q in queries.captured_queries]


@pytest.mark.parametrize("tool", ["content_get", "content_list"])
def test_a_warm_read_call_runs_two_queries_and_no_write(posts, mcp, read_path, tool):
    entry = make_entry(data={"title": "Cheap"}, status="published")
    arguments = {"collection": "posts", "id": entry.id} if tool == "content_get" else {"collection": "posts"}
    _, sql = _warm_call(mcp, arguments, tool)
    assert len(sql) <= 2, sql
    assert not [q for q in sql if q.lstrip().upper().startswith(WRITES)], sql
    # The call was still audited, by the writer thread.
    audit_writer.flush()
    assert AuditLog.objects.filter(action=tool, source="mcp", outcome="ok").count() == 2


def test_a_revoked_token_is_refused_in_this_process_at_once(posts, mcp, read_path):
    entry = make_entry(status="published")
    mcp.ok("content_get", {"collection": "posts", "id": entry.id})
    token_revoke(user=mcp.user, token_id=mcp.issued.token.pk)
    assert mcp.post({"jsonrpc": "2.0", "id": 1, "method": "ping"}).status_code == 401


def test_a_token_revoked_elsewhere_is_refused_within_the_ttl(posts, mcp, read_path):
    """Another process revokes (a raw UPDATE: no signal reaches this process); after 1 s the token fails."""
    entry = make_entry(status="published")
    mcp.ok("content_get", {"collection": "posts", "id": entry.id})
    PersonalAccessToken.objects.filter(pk=mcp.issued.token.pk).update(revoked_at="2026-01-01T00:00:00Z")
    time.sleep(1.05)
    assert mcp.post({"jsonrpc": "2.0", "id": 1, "method": "ping"}).status_code == 401


def test_a_schema_bump_elsewhere_is_seen_after_the_window(posts, read_path):
    from django.db.models import F

    from content.models import Collection, SchemaState

    first = schema.current()
    Collection.objects.filter(slug="posts").update(label="Renamed elsewhere")
    SchemaState.objects.filter(pk=1).update(version=F("version") + 1)
    assert schema.current() is first  # inside the window: no stamp read
    time.sleep(1.05)
    assert schema.current().get("posts").label == "Renamed elsewhere"


def test_the_audit_queue_flushes_on_shutdown(posts, mcp, read_path):
    entry = make_entry(status="published")
    for _ in range(5):
        mcp.ok("content_get", {"collection": "posts", "id": entry.id})
    audit_writer.shutdown()
    assert AuditLog.objects.filter(action="content_get").count() == 5


# --- a real server receiving SIGTERM ------------------------------------------------------------------------


def _server() -> list[str]:
    """gunicorn (gthread) when the bench extra is installed, else daphne (a main dependency)."""
    gunicorn = Path(sys.executable).parent / "gunicorn"
    if gunicorn.exists():
        return [str(gunicorn), "config.wsgi:application", "-b", "127.0.0.1:{port}", "-k", "gthread", "--threads", "1"]
    return DAPHNE


def test_the_server_flushes_queued_audit_rows_on_sigterm(posts, mcp, tmp_path):
    """Audit rows still queued when the server gets SIGTERM are written before the process exits."""
    entry = make_entry(status="published")
    env = {"EMDASH_VAR_DIR": str(tmp_path), "EMDASH_RATE_LIMITS": "off"}
    # A long flush interval: without the shutdown flush, the rows would still be queued when the worker dies.
    env["EMDASH_AUDIT_FLUSH_INTERVAL"] = "60"
    with serve(_server(), env) as (base, proc):
        headers = {"Authorization": f"Bearer {mcp.token}", "Accept": "application/json"}
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call"}
        body["params"] = {"name": "content_get", "arguments": {"collection": "posts", "id": entry.id}}
        for _ in range(5):
            answer = httpx.post(base + "/_emdash/api/mcp", json=body, headers=headers)
            assert answer.status_code == 200 and '"isError":false' in answer.text.replace(" ", "")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    assert AuditLog.objects.filter(action="content_get", source="mcp").count() == 5


def test_tools_list_is_served_from_bytes_encoded_once(db, mcp, monkeypatch):
    from mcp_endpoint import dispatch

    first = mcp.result("tools/list", version="2025-11-25")["tools"]

    def never(version):
        raise AssertionError("tools/list was encoded again")

    monkeypatch.setattr(dispatch, "tool_definitions", never)
    assert mcp.result("tools/list", version="2025-11-25")["tools"] == first
    assert {t["name"] for t in first} >= {"content_get", "content_list"}


def test_read_calls_do_not_wake_the_audit_writer_one_by_one(posts, mcp, read_path, settings, monkeypatch):
    """Handing a row over is an append: the writer thread is woken once per batch, not once per call (each
    wake-up handed it the GIL in the middle of a request)."""
    import threading

    settings.EMDASH = {**settings.EMDASH, "AUDIT_FLUSH_INTERVAL": 60}
    audit_writer.shutdown()
    sets = []

    class Counting(threading.Event):
        def set(self):
            sets.append(1)
            super().set()

    monkeypatch.setattr(audit_writer, "_wake", Counting())
    entry = make_entry(status="published")
    for _ in range(20):
        mcp.ok("content_get", {"collection": "posts", "id": entry.id})
    assert len(sets) == 1
    audit_writer.flush()  # cuts the 60 s gathering short
    assert AuditLog.objects.filter(action="content_get", source="mcp").count() == 20


def test_the_mcp_endpoint_keeps_its_guards_on_the_short_middleware_chain(db, mcp):
    """McpPathMiddleware sends the endpoint down MCP_MIDDLEWARE: the security, clickjacking and CSP headers are
    the same as on the full chain; only middleware a JSON-RPC POST never uses is skipped."""
    from django.conf import settings as live

    assert "mcp_endpoint.middleware.McpPathMiddleware" in live.MIDDLEWARE
    assert set(live.MCP_MIDDLEWARE) <= set(live.MIDDLEWARE)
    answer = mcp.post({"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert answer.status_code == 200
    assert answer["X-Content-Type-Options"] == "nosniff"
    assert answer["X-Frame-Options"] == "DENY"
    assert "default-src 'self'" in answer["Content-Security-Policy"]
    assert answer["X-Trace-Id"]
    page = mcp.client.get("/_emdash/admin/login/")
    assert page["Content-Security-Policy"] == answer["Content-Security-Policy"]


def test_an_answer_says_its_length_so_the_server_sends_it_in_one_piece(posts, mcp):
    """Without Content-Length a WSGI server chunks the body: a last empty chunk, one more send per answer."""
    entry = make_entry(status="published")
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call"}
    response = mcp.post(
        {**call, "params": {"name": "content_get", "arguments": {"collection": "posts", "id": entry.id}}}
    )
    assert response.status_code == 200 and response["Content-Length"] == str(len(response.content))
    refused = mcp.post({**call, "params": {"name": "content_get", "arguments": {}}}, token="ec_pat_wrong")
    assert refused.status_code == 401 and refused["Content-Length"] == str(len(refused.content))
