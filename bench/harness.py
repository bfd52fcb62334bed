"""What every ``make bench`` goal shares: the run's context, servers, load generators and result rows.

A goal module (registered in ``bench/run.py``'s ``GOALS``) exposes ``run(bench: Bench) -> list[Row]``; it
starts what it needs through ``bench`` (a seeded site, a gunicorn server, a load run) and returns one
``Row`` per measurement. ``bench/run.py`` prints the rows as one table per goal and saves them as JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MCP_PATH = "/_emdash/api/mcp"
PROTOCOL_VERSION = "2025-11-25"
ADMIN_EMAIL = "admin@example.com"
READY_TIMEOUT = 60


def say(message: str) -> None:
    print(f"==> {message}", flush=True)


# ---------------------------------------------------------------------------------------------------- rows


@dataclass
class Row:
    """One measurement of one goal: ours, the peer (floor, baseline or limit) measured in the same run, the
    ratio, the target and whether it is met. ``goal`` is the table's title; rows sharing it form one table."""

    goal: str
    measure: str
    ours: float | None
    unit: str = ""
    peer: float | None = None
    peer_name: str = ""
    ratio: float | None = None
    target: str = ""
    met: bool | None = None
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    # A target of our own beyond the (a harder query, a slower kind of write): shown with its verdict,
    # left out of the exit status, which answers "are the goals met".
    stretch: bool = False

    @classmethod
    def at_least(cls, goal: str, measure: str, ours: float | None, peer: float | None, target: float, **kw: Any) -> Row:
        """ours / peer >= target (throughput against a floor: higher is better)."""
        ratio = ours / peer if ours is not None and peer else None
        met = None if ratio is None else ratio >= target
        return cls(goal, measure, ours, peer=peer, ratio=ratio, target=f">= {target:g}x", met=met, **kw)

    @classmethod
    def at_most(cls, goal: str, measure: str, ours: float | None, peer: float | None, target: float, **kw: Any) -> Row:
        """ours / peer <= target (a time or a size against a baseline: lower is better)."""
        ratio = ours / peer if ours is not None and peer else None
        met = None if ratio is None else ratio <= target
        return cls(goal, measure, ours, peer=peer, ratio=ratio, target=f"<= {target:g}x", met=met, **kw)

    @classmethod
    def limit(cls, goal: str, measure: str, ours: float | None, limit: float, **kw: Any) -> Row:
        """ours <= an absolute limit (a p50 in ms, a query count), no peer."""
        met = None if ours is None else ours <= limit
        return cls(goal, measure, ours, target=f"<= {limit:g}", met=met, **kw)


def _num(value: float | None, unit: str = "") -> str:
    if value is None:
        return "-"
    text = f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}" if value != int(value) else f"{value:.0f}"
    return f"{text} {unit}".strip()


def render(rows: list[Row]) -> str:
    """One Markdown table per goal, in the order the goals first appear."""
    out: list[str] = []
    for goal in dict.fromkeys(r.goal for r in rows):
        out += [f"**{goal}**", "", "| measure | ours | peer | ratio | target | met |", "|---|---:|---:|---:|---|---|"]
        for r in (r for r in rows if r.goal == goal):
            peer = f"{_num(r.peer, r.unit)} ({r.peer_name})" if r.peer is not None else "-"
            ratio = "-" if r.ratio is None else f"{r.ratio:.2f}"
            met = "-" if r.met is None else ("yes" if r.met else "**no**")
            measure = r.measure + (f" ({r.note})" if r.note else "")
            target = f"stretch: {r.target}" if r.stretch else r.target
            out.append(f"| {measure} | {_num(r.ours, r.unit)} | {peer} | {ratio} | {target} | {met} |")
        out.append("")
    return "\n".join(out)


def rows_json(rows: list[Row]) -> list[dict[str, Any]]:
    return [asdict(r) for r in rows]


# ------------------------------------------------------------------------------------------------- servers


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def headers(token: str) -> dict[str, str]:
    return {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": PROTOCOL_VERSION,
        "Authorization": f"Bearer {token}",
    }


def rpc_body(method: str, params: dict[str, Any] | None = None) -> bytes:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": 1, "method": method}
    if params is not None:
        message["params"] = params
    return json.dumps(message, separators=(",", ":")).encode()


