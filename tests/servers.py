"""Real server processes on the test database, for tests that need a live HTTP (or ASGI) server."""

from __future__ import annotations

import itertools
import os
import random
import select
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent
START_SECONDS = 90  # until a started server must answer its health probe (granian took 38 s at load 8)
DAPHNE = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", "{port}", "config.asgi:application"]


def database_url() -> str:
    """The URL of the database this test runs on (the test database), for a server in another process."""
    s = connection.settings_dict
    if s["ENGINE"].endswith("sqlite3"):
        if "memory" in str(s["NAME"]):
            pytest.skip("needs a file database")
        return f"sqlite:///{s['NAME']}"
    auth = (s.get("USER") or "") + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "")
    return f"postgres://{auth}@{s.get('HOST') or '127.0.0.1'}:{s.get('PORT') or 5432}/{s['NAME']}"


# Under pytest-xdist each worker takes ports from a block of its own in 20000-31999, below the kernel's ephemeral
# range (where bind(0) and outgoing connections take theirs): between free_port()'s check and the server's own
# bind, which can be seconds on a busy machine, no other worker can be handed the same port. The block is walked
# from a random place, so two runs on one machine rarely try the same port at once. Serially, the kernel picks.
def _port_block() -> list[int]:
    worker, count = os.environ.get("PYTEST_XDIST_WORKER", ""), os.environ.get("PYTEST_XDIST_WORKER_COUNT", "")
    if not (worker.startswith("gw") and worker[2:].isdigit() and count.isdigit()):
        return []
    size = min(500, 12000 // max(int(count), 1))
    block = list(range(20000 + int(worker[2:]) * size, 20000 + (int(worker[2:]) + 1) * size))
    start = random.randrange(len(block))
    return block[start:] + block[:start]


_block = _port_block()
_ports = itertools.cycle(_block)


def free_port() -> int:
    """A port nothing listens on now, for a server about to start."""
    for _ in range(len(_block) or 1):
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", next(_ports) if _block else 0))
            except OSError:  # in use (another run's server, or a closed one's TIME_WAIT): the next one
                continue
            return int(sock.getsockname()[1])
    raise RuntimeError(f"no free port among this worker's {len(_block)}")


@contextmanager
def serve(
    argv: list[str], env: dict[str, str], port: int | None = None
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Start ``argv`` ("{port}" is filled in) with ``env`` added to production-like defaults, wait until its
    health probe answers, yield (base URL, process); stop it after (SIGTERM, then SIGKILL)."""
    port = port or free_port()
    full_env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database_url(),
        "DEBUG": "0",
        "REDIS_URL": "",
        **env,
    }
    command = [part.replace("{port}", str(port)) for part in argv]
    process = subprocess.Popen(command, cwd=ROOT, env=full_env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, process, command[2] if command[1] == "-m" else Path(command[0]).name)
        yield url, process
    finally:
        if process.poll() is None:
            process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextmanager
def daphne(env: dict[str, str], port: int | None = None) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``daphne config.asgi:application`` with ``env`` added; yield (base URL, process)."""
    with serve(DAPHNE, env, port) as started:
        yield started


def _wait_healthy(url: str, process: subprocess.Popen[bytes], name: str) -> None:
    """The health probe over plain HTTP, as a load balancer sends it (never redirected to HTTPS). The deadline
    allows for a machine busy with parallel test workers; a server that exits fails at once."""
    deadline = time.monotonic() + START_SECONDS
    while True:
        try:
            if httpx.get(url + "/_emdash/health", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            how = "exited" if process.poll() is not None else f"did not answer within {START_SECONDS} s"
            pytest.fail(f"{name} {how}: {_stop(process)}")
        time.sleep(0.2)


def _stop(process: subprocess.Popen[bytes]) -> str:
    """Stop a server that failed to start and return the end of its stderr. Stopped first: reading the pipe of a
    live server would wait forever for an end that never comes."""
    if process.poll() is None:
        process.terminate()
    try:
        _, error = process.communicate(timeout=10)
    except subprocess.TimeoutExpired:  # its own workers still hold the pipe
        process.kill()
        return "(no output: it did not stop on SIGTERM)"
    return (error or b"").decode(errors="replace")[-2000:]


def start_worker(env: dict[str, str] | None = None, interval: str = "0.5") -> subprocess.Popen[str]:
    """``manage.py emdash_worker`` on the test database with ``env`` added; returns once it reports running."""
    full_env = {**os.environ, "DATABASE_URL": database_url(), "DJANGO_SETTINGS_MODULE": "config.settings"}
    full_env.update(env or {})
    proc = subprocess.Popen(
        [sys.executable, "-u", "manage.py", "emdash_worker", "--interval", interval],
        cwd=ROOT,
        env=full_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], 60)
    assert ready, "the worker printed nothing within 60 s"
    first = proc.stdout.readline()
    assert "running every" in first, first + (proc.stderr.read() if proc.poll() is not None and proc.stderr else "")
    return proc


def stop_worker(proc: subprocess.Popen[str]) -> None:
    """SIGTERM (the job at hand finishes), then SIGKILL after 30 s."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
