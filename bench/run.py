"""``make bench``: every goal of issue 15, one table per goal (ours, the floor or peer, the ratio, the target, met?).

Each goal is a module in ``bench/`` registered in ``GOALS`` below with one line. A goal module exposes

    def run(bench: bench.harness.Bench) -> list[bench.harness.Row]

``bench`` is the run's context: the command line (``bench.args``: rounds, duration, warm-up, connections, ...),
a scratch directory (``bench.work``), ``bench.site(...)`` (a migrated, seeded site with an admin token),
``bench.gunicorn(...)``/``bench.uvicorn(...)`` + ``bench.serving(...)`` (servers started and stopped for it),
``bench.load(...)`` (a wrk or httpx load run) and ``bench.postgres_url`` (``--postgres``, for goals that
compare both databases; such rows are skipped without it). A ``Row`` carries the goal's title (rows with the
same title form one table), what was measured, ours, the peer, the ratio, the target and whether it is met;
``Row.at_least``/``Row.at_most``/``Row.limit`` compute the ratio and the verdict.

    .venv/bin/python bench/run.py [--goals reads,scale] [--rounds 2 --duration 3 --warmup 1 --connections 1,8]

Results are printed as Markdown (paste into docs/benchmarks.md) and saved as JSON with ``--output``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import Bench, Row, render, rows_json, say, versions

# name -> module: one line per goal module (run in this order; --goals picks some).
GOALS: dict[str, str] = {
    "reads": "bench.goal_reads",  # goals 1, 2: content_get, content_list, tools/list against the floor
    "scale": "bench.goal_scale",  # goal 6: 100k items, 50 collections, RSS
    "search": "bench.goal_search",  # goal 4: search at 100k documents, SQLite and PostgreSQL
    "writes": "bench.goal_writes",  # goal 5: content_create from 8 clients
    "servers": "bench.goal_servers",  # goal 7: daphne, gunicorn, granian on the same calls
    "asgi": "bench.goal_asgi",  # issue 27 goals 1, 2: granian's CPU per call vs gunicorn's, both vs the floor
    "renditions": "bench.goal_renditions",  # issue 25: first render and cached hit of a 1280-px WebP
    "transfer": "bench.goal_transfer",  # SPEC 12: export/import items per second and peak memory at 100k items
    "delivery": "bench.goal_delivery",  # issue 27 goals 3-6: 304s, public pages and REST vs Wagtail, deep pages
}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--goals", default=",".join(GOALS), help=f"comma-separated, of {', '.join(GOALS)}")
    parser.add_argument("--threads", type=int, default=1, help="gunicorn threads per worker for ours (default 1)")
    parser.add_argument("--connections", default="1,8", help="comma-separated concurrent connections (default 1,8)")
    parser.add_argument("--duration", type=float, default=3, help="seconds measured per load run (default 3)")
    parser.add_argument("--warmup", type=float, default=1, help="seconds of warm-up before each run (default 1)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds; the median is reported (default 2)")
    parser.add_argument("--loader", choices=("auto", "wrk", "httpx"), default="auto")
    parser.add_argument("--servers", default="ours,floor,reference", help="goal 'reads': which servers to load")
    postgres = os.environ.get("BENCH_POSTGRES_URL", "")
    parser.add_argument("--postgres", default=postgres, help="a throw-away PostgreSQL database URL")
    parser.add_argument(
        "--pin",
        choices=("auto", "yes", "no"),
        default="auto",
        help="servers on CPU 0, the load generator on CPU 1 (auto: on 2+ CPUs when taskset exists)",
    )
    parser.add_argument("--scale-items", type=int, default=100_000, help="goal 'scale': items of the large site")
    parser.add_argument(
        "--rss-requests", type=int, default=20_000, help="goal 'scale': requests before the RSS reading"
    )
    parser.add_argument("--output", help="write the rows as JSON here")
    parser.add_argument("--keep", action="store_true", help="keep the scratch directory")
    args = parser.parse_args(argv)
    args.connections = [int(c) for c in args.connections.split(",")]
    args.goals = [g for g in args.goals.split(",") if g]
    unknown = [g for g in args.goals if g not in GOALS]
    if unknown:
        raise SystemExit(f"unknown goals {unknown}; known: {', '.join(GOALS)}")
    if not all(1 <= c <= 256 for c in args.connections) or not 0 < args.duration <= 120 or not 1 <= args.rounds <= 10:
        raise SystemExit("connections must be 1-256, duration at most 120 s, rounds 1-10")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    load_before = os.getloadavg()
    if load_before[0] > 0.5:
        say(f"warning: load average is {load_before[0]:.2f}; other processes will skew absolute numbers")
    work = Path(tempfile.mkdtemp(prefix="emdash-bench-"))
    bench = Bench(args, work)
    rows: list[Row] = []
    timings: dict[str, float] = {}
    started = time.monotonic()
    try:
        for name in args.goals:
            say(f"goal module {name} ({GOALS[name]})")
            t0 = time.monotonic()
            rows += importlib.import_module(GOALS[name]).run(bench)
            timings[name] = round(time.monotonic() - t0, 1)
    finally:
        bench.stop_all()
    info = versions(bench.loader)
    info["load average (1/5/15 min) before"] = "/".join(f"{x:.2f}" for x in load_before)
    info["load average after"] = "/".join(f"{x:.2f}" for x in os.getloadavg())
    info["uptime"] = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    info["seconds per goal module"] = ", ".join(f"{k} {v}" for k, v in timings.items())
    info["total seconds"] = f"{time.monotonic() - started:.0f}"
    print("\n" + render(rows), flush=True)
    print("\n".join(f"- {k}: {v}" for k, v in info.items()), flush=True)
    if args.output:
        document = {"settings": {k: v for k, v in vars(args).items() if k != "output"}, "info": info}
        Path(args.output).write_text(json.dumps({**document, "rows": rows_json(rows)}, indent=2) + "\n")
        say(f"results written to {args.output}")
    if args.keep:
        say(f"kept {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if all(r.met is not False for r in rows if not r.stretch) else 1


if __name__ == "__main__":
    sys.exit(main())
