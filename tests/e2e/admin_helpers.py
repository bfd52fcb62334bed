"""Helpers for the admin browser tests: logging in through the form, and a real daphne server (ASGI +
websockets) on the test database for the live-update journey."""

from __future__ import annotations

import io
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.db import connection
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "correct-horse-9"


def log_in(page: Any, base_url: str, email: str, password: str = PASSWORD) -> None:
    page.goto(base_url + "/_emdash/admin/login/")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(base_url + "/_emdash/admin/")


def png_file(tmp_path: Path, name: str = "cover.png", color: str = "teal") -> Path:
    buffer = io.BytesIO()
    Image.new("RGB", (640, 360), color).save(buffer, "PNG")
    path = tmp_path / name
    path.write_bytes(buffer.getvalue())
    return path


def _database_url() -> str:
    """The URL of the database this test runs on (the test database), for a server in another process."""
    s = connection.settings_dict
    if s["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{s['NAME']}"
    auth = s["USER"] + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def daphne_server(cms: None) -> Iterator[str]:
    """``daphne emdash.asgi:application`` on a free port, sharing the test database; yields its base URL.

    The in-memory channel layer lives in that process, so changes made through its HTTP doors (MCP)
    reach the websockets it serves, exactly as under ``make run``."""
    port = _free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "emdash.settings",
        "DATABASE_URL": _database_url(),
        "CONN_MAX_AGE": "0",
        "DEBUG": "0",
        "REDIS_URL": "",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "emdash.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(url + "/_emdash/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                error = process.stderr.read().decode() if process.stderr else ""
                pytest.fail(f"daphne did not start: {error[-2000:]}")
            time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
