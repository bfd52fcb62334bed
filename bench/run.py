"""Benchmark ``tools/call content_get`` and ``content_list`` (limit 50): our endpoint vs the floor and the SDK.

Run on demand (``make bench``); not part of the test suite. Steps:

1. a throw-away EMDASH_VAR_DIR is migrated and seeded (demo site + ``--posts`` published posts) and an
   admin token is issued;
2. our Django app and the floor (``bench/floor.py``: bare Django, one SQL query per call) are served by
   gunicorn (gthread workers), the reference (``bench/reference_server.py``, the ``mcp`` SDK's MCPServer,
   stateless JSON mode) by uvicorn, each on a free loopback port, with the same worker and thread counts,
   on the same SQLite file;
3. ours and the reference are checked to return the same payload for the same call (a ``nextCursor`` is
   compared by presence: it is signed with a timestamp, so two correct cursors differ), the floor to answer
   the same row(s);
4. for each round, tool, connection count and server: a warm-up, then a measured run by ``wrk`` (or by
   ``bench/load.py`` on httpx when wrk is missing or ``--loader httpx``), one server at a time;
5. the servers are stopped, the medians over rounds are printed as a Markdown table (and saved as JSON
   with ``--output``); ``--profile`` then profiles our endpoint in-process (``bench/profile_endpoint.py``).

    .venv/bin/python bench/run.py [--workers 1 --threads 1 --connections 1,8 --duration 8 --warmup 2 --rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MCP_PATH = "/_emdash/api/mcp"
PROTOCOL_VERSION = "2025-11-25"
ADMIN_EMAIL = "admin@example.com"
SERVERS = ("ours", "floor", "reference")
TOOLS = ("content_get", "content_list")
GOAL = 0.5  # issue 15: ours >= 0.5x the floor's req/s
READY_TIMEOUT = 60


def say(message: str) -> None:
    print(f"==> {message}", flush=True)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def base_env(var_dir: Path) -> dict[str, str]:
    env = dict(os.environ)
    for name in ("DATABASE_URL", "REDIS_URL", "EMDASH_SITE_URL", "ALLOWED_HOSTS", "DEBUG"):
        env.pop(name, None)
    env.update(
        EMDASH_VAR_DIR=str(var_dir),
        DJANGO_SETTINGS_MODULE="emdash.settings",
        PYTHONUNBUFFERED="1",
        EMDASH_LOG_LEVEL="WARNING",
        # The limiter still runs (its cost is measured) but a benchmark's rate never trips it.
        EMDASH_RATE_LIMITS="mcp=100000000/m,rest=100000000/m",
    )
    return env


def run_py(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"{' '.join(args)} failed (exit {done.returncode})")
    return done.stdout


class Server:
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


def headers(token: str) -> dict[str, str]:
    return {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": PROTOCOL_VERSION,
        "Authorization": f"Bearer {token}",
    }


def call_body(tool: str, arguments: dict[str, Any]) -> bytes:
    return json.dumps(
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}},
        separators=(",", ":"),
    ).encode()


def wait_ready(server: Server, token: str) -> None:
    ping = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}).encode()
    deadline = time.monotonic() + READY_TIMEOUT
    while time.monotonic() < deadline:
        if not server.alive():
            raise SystemExit(f"{server.name} exited early; see {server.log}")
        try:
            if httpx.post(server.url, content=ping, headers=headers(token), timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.25)
    raise SystemExit(f"{server.name} did not answer a ping within {READY_TIMEOUT} s")


def call(server: Server, token: str, body: bytes) -> Any:
    response = httpx.post(server.url, content=body, headers=headers(token), timeout=30)
    if response.status_code != 200:
        raise SystemExit(f"{server.name}: HTTP {response.status_code}: {response.text[:300]}")
    answer = response.json()
    result = answer.get("result")
    if not isinstance(result, dict) or result.get("isError") or "structuredContent" not in result:
        raise SystemExit(f"{server.name}: unexpected answer: {response.text[:500]}")
    return result["structuredContent"]


def first_difference(a: Any, b: Any, path: str = "$") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(a.keys() | b.keys()):
            if key not in a or key not in b:
                return f"{path}.{key} (present on one side only)"
            if a[key] != b[key]:
                return first_difference(a[key], b[key], f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return first_difference(x, y, f"{path}[{i}]")
    return f"{path}: {json.dumps(a)[:80]} != {json.dumps(b)[:80]}"


def comparable(payload: Any) -> Any:
    """A payload with ``nextCursor`` reduced to whether there is one (cursors carry a signing timestamp)."""
    if isinstance(payload, dict) and "nextCursor" in payload:
        return {**payload, "nextCursor": payload["nextCursor"] is not None}
    return payload


def check_floor(tool: str, ours: Any, floor: Any) -> None:
    """The floor answers the same row(s): same ids in the same order."""
    mine = [item["id"] for item in ours["items"]] if tool == "content_list" else [ours.get("item", ours)["id"]]
    its = [row["id"] for row in floor["items"]] if tool == "content_list" else [floor["id"]]
    if mine != its:
        raise SystemExit(f"{tool}: the floor returned rows {its[:3]}..., ours {mine[:3]}...")


def verify(servers: list[Server], token: str, workloads: dict[str, bytes]) -> None:
    for tool, body in workloads.items():
        answers = {server.name: call(server, token, body) for server in servers}
        if "floor" in answers and "ours" in answers:
            check_floor(tool, answers["ours"], answers["floor"])
        compared = [s for s in servers if s.name != "floor"]
        payloads = [comparable(answers[s.name]) for s in compared]
        if tool == "content_list" and payloads and len(payloads[0]["items"]) != 50:
            raise SystemExit(f"content_list returned {len(payloads[0]['items'])} items, expected 50")
        for server, payload in zip(compared[1:], payloads[1:], strict=True):
            if payload != payloads[0]:
                raise SystemExit(
                    f"{tool}: {compared[0].name} and {server.name} returned different payloads, first difference at "
                    f"{first_difference(payloads[0], payload)}"
                )
        say(f"{tool}: same payload from {' and '.join(s.name for s in compared)}, rows checked against the floor")


WRK_SCRIPT = """
wrk.method = "POST"
wrk.body = {body}
{headers}
local threads = {{}}
function setup(thread) table.insert(threads, thread) end
function init(args) bad = 0 end
function response(status, headers, body)
  if status ~= 200 or not string.find(body, '"isError":false', 1, true) then bad = bad + 1 end
