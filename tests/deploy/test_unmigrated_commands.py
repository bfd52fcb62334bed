"""Every EmDash management command on a database that is not migrated yet stops with a clear message (exit status
1, no traceback): before, ``emdash_user create`` on a new site ended in the driver's "no such table" traceback."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest
from django.core.management import get_commands, load_command_class

from emdash.commands import EmDashCommand
from tests.deploy.test_settings import _env
from tests.e2e.admin_helpers import ROOT

OURS = sorted(name for name, app in get_commands().items() if name.startswith("emdash_"))


@pytest.mark.parametrize("name", OURS)
def test_every_emdash_command_checks_the_database_is_migrated(name: str) -> None:
    command = load_command_class(get_commands()[name], name)
    assert isinstance(command, EmDashCommand), f"{name} does not refuse an unmigrated database"


@pytest.mark.parametrize(
    "argv",
    [
        ["emdash_user", "create", "--email", "owner@example.com", "--role", "admin"],
        ["emdash_setup", "--starter", "blog"],
    ],
)
def test_a_command_before_migrate_says_to_migrate_and_creates_nothing(tmp_path: Path, argv: list[str]) -> None:
    db = tmp_path / "new.sqlite3"
    env = _env({"EMDASH_VAR_DIR": str(tmp_path), "DATABASE_URL": f"sqlite:///{db}"})
    out = subprocess.run(
        [sys.executable, "manage.py", *argv], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 1, out.stderr[-2000:]
    assert "Run `python manage.py migrate` first" in out.stderr
    assert "Traceback" not in out.stderr and "no such table" not in out.stderr
    if db.exists():  # the migration check may open the file; the refused command made no table in it
        with closing(sqlite3.connect(db)) as conn:
            assert conn.execute("select count(*) from sqlite_master where type='table'").fetchone()[0] == 0
