"""``emdash mcp`` derives the protocol headers per message: the 2026-07-28 revision (no ``initialize``, version in
``_meta``, ``Mcp-Method``/``Mcp-Name``) and the handshake revisions (version from ``initialize``) alike."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from accounts.tokens import token_create
from emdash.cli.bridge import Bridge
from emdash.cli.main import main
from emdash.roles import Role
from tests.cli.conftest import rpc
from tests.factories import make_user

MODERN = "2026-07-28"


def modern(msg_id: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    meta = {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": {"name": "bridge-test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    return rpc(msg_id, method, {**(params or {}), "_meta": meta})


def _bridge(url: str, messages: list[dict], monkeypatch: pytest.MonkeyPatch) -> list[dict]:
    stdout = io.StringIO()
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(json.dumps(m) + "\n" for m in messages)))
    monkeypatch.setattr("sys.stdout", stdout)
    assert main(["mcp", "--url", url]) == 0
    return [json.loads(line) for line in stdout.getvalue().splitlines()]


def test_headers_for_a_2026_message_come_from_its_meta() -> None:
    bridge = Bridge("http://x", None, io.StringIO())  # type: ignore[arg-type]
    bridge.protocol_version = "2025-06-18"  # an earlier initialize does not override the message's own version
    call = modern(1, "tools/call", {"name": "content_list", "arguments": {}})
    assert bridge.message_headers(call) == {
        "MCP-Protocol-Version": MODERN,
        "Mcp-Method": "tools/call",
        "Mcp-Name": "content_list",
    }
    assert bridge.message_headers(modern(2, "tools/list")) == {
        "MCP-Protocol-Version": MODERN,
        "Mcp-Method": "tools/list",
    }
    odd = bridge.message_headers(modern(3, "tools/call", {"name": " café "}))
    assert odd["Mcp-Name"] == "=?base64?IGNhZsOpIA==?="


def test_headers_for_handshake_messages_come_from_initialize() -> None:
    bridge = Bridge("http://x", None, io.StringIO())  # type: ignore[arg-type]
    assert bridge.message_headers(rpc(1, "initialize", {"protocolVersion": "2024-11-05"})) == {}
    bridge.protocol_version = "2024-11-05"
    assert bridge.message_headers(rpc(2, "tools/list")) == {"MCP-Protocol-Version": "2024-11-05"}
    assert bridge.message_headers(rpc(3, "initialize", {"protocolVersion": "2025-11-25"})) == {}
    assert bridge.message_headers([rpc(4, "ping")]) == {"MCP-Protocol-Version": "2024-11-05"}


def test_a_2026_client_reaches_the_modern_revision_through_the_bridge(live_server, monkeypatch):
    user = make_user(Role.EDITOR)
    monkeypatch.setenv("EMDASH_TOKEN", token_create(user=user, name="t", scopes=["content:read", "schema:read"]).raw)
    messages = [
        modern(1, "server/discover"),
        modern(2, "tools/list"),
        modern(3, "tools/call", {"name": "schema_list_collections", "arguments": {}}),
        modern(4, "ping"),  # removed in 2026-07-28
    ]
    discover, listed, called, ping = _bridge(live_server.url, messages, monkeypatch)
    assert MODERN in discover["result"]["supportedVersions"]
    assert listed["result"]["resultType"] == "complete" and "cacheScope" in listed["result"]
    assert any("outputSchema" in tool for tool in listed["result"]["tools"])
    assert called["result"]["resultType"] == "complete"
    assert called["result"]["structuredContent"] == {"items": []}
    assert ping["id"] == 4 and ping["error"]["code"] == -32601


def test_a_2024_client_through_the_bridge_sees_no_output_schemas(live_server, monkeypatch):
    user = make_user(Role.EDITOR)
    monkeypatch.setenv("EMDASH_TOKEN", token_create(user=user, name="t", scopes=["content:read", "schema:read"]).raw)
    messages = [
        rpc(1, "initialize", {"protocolVersion": "2024-11-05", "capabilities": {}, "clientInfo": {"name": "t"}}),
        rpc(None, "notifications/initialized"),
        rpc(2, "tools/list"),
        rpc(3, "tools/call", {"name": "schema_list_collections", "arguments": {}}),
    ]
    init, listed, called = _bridge(live_server.url, messages, monkeypatch)
    assert init["result"]["protocolVersion"] == "2024-11-05"
    assert all("outputSchema" not in tool for tool in listed["result"]["tools"])
    assert "structuredContent" not in called["result"] and called["result"]["isError"] is False


def test_a_missing_scope_through_the_bridge_is_the_error_reply_with_its_id(live_server, monkeypatch):
    user = make_user(Role.EDITOR)
    monkeypatch.setenv("EMDASH_TOKEN", token_create(user=user, name="t", scopes=["content:read"]).raw)
    (reply,) = _bridge(
        live_server.url, [modern(9, "tools/call", {"name": "schema_list_collections", "arguments": {}})], monkeypatch
    )
    assert reply["id"] == 9
    assert reply["error"]["data"] == {"code": "INSUFFICIENT_SCOPE", "requiredScope": "schema:read"}