end
function done(summary, latency, requests)
  local total = 0
  for _, t in ipairs(threads) do total = total + t:get("bad") end
  io.write(string.format("BENCH_BAD %d\\n", total))
end
"""

UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}


def lua_string(value: str) -> str:
    return "[==[" + value + "]==]"


def wrk_script(path: Path, body: bytes, token: str) -> Path:
    lines = "\n".join(f'wrk.headers["{k}"] = {lua_string(v)}' for k, v in headers(token).items())
    path.write_text(WRK_SCRIPT.format(body=lua_string(body.decode()), headers=lines))
    return path


def wrk_ms(text: str, label: str) -> float:
    match = re.search(rf"^\s*{re.escape(label)}\s+([\d.]+)(us|ms|s|m)\s*$", text, re.M)
    if not match:
        raise SystemExit(f"cannot read {label!r} from wrk's output:\n{text}")
    return float(match.group(1)) * UNITS[match.group(2)]


def run_wrk(url: str, script: Path, connections: int, seconds: float, pin: list[str]) -> dict[str, Any]:
    cmd = [
        *pin,
        "wrk",
        "-t1",
        f"-c{connections}",
        f"-d{seconds}s",
        "--timeout",
        "10s",
        "--latency",
        "-s",
        str(script),
        url,
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 60)
    text = done.stdout
    if done.returncode != 0:
        raise SystemExit(f"wrk failed: {done.stderr or text}")
    requests = int(re.search(r"^\s*(\d+) requests in", text, re.M).group(1))  # type: ignore[union-attr]
    errors = int(re.search(r"BENCH_BAD (\d+)", text).group(1))  # type: ignore[union-attr]
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    if socket_errors:
        errors += sum(int(x) for x in socket_errors.groups())
    return {
        "requests": requests,
        "errors": errors,
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1)),  # type: ignore[union-attr]
        "p50_ms": wrk_ms(text, "50%"),
        "p90_ms": wrk_ms(text, "90%"),
        "p99_ms": wrk_ms(text, "99%"),
    }


def run_httpx(
    url: str,
    body_file: Path,
    token: str,
    connections: int,
    seconds: float,
    warmup: float,
    env: dict[str, str],
    pin: list[str],
) -> dict[str, Any]:
    cmd = [
        *pin,
        sys.executable,
        str(HERE / "load.py"),
        "--url",
        url,
        "--body-file",
        str(body_file),
        "--connections",
        str(connections),
        "--duration",
        str(seconds),
        "--warmup",
        str(warmup),
    ]
    for name, value in headers(token).items():
        cmd += ["--header", f"{name}: {value}"]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=seconds + warmup + 60)
    if done.returncode != 0:
        raise SystemExit(f"load.py failed: {done.stderr}")
    return json.loads(done.stdout)


def measure(
    loader: str,
    server: Server,
    tool: str,
    body: bytes,
    token: str,
    connections: int,
    args: argparse.Namespace,
    work: Path,
    env: dict[str, str],
) -> dict[str, Any]:
    if loader == "wrk":
        script = wrk_script(work / f"{server.name}-{tool}.lua", body, token)
        if args.warmup > 0:
            run_wrk(server.url, script, connections, args.warmup, args.loader_pin)
        result = run_wrk(server.url, script, connections, args.duration, args.loader_pin)
    else:
        body_file = work / f"{tool}.json"
        body_file.write_bytes(body)
        result = run_httpx(server.url, body_file, token, connections, args.duration, args.warmup, env, args.loader_pin)
    if result["errors"]:
        raise SystemExit(f"{server.name} {tool} c={connections}: {result['errors']} bad responses under load")
    return result


def versions(loader: str) -> dict[str, str]:
    from importlib.metadata import version

    found = {"python": platform.python_version()}
    for package in ("django", "gunicorn", "uvicorn", "uvloop", "httptools", "mcp", "httpx"):
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


def table(results: list[dict[str, Any]], connections: list[int]) -> str:
    lines = ["| tool | conns | server | req/s | p50 ms | p99 ms |", "|---|---:|---|---:|---:|---:|"]
    for tool in TOOLS:
        for c in connections:
            row = {r["server"]: r for r in results if r["tool"] == tool and r["connections"] == c}
            for name in SERVERS:
                if name in row:
                    r = row[name]
                    lines.append(f"| {tool} | {c} | {name} | {r['rps']:.0f} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} |")
    return "\n".join(lines) + "\n\n" + goals(results, connections)


def goals(results: list[dict[str, Any]], connections: list[int]) -> str:
    """One table per goal: ours, the floor (goal: >= 0.5x) and the SDK reference, as req/s ratios."""
    out = []
    for number, tool in enumerate(TOOLS, start=1):
        out += [
            f"Goal {number}: `{tool}` >= {GOAL}x the floor",
            "",
            "| conns | ours req/s | floor req/s | ours/floor | reference req/s | ours/reference | met |",
            "|---:|---:|---:|---:|---:|---:|---|",
        ]
        for c in connections:
            row = {r["server"]: r["rps"] for r in results if r["tool"] == tool and r["connections"] == c}
            ours, floor, ref = row.get("ours"), row.get("floor"), row.get("reference")
            vs_floor = ours / floor if ours and floor else None
            out.append(
                f"| {c} | {_n(ours)} | {_n(floor)} | {_r(vs_floor)} | {_n(ref)} | "
                f"{_r(ours / ref if ours and ref else None)} | "
                f"{'-' if vs_floor is None else ('yes' if vs_floor >= GOAL else 'no')} |"
            )
        out.append("")
    return "\n".join(out)


def _n(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"


def _r(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=1, help="processes per server (default 1)")
    parser.add_argument("--threads", type=int, default=1, help="threads per worker (default 1)")
    parser.add_argument("--connections", default="1,8", help="comma-separated concurrent connections (default 1,8)")
    parser.add_argument("--duration", type=int, default=8, help="seconds measured per run (default 8)")
    parser.add_argument("--warmup", type=int, default=2, help="seconds of warm-up before each run (default 2)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; the median is reported (default 3)")
    parser.add_argument("--posts", type=int, default=60, help="published posts to seed (>= 50)")
    parser.add_argument("--loader", choices=("auto", "wrk", "httpx"), default="auto")
    parser.add_argument("--servers", default="ours,floor,reference", help="which servers to measure")
    parser.add_argument(
        "--ours-settings",
        default="emdash.settings",
        help="DJANGO_SETTINGS_MODULE for our server (e.g. bench.settings_persistent_db)",
    )
    parser.add_argument("--ours-app", default="emdash.wsgi:application", help="the WSGI app gunicorn serves")
    parser.add_argument(
        "--pin",
        choices=("auto", "yes", "no"),
        default="auto",
        help="pin the servers to CPU 0 and the load generator to CPU 1 (auto: with 1 worker "
        "on 2+ CPUs when taskset exists)",
    )
    parser.add_argument("--output", help="write the results as JSON here")
    parser.add_argument("--profile", action="store_true", help="profile our endpoint in-process afterwards")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args()
    connections = [int(c) for c in args.connections.split(",")]
    names = [n for n in args.servers.split(",") if n in SERVERS]
    if args.posts < 50 or not names or not 1 <= args.workers <= 8 or not 1 <= args.threads <= 64:
        raise SystemExit("need --posts >= 50, known --servers, 1-8 workers and 1-64 threads")
    if not all(1 <= c <= 256 for c in connections) or not 0 < args.duration <= 120 or not 1 <= args.rounds <= 10:
        raise SystemExit("connections must be 1-256, duration at most 120 s, rounds 1-10")
    loader = args.loader if args.loader != "auto" else ("wrk" if shutil.which("wrk") else "httpx")
    if loader == "wrk" and not shutil.which("wrk"):
        raise SystemExit("wrk is not installed (apt-get install wrk), use --loader httpx")

    load_before = os.getloadavg()[0]
    if load_before > 0.5:
        say(f"warning: load average is {load_before:.2f}; other processes will skew the numbers")
    work = Path(tempfile.mkdtemp(prefix="emdash-bench-"))
    env = base_env(work)
    servers: dict[str, Server] = {}
    results: list[dict[str, Any]] = []
    try:
        say(f"seeding {work}")
        run_py(env, "manage.py", "migrate", "--no-input", "-v", "0")
        run_py(env, "manage.py", "emdash_seed_demo")
        seeded = json.loads(run_py(env, str(HERE / "seed.py"), "--posts", str(args.posts)))
        token = run_py(
            env, "manage.py", "emdash_token", "create", "--email", ADMIN_EMAIL, "--scopes", "admin", "--name", "bench"
        ).strip()
        say(f"{seeded['count']} items in '{seeded['collection']}'")
        workloads = {
            "content_get": call_body("content_get", {"collection": seeded["collection"], "id": seeded["id"]}),
            "content_list": call_body("content_list", {"collection": seeded["collection"], "limit": 50}),
        }

        bin_dir = Path(sys.executable).parent
        pin = args.pin == "yes" or (
            args.pin == "auto"
            and args.workers == 1
            and (os.cpu_count() or 1) >= 2
            and shutil.which("taskset") is not None
        )
        server_pin = ["taskset", "-c", "0"] if pin else []
        args.loader_pin = ["taskset", "-c", "1"] if pin else []
        port = free_port()
        servers["ours"] = Server(
            "ours",
            [
                *server_pin,
                str(bin_dir / "gunicorn"),
                args.ours_app,
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                str(args.workers),
                "--worker-class",
                "gthread",
                "--threads",
                str(args.threads),
                "--keep-alive",
                "30",
                "--log-level",
                "warning",
            ],
            port,
            dict(env, DJANGO_SETTINGS_MODULE=args.ours_settings),
            work / "ours.log",
        )
        port = free_port()
        servers["floor"] = Server(
            "floor",
            [
                *server_pin,
                str(bin_dir / "gunicorn"),
                "bench.floor:application",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                str(args.workers),
                "--worker-class",
                "gthread",
                "--threads",
                str(args.threads),
                "--keep-alive",
                "30",
                "--log-level",
                "warning",
            ],
            port,
            dict(env, DJANGO_SETTINGS_MODULE="bench.floor"),
            work / "floor.log",
        )
        port = free_port()
        servers["reference"] = Server(
            "reference",
            [
                *server_pin,
                str(bin_dir / "uvicorn"),
                "bench.reference_server:app",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--workers",
                str(args.workers),
                "--no-access-log",
                "--log-level",
                "warning",
                "--timeout-keep-alive",
                "30",
            ],
            port,
            dict(env, BENCH_THREADS=str(args.threads)),
            work / "reference.log",
        )
        servers = {n: servers[n] for n in names}
        for server in servers.values():
            server.start()
        for server in servers.values():
            wait_ready(server, token)
        verify(list(servers.values()), token, workloads)

        say(
            f"load: {loader}, {args.workers} worker(s) x {args.threads} thread(s) per server, connections "
            f"{connections}, {args.warmup:g} s warm-up + {args.duration:g} s per run, {args.rounds} round(s)"
            + (", servers on CPU 0 and the load generator on CPU 1" if pin else "")
        )
        raw: list[dict[str, Any]] = []
        for rnd in range(1, args.rounds + 1):
            for tool, body in workloads.items():
                for c in connections:
                    for server in servers.values():
                        r = measure(loader, server, tool, body, token, c, args, work, env)
                        raw.append({"round": rnd, "server": server.name, "tool": tool, "connections": c, **r})
                        print(
                            f"    round {rnd} {tool:<12} c={c:<3} {server.name:<9} {r['rps']:8.1f} req/s  "
                            f"p50 {r['p50_ms']:7.2f} ms  p99 {r['p99_ms']:7.2f} ms",
                            flush=True,
                        )
        for tool in workloads:
            for c in connections:
                for name in servers:
                    runs = [r for r in raw if r["server"] == name and r["tool"] == tool and r["connections"] == c]
                    results.append(
                        {
                            "server": name,
                            "tool": tool,
                            "connections": c,
                            "rps": statistics.median(r["rps"] for r in runs),
                            "p50_ms": statistics.median(r["p50_ms"] for r in runs),
                            "p99_ms": statistics.median(r["p99_ms"] for r in runs),
                        }
                    )
    finally:
        for server in servers.values():
            server.stop()

    info = versions(loader)
    info["load average (1 min) before/after"] = f"{load_before:.2f}/{os.getloadavg()[0]:.2f}"
    info["uptime"] = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print("\n" + table(results, connections) + "\n", flush=True)
    print("versions: " + ", ".join(f"{k} {v}" for k, v in info.items()), flush=True)
    if args.output:
        Path(args.output).write_text(
            json.dumps(
                {
                    "settings": {k: v for k, v in vars(args).items() if k not in ("output", "keep", "profile")}
                    | {"loader": loader, "protocolVersion": PROTOCOL_VERSION},
                    "versions": info,
                    "results": results,
                    "runs": raw,
                },
                indent=2,
            )
            + "\n"
        )
        say(f"results written to {args.output}")
    if args.profile:
        say("profiling our endpoint in-process (bench/profile_endpoint.py)")
        subprocess.run(
            [sys.executable, str(HERE / "profile_endpoint.py"), "--token", token, "--id", seeded["id"]],
            cwd=ROOT,
            env=env,
            check=True,
        )
    if args.keep:
        say(f"kept {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