def call_body(tool: str, arguments: dict[str, Any]) -> bytes:
    return rpc_body("tools/call", {"name": tool, "arguments": arguments})


class Server:
    """A server process in its own process group, started and stopped by the harness."""

    def __init__(self, name: str, cmd: list[str], port: int, env: dict[str, str], log: Path) -> None:
        self.name, self.cmd, self.port, self.env, self.log = name, cmd, port, env, log
        self.url = f"http://127.0.0.1:{port}{MCP_PATH}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        say(f"starting {self.name}: {' '.join(self.cmd)}")
        with self.log.open("wb") as log:
            self.proc = subprocess.Popen(
                self.cmd, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        os.killpg(self.proc.pid, signal.SIGTERM)  # our own process group (start_new_session)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def worker_pids(self) -> list[int]:
        """The server's worker processes (children of the master), for RSS readings."""
        if self.proc is None:
            return []
        out = subprocess.run(["pgrep", "-P", str(self.proc.pid)], capture_output=True, text=True).stdout
        return [int(p) for p in out.split()]

    def wait_ready(self, token: str) -> None:
        ping = rpc_body("ping")
        deadline = time.monotonic() + READY_TIMEOUT
        while time.monotonic() < deadline:
            if not self.alive():
                raise SystemExit(f"{self.name} exited early; see {self.log}:\n{self.log.read_text()[-2000:]}")
            try:
                if httpx.post(self.url, content=ping, headers=headers(token), timeout=5).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.25)
        raise SystemExit(f"{self.name} did not answer a ping within {READY_TIMEOUT} s")

    def call(self, token: str, body: bytes) -> Any:
        """POST one JSON-RPC message; the tool result's ``structuredContent`` (or the ``result``)."""
        response = httpx.post(self.url, content=body, headers=headers(token), timeout=30)
        if response.status_code != 200:
            raise SystemExit(f"{self.name}: HTTP {response.status_code}: {response.text[:300]}")
        result = response.json().get("result")
        if not isinstance(result, dict) or result.get("isError"):
            raise SystemExit(f"{self.name}: unexpected answer: {response.text[:500]}")
        return result.get("structuredContent", result)


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time the processes have used so far (their threads included)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total / os.sysconf("SC_CLK_TCK")


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise SystemExit(f"no VmRSS for process {pid}")


# ---------------------------------------------------------------------------------------------------- load

# Counts the answers that are not what the run expects (``BAD_IF``, a Lua condition); wrk prints the total.
WRK_TALLY = """
local threads = {}
function setup(thread) table.insert(threads, thread); thread:set("id", #threads) end
function init(args) bad = 0; failed = 0 end
function response(status, headers, body)
  if BAD_IF then
    bad = bad + 1
  end
  if status >= 500 then
    failed = failed + 1
  end
end
function done(summary, latency, requests)
  local total, server = 0, 0
  for _, t in ipairs(threads) do
    total = total + t:get("bad")
    server = server + t:get("failed")
  end
  io.write(string.format("BENCH_BAD %d\\nBENCH_5XX %d\\n", total, server))
end
"""


# With ``vary``: each request's body has that text replaced by "<run>-<thread>-<serial>", unique across runs.
WRK_VARY = """
local template, marker = BODY, MARKER
local at = string.find(template, marker, 1, true)
local before, after = string.sub(template, 1, at - 1), string.sub(template, at + #marker)
local serial = 0
function request()
  serial = serial + 1
  return wrk.format(nil, nil, nil, before .. RUN .. "-" .. tostring(id) .. "-" .. serial .. after)
end
"""


def wrk_script(
    headers: dict[str, str], *, body: bytes | None = None, status: int = 200, vary: str | None = None
) -> str:
    """A wrk script sending one request: a POST of ``body`` (an MCP call: a JSON-RPC or tool error counts as bad,
    like any status but 200), else a GET expecting ``status``. ``vary``: a text of ``body`` replaced in every
    request by a serial unique to the request, among every run of any script (titles of posts created under load)."""
    lines = [f'wrk.headers["{k}"] = {_lua_string(v)}' for k, v in headers.items()]
    if body is None:
        lines.insert(0, 'wrk.method = "GET"')
        bad = f"status ~= {int(status)}"
    else:
        lines[:0] = ['wrk.method = "POST"', f"wrk.body = {_lua_string(body.decode())}"]
        found = "string.find(body, '\"isError\":true', 1, true) or string.find(body, '\"error\":', 1, true)"
        bad = f"status ~= 200 or {found}"
    if body is not None and vary and vary.encode() in body:
        run = _lua_string(f"{os.getpid()}{time.monotonic_ns() % 10**9}")
        varied = WRK_VARY.replace("BODY", _lua_string(body.decode())).replace("MARKER", _lua_string(vary))
        lines.append(varied.replace("RUN", run))
    return "\n".join(lines) + WRK_TALLY.replace("BAD_IF", bad)


UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}


def _lua_string(value: str) -> str:
    return "[==[" + value + "]==]"


def _wrk_ms(text: str, label: str) -> float:
    match = re.search(rf"^\s*{re.escape(label)}\s+([\d.]+)(us|ms|s|m)\s*$", text, re.M)
    if not match:
        raise SystemExit(f"cannot read {label!r} from wrk's output:\n{text}")
    return float(match.group(1)) * UNITS[match.group(2)]


def run_wrk(url: str, script: Path, connections: int, seconds: float, pin: list[str]) -> dict[str, Any]:
    # wrk takes whole seconds only ("-d0.5s" is a usage error): a fraction is rounded up.
    whole = max(1, math.ceil(seconds))
    cmd = [*pin, "wrk", "-t1", f"-c{connections}", f"-d{whole}s", "--timeout", "10s", "--latency"]
    done = subprocess.run([*cmd, "-s", str(script), url], capture_output=True, text=True, timeout=seconds + 60)
    text = done.stdout
    if done.returncode != 0:
        raise SystemExit(f"wrk failed: {done.stderr or text}")
    requests = int(re.search(r"^\s*(\d+) requests in", text, re.M).group(1))  # type: ignore[union-attr]
    errors = int(re.search(r"BENCH_BAD (\d+)", text).group(1))  # type: ignore[union-attr]
    server_errors = int(re.search(r"BENCH_5XX (\d+)", text).group(1))  # type: ignore[union-attr]
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    if socket_errors:
        errors += sum(int(x) for x in socket_errors.groups())
    return {
        "requests": requests,
        "errors": errors,
        "server_errors": server_errors,
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1)),  # type: ignore[union-attr]
        "p50_ms": _wrk_ms(text, "50%"),
        "p90_ms": _wrk_ms(text, "90%"),
        "p99_ms": _wrk_ms(text, "99%"),
    }


# ----------------------------------------------------------------------------------------------- the run


@dataclass
class Site:
    """A migrated, seeded site in its own EMDASH_VAR_DIR (or database) with an admin token."""

    var_dir: Path
    env: dict[str, str]
    token: str
    seeded: dict[str, Any]


