"""Size rules for application code (issue 11): no module over 400 lines, no function over 60 lines
unless the line above its ``def`` says why (``# long: <reason>``). Tests, migrations and bench are exempt."""

from __future__ import annotations

import ast
from pathlib import Path

from config.layout import PACKAGES as APPS  # every app (tests/test_layout.py)

ROOT = Path(__file__).resolve().parent.parent

MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60


def _app_modules() -> list[Path]:
    return [p for app in APPS for p in sorted((ROOT / app).rglob("*.py")) if "migrations" not in p.parts]


def _too_long(path: Path, root: Path = ROOT) -> list[str]:
    rel = path.relative_to(root).as_posix()
    lines = path.read_text(encoding="utf-8").splitlines()
    found = [rel] if len(lines) > MAX_MODULE_LINES else []
    for node in ast.walk(ast.parse("\n".join(lines))):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        reason = lines[first - 2].strip() if first >= 2 else ""
        size = (node.end_lineno or node.lineno) - node.lineno + 1
        name = f"{rel}:{node.name}"
        if size > MAX_FUNCTION_LINES and not reason.startswith("# long:"):
            found.append(f"{name} ({size} lines)")
    return found


def test_no_oversized_module_or_function() -> None:
    offenders = [item for path in _app_modules() for item in _too_long(path)]
    assert not offenders, f"split these, or mark a long function with '# long: <reason>': {offenders}"


def test_the_rule_catches_a_long_function(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    path = tmp_path / "probe.py"
    path.write_text(f"def long_one():\n{body}\n\n\n# long: a table\ndef excused():\n{body}\n", encoding="utf-8")
    assert _too_long(path, tmp_path) == [f"probe.py:long_one ({MAX_FUNCTION_LINES + 1} lines)"]
