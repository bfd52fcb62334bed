"""Goal 7 (issue 15): the same calls on daphne (``config.serve``), gunicorn (gthread, WSGI) and granian (ASGI).

``make bench`` calls :func:`rows`; on its own (prints the results as JSON):

    .venv/bin/python bench/goal_servers.py [--servers daphne,gunicorn,granian --duration 4 --connections 8]

One throw-away SQLite database (demo site + 60 posts, an admin token and an admin session) is served by each server
in turn, one process each (``--workers``), on a free loopback port. For each server ``bench/load.py`` measures
``content_get``, ``content_list`` (50 items) and ``content_create`` (a draft with a unique title) over MCP with
``--connections`` clients; then, where the server speaks websockets, ``--ws-rounds`` times: open the admin's live
update socket with the session cookie, create a post over MCP, and wait for its notice on the socket (the admin's
real path: channels consumer, in-process channel layer). Reported: req/s and p50 per call, websocket connect and
create-to-notice times.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.goal_writes import (  # noqa: E402
    ADMIN_EMAIL,
    SERIAL,
    Server,
    base_env,
    call_body,
    create_body,
    free_port,
    headers,
    measured,
    run_py,
    wait_ready,
)

BIN = Path(sys.executable).parent
WS_PATH = "/_emdash/admin/ws/changes/"
SESSION = f"""
import django; django.setup()
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from accounts.models import User
user = User.objects.get(email={ADMIN_EMAIL!r})
store = SessionStore()
store[SESSION_KEY], store[HASH_SESSION_KEY] = str(user.pk), user.get_session_auth_hash()
store[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
store.create()
print(settings.SESSION_COOKIE_NAME + "=" + store.session_key)
"""


def commands(port: int, workers: int, threads: int) -> dict[str, list[str]]:
    """How each server is started: the command lines the README documents, on a free port."""
    bind = f"127.0.0.1:{port}"
    return {
        "daphne": [sys.executable, "-m", "config.serve", "-b", "127.0.0.1", "-p", str(port)],
        "gunicorn": [
            *(str(BIN / "gunicorn"), "config.wsgi:application", "--bind", bind, "--workers", str(workers)),
            *("--worker-class", "gthread", "--threads", str(threads), "--log-level", "warning"),
        ],
        "granian": [
            *(str(BIN / "granian"), "--interface", "asgi", "--host", "127.0.0.1", "--port", str(port)),
            *("--workers", str(workers), "--log-level", "warning", "config.asgi:application"),
        ],
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--servers", default="daphne,gunicorn,granian")
    parser.add_argument("--workers", type=int, default=1, help="processes (gunicorn, granian; daphne has one)")
    parser.add_argument("--threads", type=int, default=4, help="gunicorn threads per worker")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--duration", type=float, default=4)
    parser.add_argument("--warmup", type=float, default=1)
    parser.add_argument("--ws-rounds", type=int, default=15)
    return parser.parse_args(argv)


def websocket_rounds(server: Server, token: str, cookie: str, rounds: int) -> dict[str, float]:
    """Open the live-update socket, create a post over MCP, wait for its notice; ``rounds`` times."""
    from websockets.sync.client import connect

    origin = f"http://127.0.0.1:{server.port}"
    connects, notices = [], []
    with httpx.Client(timeout=30) as client:
        for n in range(rounds):
            began = time.perf_counter()
            with connect(
                f"ws://127.0.0.1:{server.port}{WS_PATH}",
                additional_headers={"Cookie": cookie, "Origin": origin},
                open_timeout=10,
            ) as socket:
                connects.append((time.perf_counter() - began) * 1000)
                body = create_body("draft").replace(SERIAL.encode(), f"ws{n}".encode())
                sent = time.perf_counter()
                answer = client.post(server.url, content=body, headers=headers(token)).json()
                created = answer["result"]["structuredContent"]
                entry_id = created.get("item", created)["id"]
                while True:
                    notice = json.loads(socket.recv(timeout=10))
                    if notice.get("id") == entry_id:
                        break
                notices.append((time.perf_counter() - sent) * 1000)
    return {"connect_p50_ms": statistics.median(connects), "notice_p50_ms": statistics.median(notices)}


def measure(args: argparse.Namespace) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="emdash-bench-servers-"))
    env = base_env(work)
    results: dict[str, Any] = {}
    try:
        run_py(env, "manage.py", "migrate", "--no-input", "-v", "0")
        run_py(env, "manage.py", "emdash_seed_demo")
        seeded = json.loads(run_py(env, str(HERE / "seed.py"), "--posts", "60"))
        token = run_py(
            env, "manage.py", "emdash_token", "create", "--email", ADMIN_EMAIL, "--scopes", "admin", "--name", "bench"
        ).strip()
        cookie = run_py(env, "-c", SESSION).strip()
        calls = {
            "content_get": call_body("content_get", {"collection": seeded["collection"], "id": seeded["id"]}),
            "content_list": call_body("content_list", {"collection": seeded["collection"], "limit": 50}),
            "content_create": create_body("draft"),
        }
        for name in args.servers.split(","):
            port = free_port()
            server = Server(name, commands(port, args.workers, args.threads)[name], port, env, work / f"{name}.log")
            server.start()
            try:
                wait_ready(server, token)
                result: dict[str, Any] = {
                    call: measured(server, token, body, args, work, env) for call, body in calls.items()
                }
                if name != "gunicorn":  # WSGI: no websockets
                    result["websocket"] = websocket_rounds(server, token, cookie, args.ws_rounds)
            finally:
                server.stop()
            result["log_errors"] = (work / f"{name}.log").read_text(errors="replace").count("Traceback")
            results[name] = result
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return results


GOAL = "Goal 7: the same calls on daphne, gunicorn (gthread) and granian (ASGI), one process each"


def rows(extra: list[str] | None = None) -> list[dict[str, Any]]:
    """Goal 7's rows: per call, each server's req/s against the best one's (server CPU per call in the note)."""
    args = parse_args(extra or [])
    results = measure(args)
    out = []
    for call in ("content_get", "content_list", "content_create"):
        best = max(r[call]["rps"] for r in results.values())
        for name, r in results.items():
            run = r[call]
            out.append(
                {
                    "goal": GOAL,
                    "measure": f"{call}, {name}, {args.connections} clients",
                    "ours": run["rps"],
                    "unit": "req/s",
                    "peer": best,
                    "peer_name": "best server",
                    "ratio": run["rps"] / best,
                    "target": "no failed call",
                    "met": run["errors"] == 0 and r["log_errors"] == 0,
                    "note": f"p50 {run['p50_ms']:.1f} ms, server CPU {run['server_cpu_ms']:.2f} ms/call",
                }
            )
    for name, r in results.items():
        ws = r.get("websocket")
        out.append(
            {
                "goal": GOAL,
                "measure": f"websocket connect + live notice of a create, {name}",
                "ours": ws["notice_p50_ms"] if ws else None,
                "unit": "ms",
                "target": "the notice arrives" if name != "gunicorn" else "(WSGI: no websockets)",
                "met": ws is not None if name != "gunicorn" else None,
                "note": f"connect {ws['connect_p50_ms']:.1f} ms" if ws else "",
            }
        )
    return out


def run(bench: Any) -> list[Any]:
    """The goal registry's entry point (bench/run.py's GOALS)."""
    from bench.harness import Row

    return [Row(**row) for row in rows()]


def main() -> None:
    results = measure(parse_args())
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
