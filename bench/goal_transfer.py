"""Export and import (SPEC 12): items per second and peak memory at ``--scale-items`` (100k) items, and memory
bounded: the peak at 100k items within 1.5x of the peak at a tenth of them.

Each command runs in its own process; its peak RSS comes from the kernel's accounting of that child (wait4).
The import goes into a fresh, migrated SQLite site.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from bench.harness import ROOT, Bench, Row, say

GOAL_RATE = "Export / import: items per second (--scale-items, 100k by default)"
GOAL_MEMORY = "Export / import: peak memory bounded (--scale-items within 1.5x of a tenth of them)"


def _measured(env: dict[str, str], *args: str) -> tuple[float, float]:
    """(seconds, peak RSS MiB) of ``manage.py *args``."""
    started = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        raise SystemExit(f"manage.py {' '.join(args)} failed: {proc.stderr.read().decode() if proc.stderr else ''}")
    return time.monotonic() - started, usage.ru_maxrss / 1024


def _round_trip(bench: Bench, items: int) -> dict[str, tuple[float, float]]:
    site = bench.site(f"transfer-{items}", "--posts", "60", "--bulk", str(items - 60), shared=True)
    archive = Path(bench.work) / f"transfer-{items}.tar.gz"
    export = _measured(site.env, "emdash_export", str(archive))
    target = Path(bench.work) / f"transfer-{items}-restored"
    target.mkdir(exist_ok=True)
    env = bench.env(target)
    bench.run_py(env, "manage.py", "migrate", "--no-input", "-v", "0")
    restore = _measured(env, "emdash_import", str(archive))
    say(f"{items} items: export {export[0]:.1f} s {export[1]:.0f} MiB, import {restore[0]:.1f} s {restore[1]:.0f} MiB")
    return {"export": export, "import": restore}


def run(bench: Bench) -> list[Row]:
    items = bench.args.scale_items
    small, large = _round_trip(bench, items // 10), _round_trip(bench, items)
    rows = []
    for step in ("export", "import"):
        seconds, peak = large[step]
        rows.append(
            Row(
                GOAL_RATE,
                f"{step} of {items:,} items",
                items / seconds,
                unit="items/s",
                note=f"{seconds:.1f} s, peak {peak:.0f} MiB",
            )
        )
        rows.append(
            Row.at_most(
                GOAL_MEMORY,
                f"{step} peak RSS",
                peak,
                small[step][1],
                1.5,
                unit="MiB",
                peer_name=f"{items // 10:,} items",
            )
        )
    return rows
