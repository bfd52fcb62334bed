"""``emdash mcp``: one JSON-RPC message per line on stdin → POST to the MCP endpoint → one line on stdout.

Nothing but MCP messages goes to stdout. Notifications get no reply; a request whose upstream call fails gets
a JSON-RPC error reply carrying its id. A 401 triggers one refresh and one retry.

The HTTP headers are derived per message, as the Streamable HTTP transport of each revision sends them: a
2026-07-28 message names its version in ``params._meta`` (there is no ``initialize``) and also gets
``Mcp-Method``/``Mcp-Name``; older messages carry the version negotiated by the last ``initialize``.
"""

from __future__ import annotations

import base64
import json
import sys
from typing import Any, TextIO

import httpx

from accounts.oauth import metadata
from emdash.cli import api
from emdash.mcp_names import NAMED_PARAM

PARSE_ERROR = -32700
INTERNAL_ERROR = -32603
UNAUTHORIZED = -32001
UPSTREAM_ERROR = -32000
META_VERSION = "io.modelcontextprotocol/protocolVersion"


def _error(msg_id: Any, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}}


def _request_ids(message: Any) -> list[Any]:
    """Ids of the requests in a message or batch (notifications and responses have none to answer)."""
    items = message if isinstance(message, list) else [message]
    return [m["id"] for m in items if isinstance(m, dict) and "method" in m and m.get("id") is not None]


def _meta_version(message: Any) -> str | None:
    params = message.get("params") if isinstance(message, dict) else None
    meta = params.get("_meta") if isinstance(params, dict) else None
    version = meta.get(META_VERSION) if isinstance(meta, dict) else None
    return version if isinstance(version, str) else None


def _header_value(value: str) -> str:
    """Plain printable ASCII as is; anything else wrapped as =?base64?...?= (headers cannot carry it)."""
    if value.isascii() and value.isprintable() and value == value.strip():
        return value
    return "=?base64?" + base64.b64encode(value.encode()).decode() + "?="


def _routing_headers(message: Any) -> dict[str, str]:
    """Mcp-Method and Mcp-Name for one 2026-07-28 message (batches do not exist in that revision)."""
    if not isinstance(message, dict) or not isinstance(message.get("method"), str):
        return {}
    headers = {"Mcp-Method": message["method"]}
    params = message.get("params")
    param = NAMED_PARAM.get(message["method"])
    if param and isinstance(params, dict) and isinstance(params.get(param), str):
        headers["Mcp-Name"] = _header_value(params[param])
    return headers


def _decode(response: httpx.Response) -> list[Any]:
    """The JSON-RPC message(s) in a response: plain JSON, or the data lines of an event stream."""
    if not response.content.strip():
        return []
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        return [json.loads(line[5:]) for line in response.text.splitlines() if line.startswith("data:")]
    return [response.json()]


class Bridge:
    def __init__(self, origin: str, http: httpx.Client, out: TextIO) -> None:
        self.origin = origin
        self.http = http
        self.out = out
        self.protocol_version: str | None = None
        self.token: str | None = None

    def write(self, message: Any) -> None:
        self.out.write(json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n")
        self.out.flush()

    def message_headers(self, message: Any) -> dict[str, str]:
        """Version and routing headers for one message (see the module docstring)."""
        version = _meta_version(message)
        if version is not None:
            return {"MCP-Protocol-Version": version, **_routing_headers(message)}
        if self.protocol_version and not (isinstance(message, dict) and message.get("method") == "initialize"):
            return {"MCP-Protocol-Version": self.protocol_version}
        return {}

    def _post(self, line: str, message: Any) -> httpx.Response:
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "Authorization": f"Bearer {self.token}",
            **self.message_headers(message),
        }
        return self.http.post(self.origin + metadata.MCP_PATH, content=line.encode(), headers=headers)

    def forward(self, line: str, message: Any) -> list[Any]:
        """Send one message upstream (refreshing once on 401) and return what to print."""
        ids = _request_ids(message)
        try:
            if self.token is None:
                self.token = api.access_token(self.http, self.origin)
            response = self._post(line, message)
            if response.status_code == 401:
                self.token = api.access_token(self.http, self.origin, stale=self.token)
                response = self._post(line, message)
            if response.status_code == 401:
                return [_error(i, UNAUTHORIZED, "Unauthorized: run `emdash login`") for i in ids]
            replies = _decode(response)
        except api.CliError as exc:
            return [_error(i, UNAUTHORIZED, str(exc)) for i in ids]
        except httpx.HTTPError as exc:
            return [_error(i, UPSTREAM_ERROR, f"Upstream request failed: {type(exc).__name__}") for i in ids]
        except ValueError:
            return [
                _error(i, INTERNAL_ERROR, f"Upstream answered HTTP {response.status_code} without JSON") for i in ids
            ]
        self._remember_version(message, replies)
        if len(ids) == 1 and isinstance(message, dict):
            # An HTTP-level refusal (413, 400...) carries id null; give it the request's id so the client can match it.
            replies = [
                {**r, "id": ids[0]} if isinstance(r, dict) and "error" in r and r.get("id") is None else r
                for r in replies
            ]
        return replies

    def _remember_version(self, message: Any, replies: list[Any]) -> None:
        """After ``initialize``, send the negotiated version on every later request (as the HTTP transport says)."""
        if isinstance(message, dict) and message.get("method") == "initialize":
            for reply in replies:
                version = reply.get("result", {}).get("protocolVersion") if isinstance(reply, dict) else None
                if isinstance(version, str):
                    self.protocol_version = version

    def handle_line(self, line: str) -> None:
        if not line.strip():
            return
        try:
            message = json.loads(line)
        except ValueError:
            self.write(_error(None, PARSE_ERROR, "Parse error: each line must be one JSON-RPC message"))
            return
        for reply in self.forward(line.strip(), message):
            self.write(reply)


def run(origin: str, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    stdin = stdin or sys.stdin
    with api.http_client(timeout=300.0) as http:
        bridge = Bridge(origin, http, stdout or sys.stdout)
        for line in stdin:
            try:
                bridge.handle_line(line)
            except BrokenPipeError:
                return 0
    return 0
