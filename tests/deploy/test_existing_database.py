"""A database made before the layout move keeps working (docs/architecture.md, Layout).

``accounts`` kept the ``emdash`` app label and ``audit`` took ``AuditLog`` with a state-only move, so ``migrate``
on an existing database records two migrations and changes no table, column or index. ``db_before_layout.sql`` is
that database as main made it at 5772dc1 (``migrate``, then one admin, a personal access token, an OAuth access
and refresh token for the CLI client and one audit row), dumped with sqlite3's ``iterdump``.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader

ROOT = Path(__file__).resolve().parents[2]
RECORDED = Path(__file__).with_name("db_before_layout.sql")
MOVES = [("audit", "0001_initial"), ("emdash", "0004_auditlog_moves_to_audit")]

# Run inside the migrated database's own process: reads what main wrote, then writes new rows of each kind.
CHECK = """
import django
django.setup()
from django.conf import settings
from django.contrib.auth import get_user_model
from accounts.models import User
from emdash.roles import Role
from accounts.oauth.models import OAuthClient, RefreshToken
from accounts.oauth.tokens import issue_pair, resolve_access_token
from accounts.tokens import resolve_pat, token_create
from audit.models import AuditLog

MCP = "http://testserver/_emdash/api/mcp"
assert settings.AUTH_USER_MODEL == "emdash.User" and get_user_model() is User
old = User.objects.get(email="old-admin@example.com")
assert old.check_password("old-password-1") and old.role == Role.ADMIN
assert resolve_pat("ec_pat_recorded-before-the-move").user == old
assert resolve_access_token("ec_oat_recorded-before-the-move", MCP).user == old
assert RefreshToken.objects.get(family="recordedfamily").user == old
row = AuditLog.objects.get()
assert (row.user, row.source, row.action, row.target) == (old, "rest", "content_create", "posts/recorded")
# audit.0002 (SPEC 9.3): client_id, which held the program's name, is now client, with its value kept.
assert (row.client, row.token_ref, row.token_name, row.oauth_client_id) == ("claude-code/1.0", "pat:1", "", "")

new = User.objects.create_user("new@example.com", "new-password-1")
assert resolve_pat(token_create(user=new, name="after", scopes=["content:read"]).raw).user == new
cli = OAuthClient.objects.get(client_id="emdash-cli")
pair = issue_pair(client=cli, user=new, scopes=["content:read"], resource=MCP)
assert resolve_access_token(pair["access_token"], MCP).user == new
AuditLog.objects.create(user=new, source="mcp", action="content_get", outcome="ok", trace_id="f" * 24)
actions = [r.action for r in AuditLog.objects.filter(user__in=[old, new]).order_by("id")]
assert actions == ["content_create", "content_get"]
old.delete()  # the audit row keeps its history without the user (SET_NULL), the tokens go with it (CASCADE)
assert AuditLog.objects.filter(user=None, action="content_create").exists()
print("ok")
"""


def _schema(db: Path) -> list[tuple[str, str, str | None, str]]:
    with sqlite3.connect(db) as con:
        return con.execute("SELECT type, name, sql, tbl_name FROM sqlite_master ORDER BY type, name").fetchall()


def _but(schema: list[tuple[str, str, str | None, str]], leave_out: tuple[str, ...]) -> list[Any]:
    """``schema`` without the tables (and their indexes) named ``leave_out*``: apps with migrations newer than
    the recording may change their own tables."""
    return [row for row in schema if not (leave_out and row[3].startswith(leave_out))]


def _applied(db: Path) -> set[tuple[str, str]]:
    with sqlite3.connect(db) as con:
        return set(con.execute("SELECT app, name FROM django_migrations").fetchall())


def test_migrate_keeps_a_database_from_before_the_move_working(tmp_path: Path) -> None:
    db = tmp_path / "before.sqlite3"
    with sqlite3.connect(db) as con:
        con.executescript(RECORDED.read_text())
        con.execute("UPDATE emdash_auditlog SET client_id = 'claude-code/1.0'")  # the program, as MCP wrote it
    schema, applied = _schema(db), _applied(db)
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "EMDASH_VAR_DIR": str(tmp_path)}
    env.pop("DJANGO_SETTINGS_MODULE", None)  # manage.py's own

    def run(*args: str) -> str:
        done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout

    run(sys.executable, "manage.py", "migrate", "--no-input", "-v", "0")
    added = _applied(db) - applied
    assert set(MOVES) <= added
    later = {app for app, _ in added - set(MOVES)}  # apps whose migrations came after the recording
    assert not later & {"emdash", "emdash_oauth"}, later  # the moved tables: exactly as recorded
    # audit's own later migrations (0002: provenance) change its table, which kept the name emdash_auditlog.
    leave_out = tuple(f"{app}_" for app in later) + (("emdash_auditlog",) if "audit" in later else ())
    assert _but(_schema(db), leave_out) == _but(schema, leave_out)  # no other table, column or index changed
    run(sys.executable, "manage.py", "migrate", "--check", "-v", "0")
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    assert run(sys.executable, "-c", CHECK).strip() == "ok"


@pytest.mark.django_db(transaction=True)
def test_the_move_runs_no_sql_on_any_database() -> None:
    """On PostgreSQL as on SQLite: both migrations of the move are state only, forwards and backwards."""
    loader = MigrationLoader(connection)
    for backwards in (False, True):
        plan = [(loader.graph.nodes[key], backwards) for key in MOVES]
        statements = [s for s in loader.collect_sql(plan) if not s.startswith("--")]
        assert statements == [], statements
