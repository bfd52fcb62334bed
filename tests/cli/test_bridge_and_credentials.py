"""The stdio bridge's edge cases and the credentials file, run in-process through ``main(argv)``."""

from __future__ import annotations

import io
import json
import stat
from pathlib import Path

import pytest

from accounts.tokens import token_create
from emdash.cli import credentials
from emdash.cli.main import main
from emdash.roles import Role
from tests.cli.conftest import emdash, rpc
from tests.factories import make_user


def _bridge(url: str, lines: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, list[dict]]:
    stdout = io.StringIO()
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in lines)))
    monkeypatch.setattr("sys.stdout", stdout)
    code = main(["mcp", "--url", url])
    return code, [json.loads(line) for line in stdout.getvalue().splitlines()]


def test_the_bridge_uses_emdash_token_and_answers_bad_lines_with_parse_errors(live_server, monkeypatch):
    user = make_user(Role.EDITOR)
    monkeypatch.setenv("EMDASH_TOKEN", token_create(user=user, name="t", scopes=["content:read"]).raw)
    lines = ["not json", "", json.dumps(rpc(7, "ping")), json.dumps(rpc(None, "notifications/initialized"))]
    code, replies = _bridge(live_server.url, lines, monkeypatch)
    assert code == 0
    assert replies[0]["id"] is None and replies[0]["error"]["code"] == -32700
    assert replies[1] == {"jsonrpc": "2.0", "id": 7, "result": {}}
    assert len(replies) == 2


def test_an_unreachable_upstream_becomes_an_error_reply_with_the_request_id(monkeypatch):
    monkeypatch.setenv("EMDASH_TOKEN", "ec_pat_whatever")
    code, replies = _bridge("http://127.0.0.1:9", [json.dumps(rpc("abc", "tools/list"))], monkeypatch)
    assert code == 0
    assert replies == [
        {"jsonrpc": "2.0", "id": "abc", "error": {"code": -32000, "message": "Upstream request failed: ConnectError"}}
    ]


def test_a_refused_token_becomes_an_unauthorized_error_reply(live_server, monkeypatch):
    monkeypatch.setenv("EMDASH_TOKEN", "ec_pat_not-a-real-token")
    _, replies = _bridge(live_server.url, [json.dumps(rpc(1, "tools/list"))], monkeypatch)
    assert replies[0]["id"] == 1 and replies[0]["error"]["code"] == -32001


@pytest.mark.django_db
def test_without_credentials_requests_get_an_error_reply_telling_to_log_in(monkeypatch):
    _, replies = _bridge("http://127.0.0.1:9", [json.dumps(rpc(5, "tools/list"))], monkeypatch)
    assert replies[0]["id"] == 5 and "emdash login" in replies[0]["error"]["message"]


def test_credentials_file_is_0600_in_a_0700_dir_under_xdg_config_home(tmp_path: Path):
    credentials.store("https://cms.example.com", {"accessToken": "a", "refreshToken": "r", "expiresAt": "x"})
    path = tmp_path / "config" / "emdash" / "auth.json"
    assert credentials.auth_file() == path
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert json.loads(path.read_text())["https://cms.example.com"]["refreshToken"] == "r"
    assert credentials.remove("https://cms.example.com") is not None
    assert json.loads(path.read_text()) == {}


@pytest.mark.parametrize(
    ("url", "origin"),
    [
        ("https://CMS.example.com/_emdash/api/mcp", "https://cms.example.com"),
        ("http://127.0.0.1:8000/", "http://127.0.0.1:8000"),
        ("cms.example.com", "https://cms.example.com"),
    ],
)
def test_site_urls_are_reduced_to_their_origin(url, origin):
    assert credentials.origin_of(url) == origin


def test_every_subcommand_has_help():
    for command in ("login", "whoami", "logout", "mcp"):
        result = emdash(command, "--help")
        assert result.returncode == 0 and "usage: emdash " + command in result.stdout


def test_whoami_without_a_site_explains_what_to_pass():
    result = emdash("whoami")
    assert result.returncode == 1 and "--url" in result.stderr


def test_login_without_a_site_exits_with_code_2():
    result = emdash("login", "--no-browser")
    assert result.returncode == 2 and "--url" in result.stderr
