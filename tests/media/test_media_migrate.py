"""``emdash_media_migrate --to s3|filesystem`` (SPEC 11): a verified round trip of originals and renditions,
idempotent, and resumable after being killed mid-way."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from emdash.actor import Actor
from media import migrate_storage, rendition_store
from media.models import MediaItem, MediaRendition
from tests.media.helpers import PDF, image_bytes, make_media
from tests.media.storages import KEYS, new_bucket, s3_options, use_s3
from tests.servers import ROOT, database_url

SYSTEM = Actor.system()


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("emdash_media_migrate", *args, stdout=out)
    return out.getvalue()


def site_with_renditions() -> dict[str, bytes]:
    """Two images (with renditions) and a PDF in the current storage; every stored key -> bytes."""
    photo = make_media(SYSTEM, content=image_bytes("JPEG", (800, 600)), mime_type="image/jpeg")
    make_media(SYSTEM, content=image_bytes("PNG", (300, 200)), mime_type="image/png")
    make_media(SYSTEM, content=PDF, mime_type="application/pdf")
    for path in ("640x0/inside.webp", "320x320/cover.jpeg"):
        assert Client().get(f"/_emdash/media/{photo.id}/{path}").status_code == 200
    return {key: read(migrate_storage.filesystem(), key) for key in migrate_storage.stored_keys()}


def read(storage: Any, key: str) -> bytes:
    with storage.open(key, "rb") as handle:
        return bytes(handle.read())


@pytest.mark.django_db
def test_round_trip_filesystem_s3_filesystem(settings: Any, s3_endpoint: str, tmp_path: Path) -> None:
    files = site_with_renditions()
    assert len(files) == 5
    settings.MEDIA_S3_OPTIONS = s3_options(s3_endpoint, new_bucket(s3_endpoint))
    assert "5 file(s): 5 copied, 0 already there, 0 failed" in run("--to", "s3")
    bucket = migrate_storage.s3()
    assert {key: read(bucket, key) for key in files} == files
    assert "5 file(s): 0 copied, 5 already there, 0 failed" in run("--to", "s3")  # idempotent

    # Now the site runs on S3 and moves back to an empty MEDIA_ROOT.
    settings.STORAGES = {**settings.STORAGES, "default": {"BACKEND": settings.STORAGES["default"]["BACKEND"]}}
    use_s3(settings, s3_endpoint, bucket=settings.MEDIA_S3_OPTIONS["bucket_name"])
    settings.MEDIA_ROOT = str(tmp_path / "back")
    assert "5 copied" in run("--to", "filesystem")
    local = migrate_storage.filesystem()
    assert {key: read(local, key) for key in files} == files

    # A file cut short (a run killed while writing it) is found and copied again; the rest is skipped.
    victim = next(key for key in files if key.startswith("renditions/"))
    Path(local.path(victim)).write_bytes(files[victim][:10])
    assert "1 copied, 4 already there" in run("--to", "filesystem")
    assert read(local, victim) == files[victim]


@pytest.mark.django_db
def test_renditions_are_served_after_the_move_without_rendering_again(
    settings: Any, s3_endpoint: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    site_with_renditions()
    settings.MEDIA_S3_OPTIONS = s3_options(s3_endpoint, new_bucket(s3_endpoint))
    run("--to", "s3")
    use_s3(settings, s3_endpoint, bucket=settings.MEDIA_S3_OPTIONS["bucket_name"])
    monkeypatch.setattr(rendition_store, "render_bytes", lambda *a: pytest.fail("rendered again"))
    photo = MediaItem.objects.get(mime_type="image/jpeg")
    response = Client().get(f"/_emdash/media/{photo.id}/640x0/inside.webp")
    assert response.status_code == 200 and response["Content-Type"] == "image/webp"


@pytest.mark.django_db
def test_s3_must_be_configured(settings: Any) -> None:
    settings.MEDIA_S3_OPTIONS = None
    with pytest.raises(CommandError, match="S3 is not configured"):
        run("--to", "s3")


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_killed_run_resumes_where_it_stopped(settings: Any, s3_endpoint: str) -> None:
    total = 40
    for i in range(total):
        make_media(SYSTEM, content=PDF + os.urandom(256 * 1024) + bytes([i]), mime_type="application/pdf")
    bucket = new_bucket(s3_endpoint)
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "MEDIA_ROOT": str(settings.MEDIA_ROOT),
        "EMDASH_S3_BUCKET": bucket,
        "EMDASH_S3_ENDPOINT_URL": s3_endpoint,
        "EMDASH_S3_REGION": "us-east-1",
        "AWS_ACCESS_KEY_ID": KEYS["access_key"],
        "AWS_SECRET_ACCESS_KEY": KEYS["secret_key"],
        "REDIS_URL": "",
    }
    argv = [sys.executable, "manage.py", "emdash_media_migrate", "--to", "s3", "-v", "2"]
    proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    copied_before = 0
    for line in proc.stdout:
        copied_before += " copied " in line
        if copied_before == 5:
            proc.send_signal(signal.SIGKILL)  # mid-way, no chance to clean up
            break
    proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    again = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    summary = again.stdout.strip().splitlines()[-1]
    copied, skipped = (int(summary.split(" copied")[0].split()[-1]), int(summary.split(" already")[0].split()[-1]))
    assert copied + skipped == total and skipped >= 5 and copied >= 1, summary
    settings.MEDIA_S3_OPTIONS = s3_options(s3_endpoint, bucket)
    target, source = migrate_storage.s3(), migrate_storage.filesystem()
    for key in MediaItem.objects.values_list("storage_key", flat=True):
        assert migrate_storage.digest_of(target, key) == migrate_storage.digest_of(source, key)
    assert not MediaRendition.objects.exists()
