"""The app list is written once (config/layout.py); everything that must know every app is checked against it,
so a new app cannot escape import-linter, the size rule, packaging or operation discovery."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

from django.conf import settings

from config.layout import APPS, PACKAGES
from emdash.operations.record import MODULES
from tests import test_code_size

ROOT = Path(__file__).resolve().parent.parent
NOT_APPS = {"tests", "bench", "conformance"}  # the suite, the benchmarks, the official suites' runner
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
LINT = PYPROJECT["tool"]["importlinter"]
# Import circles are allowed inside these (docs/architecture.md, Layering): the core, and accounts where the
# bearer check and the OAuth server call each other; accounts.oauth itself is checked.
CIRCLES_ALLOWED = {"emdash", "accounts"}


def _names(entries: list[str]) -> set[str]:
    return {name.strip() for entry in entries for name in entry.replace(":", "|").split("|")}


def _contract(kind: str, **match: object) -> dict:
    found = [c for c in LINT["contracts"] if c["type"] == kind and all(c.get(k) == v for k, v in match.items())]
    assert len(found) == 1, (kind, match)
    return found[0]


def test_every_package_on_disk_is_a_listed_app() -> None:
    on_disk = {p.parent.name for p in ROOT.glob("*/__init__.py")} - NOT_APPS
    assert on_disk == set(PACKAGES)


def test_settings_install_every_app_in_order() -> None:
    assert [app for app in settings.INSTALLED_APPS if app.split(".")[0] in PACKAGES] == list(APPS)


def test_import_linter_covers_every_package() -> None:
    assert set(LINT["root_packages"]) == set(PACKAGES)
    layers = _contract("layers")["layers"]
    assert _names(layers) == set(PACKAGES)
    assert layers[0] == "config"  # the project alone sits above the doors
    nothing_imports_config = _contract("forbidden", forbidden_modules=["config"])
    assert set(nothing_imports_config["source_modules"]) == set(PACKAGES) - {"config"}
    mcp_is_a_leaf = _contract("forbidden", forbidden_modules=["mcp_endpoint"])
    assert set(mcp_is_a_leaf["source_modules"]) == set(PACKAGES) - {"mcp_endpoint"}
    ancestors = {name.split(".")[0] for name in _contract("acyclic_siblings")["ancestors"]}
    assert ancestors | CIRCLES_ALLOWED == set(PACKAGES)


def test_the_size_rule_and_packaging_cover_every_package() -> None:
    assert set(test_code_size.APPS) == set(PACKAGES)
    include = PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"]
    assert set(include) == {f"{package}*" for package in PACKAGES}


def _declares_operations(path: Path) -> bool:
    """Imports ``family`` or ``declare`` from the operation table: the module declares operations."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom) or not (node.module or "").startswith("emdash.operations"):
            continue
        if {alias.name for alias in node.names} & {"family", "declare"}:
            return True
    return False


def test_operation_discovery_imports_every_declaring_module() -> None:
    declaring = {
        ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "operations" not in path.relative_to(ROOT).parts[:2] and _declares_operations(path)
    }
    assert declaring == set(MODULES)