class Bench:
    """The context a goal module runs in: the command line, a scratch directory, the load generator and the
    CPU pinning, plus helpers to seed a site, serve it and load it. Everything it starts it stops."""

    def __init__(self, args: argparse.Namespace, work: Path) -> None:
        self.args = args
        self.work = work
        self.loader = args.loader if args.loader != "auto" else ("wrk" if shutil.which("wrk") else "httpx")
        if self.loader == "wrk" and not shutil.which("wrk"):
            raise SystemExit("wrk is not installed (apt-get install wrk), use --loader httpx")
        pin = args.pin == "yes" or (
            args.pin == "auto" and (os.cpu_count() or 1) >= 2 and shutil.which("taskset") is not None
        )
        self.server_pin = ["taskset", "-c", "0"] if pin else []
        self.loader_pin = ["taskset", "-c", "1"] if pin else []
        self.bin = Path(sys.executable).parent
        self._servers: list[Server] = []
        self._shared: dict[tuple[Any, ...], Site] = {}

    @property
    def postgres_url(self) -> str | None:
        """The throw-away PostgreSQL database goals that compare both backends use (``--postgres``)."""
        return self.args.postgres or None

    def env(self, var_dir: Path, **extra: str) -> dict[str, str]:
        env = dict(os.environ)
        for name in ("DATABASE_URL", "REDIS_URL", "EMDASH_SITE_URL", "ALLOWED_HOSTS", "DEBUG"):
            env.pop(name, None)
        env.update(
            EMDASH_VAR_DIR=str(var_dir),
            DJANGO_SETTINGS_MODULE="config.settings",
            PYTHONUNBUFFERED="1",
            EMDASH_LOG_LEVEL="WARNING",
            # The limiter still runs (its cost is measured) but a benchmark's rate never trips it.
            EMDASH_RATE_LIMITS="mcp=100000000/m,rest=100000000/m",
        )
        env.update(extra)
        return env

    def run_py(self, env: dict[str, str], *args: str) -> str:
        done = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            sys.stderr.write(done.stdout + done.stderr)
            raise SystemExit(f"{' '.join(args)} failed (exit {done.returncode})")
        return done.stdout

    def site(self, name: str, *seed_args: str, shared: bool = False, **env_extra: str) -> Site:
        """Migrate and seed a fresh site (demo content, then ``bench/seed.py *seed_args``), issue a token.

        ``shared``: the goal only reads the site, so one seeded the same way for an earlier goal that also only
        reads it is reused (the 100k-item site is seeded once for scale, transfer and deep pages, not three
        times: about a minute each)."""
        key = (seed_args, tuple(sorted(env_extra.items())))
        if shared and key in self._shared:
            say(f"{name}: reusing the site seeded as {self._shared[key].var_dir.name}")
            return self._shared[key]
        site = self._seed(name, seed_args, env_extra)
        if shared:
            self._shared[key] = site
        return site

    def _seed(self, name: str, seed_args: tuple[str, ...], env_extra: dict[str, str]) -> Site:
        var_dir = self.work / name
        var_dir.mkdir(parents=True, exist_ok=True)
        env = self.env(var_dir, **env_extra)
        say(f"seeding {name} ({var_dir})")
        self.run_py(env, "manage.py", "migrate", "--no-input", "-v", "0")
        self.run_py(env, "manage.py", "emdash_seed_demo")
        seeded = json.loads(self.run_py(env, str(HERE / "seed.py"), *seed_args))
        token = self.run_py(
            env, "manage.py", "emdash_token", "create", "--email", ADMIN_EMAIL, "--scopes", "admin", "--name", "bench"
        ).strip()
        return Site(var_dir, env, token, seeded)

    def gunicorn(self, name: str, app: str, env: dict[str, str], workers: int = 1, threads: int = 1) -> Server:
        """A gunicorn gthread server (the issue's settings: ``workers`` x ``threads``), not yet started."""
        port = free_port()
        cmd = [*self.server_pin, str(self.bin / "gunicorn"), app, "--bind", f"127.0.0.1:{port}"]
        cmd += ["--workers", str(workers), "--worker-class", "gthread", "--threads", str(threads)]
        cmd += ["--keep-alive", "30", "--log-level", "warning"]
        return Server(name, cmd, port, env, self.work / f"{name}.log")

    def uvicorn(self, name: str, app: str, env: dict[str, str], workers: int = 1) -> Server:
        port = free_port()
        cmd = [*self.server_pin, str(self.bin / "uvicorn"), app, "--host", "127.0.0.1", "--port", str(port)]
        cmd += ["--workers", str(workers), "--no-access-log", "--log-level", "warning", "--timeout-keep-alive", "30"]
        return Server(name, cmd, port, env, self.work / f"{name}.log")

    def granian(
        self, name: str, app: str, env: dict[str, str], workers: int = 1, threads: int = 1, interface: str = "asgi"
    ) -> Server:
        """granian ASGI as the README documents it (with ``--log-config``); ``threads`` HTTP threads per worker
        (``EMDASH_HTTP_THREADS``, emdash.edge.threaded_wsgi), like gunicorn's gthread ``--threads``. With
        ``interface="wsgi"`` granian's own threads run a WSGI app (``--blocking-threads``): the floor's server."""
        port = free_port()
        cmd = [*self.server_pin, str(self.bin / "granian"), "--interface", interface, "--host", "127.0.0.1"]
        cmd += ["--port", str(port), "--workers", str(workers), "--log-level", "warning"]
        if interface == "wsgi":
            cmd += ["--blocking-threads", str(threads)]
        cmd += ["--log-config", str(ROOT / "config" / "logging.json"), app]
        return Server(name, cmd, port, {**env, "EMDASH_HTTP_THREADS": str(threads)}, self.work / f"{name}.log")

    @contextmanager
    def serving(self, token: str, *servers: Server) -> Iterator[tuple[Server, ...]]:
        """Start the servers, wait until each answers a ping, stop them all afterwards."""
        try:
            for server in servers:
                self._servers.append(server)
                server.start()
            for server in servers:
                server.wait_ready(token)
            yield servers
        finally:
            for server in servers:
                server.stop()

    def stop_all(self) -> None:
        for server in self._servers:
            server.stop()

    def load(
        self, server: Server, body: bytes, token: str, connections: int, seconds: float, warmup: float = 0
    ) -> dict[str, Any]:
        """A closed-loop load run (wrk, else bench/load.py) of one request body: rps, p50/p90/p99 ms.
        Any non-200 answer or JSON-RPC/tool error fails the run."""
        key = f"{server.name}-{abs(hash(body)) % 10**8}"
        pids = [server.proc.pid, *server.worker_pids()] if server.proc else []
        cpu_before = 0.0
        if self.loader == "wrk":
            script = self.work / f"{key}.lua"
            script.write_text(wrk_script(headers(token), body=body))
            if warmup > 0:
                run_wrk(server.url, script, connections, warmup, self.loader_pin)
            cpu_before = cpu_seconds(pids)
            result = run_wrk(server.url, script, connections, seconds, self.loader_pin)
        else:
            body_file = self.work / f"{key}.json"
            body_file.write_bytes(body)
            cmd = [*self.loader_pin, sys.executable, str(HERE / "load.py"), "--url", server.url]
            cmd += ["--body-file", str(body_file), "--connections", str(connections)]
            cmd += ["--duration", str(seconds), "--warmup", str(warmup)]
            for name, value in headers(token).items():
                cmd += ["--header", f"{name}: {value}"]
            cpu_before = cpu_seconds(pids)  # includes the warm-up: httpx runs it in the same process
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + warmup + 60)
            if done.returncode != 0:
                raise SystemExit(f"load.py failed: {done.stderr}")
            result = json.loads(done.stdout)
        # The server's CPU time per request: far less sensitive to other work on a shared machine than req/s
        # (with httpx it is spread over the warm-up's requests too, so it reads a little high).
        if result["requests"] and pids:
            result["cpu_ms"] = (cpu_seconds(pids) - cpu_before) * 1000 / result["requests"]
        if result["errors"]:
            raise SystemExit(f"{server.name} c={connections}: {result['errors']} bad responses under load")
        return result

    def get_load(
        self, server: Server, path: str, head: dict[str, str], status: int, seconds: float, warmup: float = 0
    ) -> dict[str, Any]:
        """A closed-loop wrk run of one GET of ``path`` on one connection: rps, latencies and the server's CPU ms
        per request. Any other status than ``status`` fails the run."""
        pids = [server.proc.pid, *server.worker_pids()] if server.proc else []
        script = self.work / f"{server.name}-get-{abs(hash((path, tuple(head.items()), status))) % 10**8}.lua"
        script.write_text(wrk_script(head, status=status))
        url = f"http://127.0.0.1:{server.port}{path}"
        if warmup > 0:
            run_wrk(url, script, 1, warmup, self.loader_pin)
        cpu_before = cpu_seconds(pids)
        result = run_wrk(url, script, 1, seconds, self.loader_pin)
        if result["errors"]:
            raise SystemExit(f"{server.name} GET {path}: {result['errors']} answers other than {status}")
        result["cpu_ms"] = (cpu_seconds(pids) - cpu_before) * 1000 / max(result["requests"], 1)
        return result


def versions(loader: str) -> dict[str, str]:
    from importlib.metadata import version

    found = {"python": platform.python_version()}
    for package in ("django", "gunicorn", "uvicorn", "mcp", "orjson"):
        try:
            found[package] = version(package)
        except Exception:
            found[package] = "-"
    if loader == "wrk":
        out = subprocess.run(["wrk", "--version"], capture_output=True, text=True)
        found["wrk"] = (out.stdout or out.stderr).split("[")[0].replace("wrk", "").strip()
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.machine(),
    )
    found["machine"] = f"{os.cpu_count()} CPUs ({cpu}), {platform.system()} {platform.release()}"
    return found
