"""A real daphne process on the test database with production-like environment variables."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest

from tests.e2e.admin_helpers import ROOT, _database_url, _free_port


@contextmanager
def daphne(env: dict[str, str], port: int | None = None) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Start ``daphne emdash.asgi:application`` with ``env`` added; yield (base URL, process); stop it after."""
    port = port or _free_port()
    full_env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "emdash.settings",
        "DATABASE_URL": _database_url(),
        "DEBUG": "0",
        "REDIS_URL": "",
        **env,
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "emdash.asgi:application"],
        cwd=ROOT, env=full_env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, process)
        yield url, process
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _wait_healthy(url: str, process: subprocess.Popen[bytes]) -> None:
    """The health probe over plain HTTP, as a load balancer sends it (never redirected to HTTPS)."""
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(url + "/_emdash/health", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            error = process.stderr.read().decode() if process.stderr else ""
            pytest.fail(f"daphne did not start: {error[-2000:]}")
        time.sleep(0.2)
