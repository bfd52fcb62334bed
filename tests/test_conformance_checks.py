"""conformance/checks.py: a failed check the not-applicable file does not list fails the conformance run."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("conformance_checks", ROOT / "conformance" / "checks.py")
assert _spec is not None and _spec.loader is not None
checks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(checks)


def _result(out: Path, scenario: str, statuses: dict[str, str]) -> Path:
    directory = out / f"server-{scenario}-2026-11-24T22-04-34-323Z"
    directory.mkdir(parents=True)
    rows = [{"id": check, "status": status, "errorMessage": f"{check} said no"} for check, status in statuses.items()]
    (directory / "checks.json").write_text(json.dumps(rows))
    return directory


def test_only_unlisted_failures_are_reported(tmp_path: Path) -> None:
    before = checks.result_dirs(tmp_path)
    _result(tmp_path, "tasks-lifecycle", {"a": "FAILURE", "b": "SUCCESS", "c": "FAILURE"})
    _result(tmp_path, "json-schema-2020-12", {"found": "FAILURE", "skip": "SKIPPED"})
    _result(tmp_path, "caching", {"x": "WARNING", "y": "SUCCESS"})
    new = checks.result_dirs(tmp_path) - before
    assert len(new) == 3
    assert checks.unlisted_failures(new, set()) == [
        "json-schema-2020-12:found — found said no",
        "tasks-lifecycle:a — a said no",
        "tasks-lifecycle:c — c said no",
    ]
    listed = {"json-schema-2020-12", "tasks-lifecycle:a"}  # a whole scenario, or one check of one
    assert checks.unlisted_failures(new, listed) == ["tasks-lifecycle:c — c said no"]


def test_the_alpha_list_parses_and_names_scenarios_or_checks() -> None:
    entries = checks.listed(ROOT / "conformance" / "alpha-not-applicable.yaml")
    assert "tasks-lifecycle:sep-2663-result-type-task-on-create" in entries and "prompts-get-simple" in entries
    assert checks.listed(None) == set()
