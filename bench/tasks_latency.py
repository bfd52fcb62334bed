"""MCP task latency: tools/call with a task → completed, against runserver + one emdash_worker on a scratch DB.

Usage: .venv/bin/python bench/tasks_latency.py [--tasks 20] [--port 8765]
Prints the median and max time from the CreateTaskResult to a completed tasks/get (polling every 50 ms), and the
cost of the create request itself.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]


def manage(env: dict[str, str], *args: str) -> str:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True, text=True
    ).stdout


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tasks", type=int, default=20)
    parser.add_argument("--port", type=int, default=8765)
    opts = parser.parse_args()
    var = tempfile.mkdtemp(prefix="emdash-tasks-bench-")
    env = {**os.environ, "EMDASH_VAR_DIR": var, "DATABASE_URL": f"sqlite:///{var}/bench.sqlite3", "DEBUG": "0"}
    manage(env, "migrate", "--no-input", "-v", "0")
    manage(env, "emdash_user", "create", "--email", "bench@example.com", "--role", "editor")
    token = manage(env, "emdash_token", "create", "--email", "bench@example.com", "--scopes", "content:read")
    token = next(word for word in token.split() if word.startswith("ec_pat_"))
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{opts.port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "emdash_worker"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL
    )
    url = f"http://127.0.0.1:{opts.port}/_emdash/api/mcp"
    headers = {"Authorization": f"Bearer {token}", "MCP-Protocol-Version": "2025-11-25"}
    try:
        with httpx.Client(headers=headers, timeout=30) as http:
            for _ in range(100):
                try:
                    http.post(url, json={"jsonrpc": "2.0", "id": 0, "method": "ping"})
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            creates, latencies = [], []
            for i in range(opts.tasks):
                body = {
                    "jsonrpc": "2.0",
                    "id": i,
                    "method": "tools/call",
                    "params": {"name": "menu_list", "arguments": {}, "task": {}},
                }
                started = time.perf_counter()
                task_id = http.post(url, json=body).json()["result"]["task"]["taskId"]
                created = time.perf_counter()
                creates.append(created - started)
                while True:
                    get = {"jsonrpc": "2.0", "id": i, "method": "tasks/get", "params": {"taskId": task_id}}
                    if http.post(url, json=get).json()["result"]["status"] != "working":
                        break
                    time.sleep(0.05)
                latencies.append(time.perf_counter() - created)
    finally:
        server.terminate()
        worker.terminate()
        server.wait()
        worker.wait()
    ms = lambda xs: f"median {statistics.median(xs) * 1000:.0f} ms, max {max(xs) * 1000:.0f} ms"  # noqa: E731
    print(f"{opts.tasks} tasks: create request {ms(creates)}; created → completed {ms(latencies)}")


if __name__ == "__main__":
    main()
