"""End to end: ``emdash login`` against a live server, approval over HTTP as the logged-in user, then
``whoami``, a tool call through ``emdash mcp``, transparent refresh, and ``logout`` revoking server-side."""

from __future__ import annotations

import json
import stat
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from accounts.oauth.models import AccessToken, RefreshToken
from emdash.roles import Role
from tests.cli.conftest import browser_session, decide_device, emdash, rpc, start_login
from tests.factories import make_user

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("cli_app")]


def _auth_file(tmp_path: Path) -> Path:
    return tmp_path / "config" / "emdash" / "auth.json"


def test_login_whoami_mcp_refresh_logout(live_server, tmp_path):
    user = make_user(Role.EDITOR, email="ed@example.com")
    login, code = start_login(live_server.url)
    http = browser_session(live_server.url, user.email)
    done = decide_device(http, code)
    assert done.status_code == 200 and "Device connected" in done.text
    out, err = login.communicate(timeout=60)
    assert login.returncode == 0, err
    assert "Logged in" in out and "ed@example.com" in out

    path = _auth_file(tmp_path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    origin = live_server.url.lower()
    entry = json.loads(path.read_text())[origin]
    assert entry["accessToken"].startswith("ec_oat_") and entry["refreshToken"].startswith("ec_ort_")
    assert entry["user"]["email"] == "ed@example.com" and entry["expiresAt"]

    whoami = emdash("whoami", "--json")  # the only stored site: no --url needed
    assert whoami.returncode == 0, whoami.stderr
    assert json.loads(whoami.stdout)["user"]["role"] == "editor"

    lines = [
        rpc(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t"}}),
        rpc(None, "notifications/initialized"),
        rpc(2, "tools/list"),
        rpc(3, "tools/call", {"name": "schema_list_collections", "arguments": {}}),
    ]
    bridge = emdash("mcp", "--url", live_server.url, stdin="".join(json.dumps(m) + "\n" for m in lines))
    assert bridge.returncode == 0, bridge.stderr
    replies = [json.loads(line) for line in bridge.stdout.splitlines()]
    assert [r["id"] for r in replies] == [1, 2, 3]  # nothing for the notification, nothing but MCP on stdout
    assert replies[0]["result"]["protocolVersion"] == "2025-06-18"
    assert any(t["name"] == "schema_list_collections" for t in replies[1]["result"]["tools"])
    assert replies[2]["result"]["isError"] is False

    # An expired access token is refreshed transparently (and the refresh token rotates).
    data = json.loads(path.read_text())
    data[origin]["expiresAt"] = (datetime.now(UTC) - timedelta(minutes=5)).isoformat()
    path.write_text(json.dumps(data))
    whoami = emdash("whoami")
    assert whoami.returncode == 0, whoami.stderr
    assert "ed@example.com (editor)" in whoami.stdout
    refreshed = json.loads(path.read_text())[origin]
    assert refreshed["refreshToken"] != entry["refreshToken"]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600

    logout = emdash("logout", "--url", live_server.url)
    assert logout.returncode == 0, logout.stderr
    assert origin not in json.loads(path.read_text())
    assert not RefreshToken.objects.filter(state="active").exists()
    assert not AccessToken.objects.filter(revoked_at__isnull=True).exists()
    after = emdash("whoami", "--url", live_server.url)
    assert after.returncode == 1 and "Not logged in" in after.stderr


def test_a_denied_login_exits_with_code_2(live_server):
    user = make_user(Role.AUTHOR, email="au@example.com")
    login, code = start_login(live_server.url)
    decide_device(browser_session(live_server.url, user.email), code, "deny")
    _, err = login.communicate(timeout=60)
    assert login.returncode == 2 and "denied" in err


def test_login_to_an_unreachable_site_exits_with_code_2(tmp_path):
    result = emdash("login", "--url", "http://127.0.0.1:9", "--no-browser")
    assert result.returncode == 2 and "Cannot reach" in result.stderr
    assert not _auth_file(tmp_path).exists()
