"""Every failed check of a conformance run must be listed as not applicable (used by run.py).

The suites' own exit status does not say enough: the alpha scores only the scenarios its requirement set
counts, so a failing check in a "pending" or "extension" scenario (http-custom-header-server-validation,
tasks-*) passes silently. run.py therefore reads every ``checks.json`` a run wrote and fails the run for any
FAILURE that alpha-not-applicable.yaml does not list, as ``scenario`` or ``scenario:check-id``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

# Result directories are named server-<scenario>-<ISO timestamp with - for :>
RESULT_DIR = re.compile(r"^server-(?P<scenario>.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$")


def listed(path: Path | None) -> set[str]:
    """The server entries of a not-applicable file (none without one)."""
    if path is None:
        return set()
    entries = (yaml.safe_load(path.read_text()) or {}).get("server") or []
    return {entry if isinstance(entry, str) else str(entry["scenario"]) for entry in entries}


def result_dirs(out_dir: Path) -> set[Path]:
    return {p for p in out_dir.iterdir() if p.is_dir()} if out_dir.is_dir() else set()


def unlisted_failures(dirs: set[Path], not_applicable: set[str]) -> list[str]:
    """``scenario:check-id — message`` for each failed check that is not listed; a run that wrote no results
    for a scenario it started is the suite's own failure, which its exit status reports."""
    found = []
    for directory in sorted(dirs):
        match = RESULT_DIR.match(directory.name)
        checks_file = directory / "checks.json"
        if match is None or not checks_file.exists():
            continue
        scenario = match["scenario"]
        for check in json.loads(checks_file.read_text()):
            if check.get("status") != "FAILURE":
                continue
            key = f"{scenario}:{check.get('id')}"
            if scenario not in not_applicable and key not in not_applicable:
                found.append(f"{key} — {str(check.get('errorMessage') or '')[:200]}")
    return found
