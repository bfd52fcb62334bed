"""Fixtures of the transfer tests: an export of a varied site, and an empty migrated site to import it into."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from tests.transfer.site import build_site, manage


@pytest.fixture
def archive(cms: None, tmp_path: Path, settings: Any) -> Path:
    build_site(settings)
    path = tmp_path / "site.tar.gz"
    call_command("emdash_export", str(path))
    return path


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A freshly migrated SQLite file, made once and copied for each test (migrating takes seconds)."""
    path = tmp_path_factory.mktemp("template") / "empty.sqlite3"
    manage("migrate", "--no-input", "-v", "0", database_url=f"sqlite:///{path}", media_root=path.parent / "media")
    return path


@pytest.fixture
def empty_site(tmp_path: Path, migrated: Path) -> dict[str, Any]:
    shutil.copy(migrated, tmp_path / "empty.sqlite3")
    return {"database_url": f"sqlite:///{tmp_path / 'empty.sqlite3'}", "media_root": tmp_path / "empty-media"}
