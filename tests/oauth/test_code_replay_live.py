"""Issue 21.2 (RFC 6749 4.1.2, SPEC 4.2): a replayed authorization code revokes what its first exchange issued,
at once and over HTTP: the access and refresh tokens stop working on the very next request, whichever server
process answers it."""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

import httpx
import pytest

from accounts.oauth import codes
from accounts.oauth.models import OAuthClient
from tests.factories import make_user
from tests.oauth.conftest import REDIRECT, pkce
from tests.servers import serve

TOKEN = "/_emdash/api/oauth/token"
MCP = "/_emdash/api/mcp"
GRANIAN = [
    str(Path(sys.executable).parent / "granian"),
    *("--interface", "asgi", "--host", "127.0.0.1", "--port", "{port}", "--workers", "2", "config.asgi:application"),
]


def _code(base: str) -> tuple[str, str]:
    client = OAuthClient.objects.create(
        client_id="live-app", name="Live", redirect_uris=[REDIRECT], grant_types=["authorization_code", "refresh_token"]
    )
    verifier, challenge = pkce()
    raw = codes.issue_code(
        client=client, user=make_user("editor"), redirect_uri=REDIRECT, scopes=["content:read"],
        resource=base + MCP, code_challenge=challenge,
    )  # fmt: skip
    return raw, verifier


def _exchange(http: httpx.Client, raw: str, verifier: str) -> httpx.Response:
    form = {"grant_type": "authorization_code", "code": raw, "redirect_uri": REDIRECT, "client_id": "live-app"}
    return http.post(TOKEN, data={**form, "code_verifier": verifier})


def _tools_list(http: httpx.Client, access: str) -> int:
    """One call on a new connection (a kept-alive one would stay with the same worker)."""
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    headers = {"Authorization": f"Bearer {access}", "Accept": "application/json, text/event-stream"}
    headers.update({"MCP-Protocol-Version": "2025-11-25", "Connection": "close"})
    return http.post(MCP, json=body, headers=headers).status_code


def _redis_url() -> str:
    """Two workers share revocations through Redis, as docs/production.md requires for several processes."""
    url = os.environ.get("EMDASH_TEST_REDIS_URL", "redis://127.0.0.1:6379/11")
    host, _, port = url.split("//", 1)[1].split("/", 1)[0].partition(":")
    try:
        socket.create_connection((host, int(port or 6379)), timeout=1).close()
    except OSError:
        pytest.skip(f"needs Redis at {url} (EMDASH_TEST_REDIS_URL)")
    return url


def test_a_replayed_code_revokes_its_tokens_at_once_on_a_live_server(transactional_db, tmp_path):
    # Tokens stay cached for 30 s in each worker: only the revocation can end the other worker's entry.
    env = {"EMDASH_VAR_DIR": str(tmp_path), "EMDASH_RATE_LIMITS": "off", "EMDASH_AUTH_CACHE_SECONDS": "30"}
    env["REDIS_URL"] = _redis_url()
    with serve(GRANIAN, env) as (base, _), httpx.Client(base_url=base, timeout=30) as http:
        raw, verifier = _code(base)
        first = _exchange(http, raw, verifier)
        assert first.status_code == 200, first.text
        tokens = first.json()
        # Warm every worker's token cache: the replay is answered by one worker, the next call by any.
        assert {_tools_list(http, tokens["access_token"]) for _ in range(8)} == {200}
        replay = _exchange(http, raw, verifier)
        assert replay.status_code == 400 and replay.json()["error"] == "invalid_grant"
        assert {_tools_list(http, tokens["access_token"]) for _ in range(8)} == {401}
        refresh = {"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"], "client_id": "live-app"}
        refused = http.post(TOKEN, data=refresh)
        assert refused.status_code == 400 and refused.json()["error"] == "invalid_grant"
