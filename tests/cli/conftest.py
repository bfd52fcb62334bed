"""Helpers for the CLI tests: run ``emdash`` as a real subprocess, and approve a device code over HTTP."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.core.cache import cache

from accounts.oauth import device

EMDASH = Path(sys.executable).parent / "emdash"
PASSWORD = "correct-horse-9"


@pytest.fixture(autouse=True)
def _clean(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    cache.clear()
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("EMDASH_TOKEN", raising=False)
    monkeypatch.delenv("EMDASH_URL", raising=False)
    monkeypatch.setattr(device, "INTERVAL", 1)  # the live server runs in this process: poll every second


@pytest.fixture
def cli_app(transactional_db: None):
    import importlib

    from accounts.oauth.models import OAuthClient

    migration = importlib.import_module("accounts.oauth.migrations.0002_emdash_cli_client")
    return OAuthClient.objects.update_or_create(client_id="emdash-cli", defaults=migration.CLI)[0]


def emdash(*args: str, stdin: str | None = None, timeout: float = 60, **env: str) -> subprocess.CompletedProcess[str]:
    """Run the installed ``emdash`` console script."""
    assert EMDASH.exists(), "the emdash console script is not installed (make install)"
    return subprocess.run(
        [str(EMDASH), *args], input=stdin, capture_output=True, text=True, timeout=timeout, env={**os.environ, **env}
    )


def start_login(url: str, *extra: str) -> tuple[subprocess.Popen[str], str]:
    """Start ``emdash login`` and read the user code it prints on stderr."""
    process = subprocess.Popen(
        [str(EMDASH), "login", "--url", url, "--no-browser", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )
    assert process.stderr is not None
    seen = []
    for line in process.stderr:
        seen.append(line)
        if match := re.search(r"enter the code:\s+([A-Z]{4}-[A-Z]{4})", line):
            return process, match.group(1)
    process.kill()
    raise AssertionError("emdash login printed no code: " + "".join(seen))


def browser_session(url: str, email: str, password: str = PASSWORD) -> httpx.Client:
    """Log in through the login page like a browser does (cookie + CSRF token from the form)."""
    http = httpx.Client(base_url=url, follow_redirects=False, timeout=30)
    page = http.get("/_emdash/admin/login/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
    assert token, page.text[:500]
    response = http.post(
        "/_emdash/admin/login/",
        # "username" for Django's LoginView (ours), "email" for the admin UI's login: works with either page.
        data={"username": email, "email": email, "password": password, "csrfmiddlewaretoken": token.group(1)},
    )
    assert response.status_code == 302, response.text[:500]
    return http


def decide_device(http: httpx.Client, user_code: str, decision: str = "approve") -> httpx.Response:
    page = http.get("/_emdash/admin/device", params={"code": user_code.lower()})
    assert page.status_code == 200 and user_code in page.text
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
    assert token
    return http.post(
        "/_emdash/admin/device",
        data={"csrfmiddlewaretoken": token.group(1), "code": user_code, "decision": decision},
    )


def rpc(msg_id: int | None, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params or {}}
    if msg_id is not None:
        message["id"] = msg_id
    return message
