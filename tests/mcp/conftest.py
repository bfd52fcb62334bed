"""Fixtures for in-process tests of ``POST /_emdash/api/mcp`` with Django's test Client.

``mcp`` posts JSON-RPC bodies with a PAT of an admin user holding the ``admin`` scope; ``mcp.as_``
makes a client for another user or token. Transport tests use the plain ``db`` fixture; tests that
touch content ask for ``posts`` (a transactional database with the demo-like collection).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
import pytest
from django.http import HttpResponse
from django.test import Client

from accounts.models import User
from accounts.tokens import IssuedToken, token_create
from emdash.mcp_names import NAMED_PARAM
from emdash.roles import Role

URL = "/_emdash/api/mcp"
MODERN = "2026-07-28"
HANDSHAKE = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
_DEFAULT = object()


def encode(body: Any) -> bytes:
    """Bodies as bytes: bytes and str pass through, anything else is JSON (big ints and all)."""
    if isinstance(body, bytes):
        return body
    if isinstance(body, str):
        return body.encode()
    return json.dumps(body, ensure_ascii=False, allow_nan=False).encode()


def request(method: str, params: Any = None, msg_id: Any = 1) -> dict[str, Any]:
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": msg_id, "method": method}
    if params is not None:
        body["params"] = params
    return body


def notification(method: str, params: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        body["params"] = params
    return body


def modern_meta(client: str = "pytest-modern") -> dict[str, Any]:
    return {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": {"name": client, "version": "0.1.0"},
        "io.modelcontextprotocol/clientCapabilities": {},
    }


def modern_envelope(method: str, params: Any, headers: dict[str, str] | None) -> tuple[Any, dict[str, str]]:
    """params and headers as a 2026-07-28 client sends them (keeps whatever the caller set)."""
    params = dict(params or {}) if params is None or isinstance(params, dict) else params
    headers = dict(headers or {})
    if isinstance(params, dict):
        params.setdefault("_meta", modern_meta())
        if method in NAMED_PARAM and isinstance(params.get(NAMED_PARAM[method]), str):
            headers.setdefault("Mcp-Name", params[NAMED_PARAM[method]])
    headers.setdefault("Mcp-Method", method)
    return params, headers


def body_of(response: HttpResponse) -> Any:
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    return orjson.loads(response.content)


def drained(response: HttpResponse) -> bool:
    """True when the view consumed the whole request body (the keep-alive connection stays usable)."""
    return len(response.wsgi_request.environ["wsgi.input"]) == 0


@dataclass
class MCP:
    """A test client bound to one bearer token (or none)."""

    client: Client
    token: str | None
    user: User | None = None
    issued: IssuedToken | None = None
    default_headers: dict[str, str] = field(default_factory=dict)

    def post(
        self,
        body: Any,
        *,
        version: str | None = None,
        token: Any = _DEFAULT,
        content_type: str = "application/json",
        headers: dict[str, str] | None = None,
        path: str = URL,
    ) -> HttpResponse:
        all_headers = dict(self.default_headers)
        token = self.token if token is _DEFAULT else token
        if token is not None:
            all_headers["Authorization"] = f"Bearer {token}"
        if version is not None:
            all_headers["MCP-Protocol-Version"] = version
        all_headers.update(headers or {})
        # generic() leaves CONTENT_TYPE out for an empty body; set it anyway so empty bodies test parsing
        return self.client.generic(
            "POST", path, encode(body), content_type=content_type, headers=all_headers, CONTENT_TYPE=content_type
        )

    def rpc(self, method: str, params: Any = None, *, msg_id: Any = 1, status: int = 200, **kwargs: Any) -> dict:
        """One request; returns the decoded JSON-RPC response after checking the HTTP status.

        At 2026-07-28 the request is dressed as a client of that revision sends it (``_meta`` envelope,
        ``Mcp-Method``/``Mcp-Name``) unless the test gives its own; use ``post`` for raw bodies.
        """
        if kwargs.get("version") == MODERN:
            params, kwargs["headers"] = modern_envelope(method, params, kwargs.get("headers"))
        response = self.post(request(method, params, msg_id), **kwargs)
        assert response.status_code == status, (response.status_code, response.content[:500])
        answer = body_of(response)
        assert answer["jsonrpc"] == "2.0"
        assert answer["id"] == msg_id
        return answer

    def result(self, method: str, params: Any = None, **kwargs: Any) -> dict[str, Any]:
        answer = self.rpc(method, params, **kwargs)
        assert "error" not in answer, answer
        return answer["result"]

    def error(self, method: str, params: Any = None, **kwargs: Any) -> dict[str, Any]:
        answer = self.rpc(method, params, **kwargs)
        assert "result" not in answer, answer
        return answer["error"]

    def call(self, name: str, arguments: Any = None, **kwargs: Any) -> dict[str, Any]:
        """tools/call; returns the CallToolResult (tool errors included)."""
        params: dict[str, Any] = {"name": name}
        if arguments is not None:
            params["arguments"] = arguments
        return self.result("tools/call", params, **kwargs)

    def ok(self, name: str, arguments: Any = None, **kwargs: Any) -> Any:
        """A tools/call that must succeed; returns the payload decoded from the text content."""
        result = self.call(name, arguments, **kwargs)
        assert result.get("isError") is False, result
        return orjson.loads(result["content"][0]["text"])

    def fails(self, name: str, arguments: Any = None, **kwargs: Any) -> dict[str, Any]:
        """A tools/call that must be a tool error; returns the result."""
        result = self.call(name, arguments, **kwargs)
        assert result.get("isError") is True, result
        return result


MakeMCP = Callable[..., MCP]
_seq = itertools.count(1)


def fast_user(role: Role | str = Role.ADMIN, **extra: Any) -> User:
    """A user without a usable password (hashing one costs most of a test's time here)."""
    role = Role.from_name(role) if isinstance(role, str) else role
    return User.objects.create_user(email=f"mcp-{role.label}-{next(_seq)}@example.com", role=role, **extra)


@pytest.fixture
def make_mcp(db: None) -> MakeMCP:
    """Build a client: a new user of ``role`` with a PAT of ``scopes`` (or ``token=`` to send a given string)."""

    def build(
        role: Role | str = Role.ADMIN,
        scopes: Any = "admin",
        *,
        user: User | None = None,
        token: Any = _DEFAULT,
        **token_options: Any,
    ) -> MCP:
        user = user or fast_user(role)
        if token is not _DEFAULT:
            return MCP(Client(), token, user)
        issued = token_create(user=user, name="test token", scopes=scopes, **token_options)
        return MCP(Client(), issued.raw, user, issued)

    return build


@pytest.fixture
def mcp(make_mcp: MakeMCP) -> MCP:
    """An admin with an ``admin``-scoped PAT."""
    return make_mcp()
