"""Measure what huge request bodies cost a real server: RSS growth and time to the answer.

    .venv/bin/python bench/body_limits.py daphne          # plain daphne
    .venv/bin/python bench/body_limits.py emdash-serve    # daphne with the body-limit hook (config.serve)
    .venv/bin/python bench/body_limits.py gunicorn|uvicorn|granian

Only 127.0.0.1; each request stops sending as soon as the server answers. Uses a throw-away SQLite var dir.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.limits.bigbody import RssWatch, send_big  # noqa: E402

MiB = 1024 * 1024
CASES = [
    ("/_emdash/api/mcp", 256 * MiB, False),
    ("/_emdash/api/mcp", 400 * MiB, True),
    ("/_emdash/api/oauth/token", 256 * MiB, False),
    ("/_emdash/api/oauth/token", 400 * MiB, True),
]


def command(server: str, port: int) -> list[str]:
    py = sys.executable
    bind = ["-b", "127.0.0.1", "-p", str(port)]
    return {
        "daphne": [py, "-m", "daphne", *bind, "config.asgi:application"],
        "emdash-serve": [py, "-m", "config.serve", *bind],
        "uvicorn": [py, "-m", "uvicorn", "--host", "127.0.0.1", "--port", str(port), "config.asgi:application"],
        "gunicorn": [py, "-m", "gunicorn", "-w", "1", "-b", f"127.0.0.1:{port}", "config.wsgi:application"],
        "granian": [
            py,
            "-m",
            "granian",
            "--interface",
            "asgi",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "config.asgi:application",
        ],
    }[server]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def main(server: str) -> None:
    var = tempfile.mkdtemp(prefix="emdash-bench-")
    env = {**os.environ, "EMDASH_VAR_DIR": var, "DEBUG": "0", "DATABASE_URL": f"sqlite:///{var}/db.sqlite3"}
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    port = free_port()
    proc = subprocess.Popen(
        command(server, port), cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        for _ in range(150):
            try:
                if httpx.get(f"http://127.0.0.1:{port}/_emdash/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        print(f"{server}: idle RSS {RssWatch(proc.pid).__enter__().before / MiB:.0f} MiB")
        for path, size, chunked in CASES:
            with RssWatch(proc.pid) as watch:
                out = send_big("127.0.0.1", port, path, size, chunked=chunked, timeout=120)
            kind = "chunked" if chunked else "Content-Length"
            print(
                f"  POST {path} {size // MiB} MiB {kind}: status {out.status}, {out.seconds:.2f} s, "
                f"sent {out.sent / MiB:.0f} MiB, RSS {watch.before / MiB:.0f} -> peak {watch.peak / MiB:.0f} MiB "
                f"(+{watch.growth / MiB:.0f})"
            )
    finally:
        proc.terminate()
        proc.wait(timeout=20)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "emdash-serve")
