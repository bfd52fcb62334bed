"""SPEC 12: export, import into an empty site on the other database, export again: identical content and media.

The site is built on the test database (SQLite or PostgreSQL); the import runs as ``manage.py emdash_import`` in a
subprocess against a fresh database of the other kind, and from there back into a fresh SQLite file.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.core.management import call_command

from tests.transfer.site import build_site, manage, members

pytestmark = pytest.mark.slow
PG_ADMIN = "postgres://postgres@127.0.0.1:5432/postgres"


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL database for the other side, dropped afterwards; skipped loudly without a server."""
    name = f"transfer_rt_{uuid.uuid4().hex[:8]}"
    try:
        with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=3) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
    except psycopg.OperationalError as exc:
        pytest.skip(f"NOT RUN: the round trip needs a PostgreSQL server at 127.0.0.1:5432 ({exc})")
    yield f"postgres://postgres@127.0.0.1:5432/{name}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _sqlite_url(tmp_path: Path, name: str) -> str:
    return f"sqlite:///{tmp_path / name}.sqlite3"


def test_round_trip_between_databases_gives_identical_archives(
    cms: None, tmp_path: Path, postgres_url: str, settings: Any
) -> None:
    build_site(settings)
    first = tmp_path / "first.tar.gz"
    call_command("emdash_export", str(first))
    on_postgres = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")
    # The other database first (PostgreSQL when the suite runs on SQLite, and SQLite when it runs on PostgreSQL).
    hops = [_sqlite_url(tmp_path, "other")] if on_postgres else [postgres_url, _sqlite_url(tmp_path, "back")]
    archive = first
    for number, url in enumerate(hops):
        media = tmp_path / f"media{number}"
        manage("migrate", "--no-input", "-v", "0", database_url=url, media_root=media)
        done = manage("emdash_import", str(archive), database_url=url, media_root=media)
        assert "imported" in done.stdout
        archive = tmp_path / f"hop{number}.tar.gz"
        manage("emdash_export", str(archive), database_url=url, media_root=media)
        assert members(archive) == members(first), f"hop {number} ({url.split(':')[0]}) changed the site"
    assert any(name.startswith("media/") for name in members(first))
    exported = members(first)
    assert b"Ann Writer" in exported["bylines.jsonl"] and b"Photos" in exported["content_bylines.jsonl"]
    assert b"Spring" in exported["changesets.jsonl"] and exported["changeset_entries.jsonl"].count(b"\n") == 1
