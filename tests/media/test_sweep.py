"""SPEC 6.4 "orphans swept": stored files with no media item, older than MEDIA_ORPHAN_AGE, go; run by the worker."""

from __future__ import annotations

import os
import time
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from media import services
from tests.factories import actor
from tests.media.helpers import image_bytes, make_media, place

pytestmark = pytest.mark.django_db


def age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


def test_sweep_removes_old_orphans_only(media_root: Path) -> None:
    registered = make_media(actor())
    age(media_root / registered.storage_key, 7200)
    old = media_root / place(b"old orphan", "2026/01/old.bin")
    age(old, 7200)
    young = media_root / place(b"young orphan", "2026/01/young.bin")
    age(young, 600)
    hidden = media_root / ".keep"
    hidden.write_bytes(b"")
    age(hidden, 7200)

    assert services.media_sweep_orphans() == 1
    assert not old.exists()
    assert young.exists() and hidden.exists() and (media_root / registered.storage_key).exists()


def test_sweep_of_a_missing_root_is_a_no_op(settings, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = str(tmp_path / "does-not-exist")
    assert services.media_sweep_orphans() == 0


def test_sweep_runs_at_most_once_per_interval(media_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "_last_sweep", None)
    first = media_root / place(b"x", "a.bin")
    age(first, 7200)
    assert services.sweep_if_due() == 1
    second = media_root / place(b"y", "b.bin")
    age(second, 7200)
    assert services.sweep_if_due() == 0, "the interval has not passed"
    assert second.exists()


def test_sweep_failures_never_stop_the_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "_last_sweep", None)

    def broken(**kwargs: object) -> int:
        raise OSError("storage is down")

    monkeypatch.setattr(services, "media_sweep_orphans", broken)
    assert services.sweep_if_due() == 0


@pytest.mark.django_db(transaction=True)  # the worker closes old connections between passes
def test_the_worker_sweeps(media_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "_last_sweep", None)
    orphan = media_root / place(image_bytes(), "2026/02/orphan.png")
    age(orphan, 7200)
    call_command("emdash_worker", "--once", stdout=StringIO())
    assert not orphan.exists()


def test_sweep_never_follows_a_symlink_out_of_the_root(media_root: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    precious = outside / "precious.bin"
    precious.write_bytes(b"keep me")
    age(precious, 7200)
    os.symlink(outside, media_root / "linked")
    assert services.media_sweep_orphans() == 0
    assert precious.exists()
