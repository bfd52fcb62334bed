"""A new rendition asked for by many at once is rendered exactly once (SPEC 11): N threads, and N processes,
on both storages; the others wait for it and all get the same bytes. A claim whose renderer died is taken over."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from emdash.actor import Actor
from media import rendition_store, renditions
from media.models import MediaItem, MediaRendition
from tests.media.helpers import image_bytes, make_media
from tests.servers import ROOT, database_url

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("media_storage"), pytest.mark.slow]
N = 6
PATH = "640x0/inside.webp"


@pytest.fixture
def item() -> MediaItem:
    return make_media(Actor.system(), content=image_bytes("JPEG", (1600, 1200)), mime_type="image/jpeg")


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = rendition_store.render_bytes

    def slow(*args: Any) -> Any:
        calls.append(1)
        time.sleep(0.3)  # the others arrive while this render runs
        return real(*args)

    monkeypatch.setattr(rendition_store, "render_bytes", slow)
    return calls


def test_parallel_first_requests_in_threads_render_once(item: MediaItem, counted: list[int]) -> None:
    barrier = threading.Barrier(N)
    answers: list[Any] = [None] * N

    def ask(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            response = Client().get(f"/_emdash/media/{item.id}/{PATH}")
            answers[i] = (response.status_code, b"".join(response.streaming_content))
        finally:
            connection.close()

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(N)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(counted) == 1
    assert {status for status, _ in answers} == {200}
    assert len({content for _, content in answers}) == 1
    assert MediaRendition.objects.get().state == "ready"


def _storage_env(settings: Any) -> dict[str, str]:
    options = settings.STORAGES["default"].get("OPTIONS") or {}
    if "bucket_name" not in options:
        return {"MEDIA_ROOT": str(settings.MEDIA_ROOT)}
    return {
        "EMDASH_S3_BUCKET": options["bucket_name"],
        "EMDASH_S3_ENDPOINT_URL": options["endpoint_url"],
        "EMDASH_S3_REGION": options["region_name"],
        "AWS_ACCESS_KEY_ID": options["access_key"],
        "AWS_SECRET_ACCESS_KEY": options["secret_key"],
    }


def test_parallel_first_requests_in_processes_render_once(item: MediaItem, settings: Any) -> None:
    env = {**os.environ, "DATABASE_URL": database_url(), "REDIS_URL": "", **_storage_env(settings)}
    start_at = time.time() + 6  # every process is set up by then
    size, name = PATH.split("/")
    argv = [sys.executable, "-m", "tests.media.render_race", item.id, size, name, str(start_at)]
    procs = [
        subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(4)
    ]
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        results.append(json.loads(out.strip().splitlines()[-1]))
    assert sum(r["renders"] for r in results) == 1, results
    assert len({(r["key"], r["size"]) for r in results}) == 1
    assert MediaRendition.objects.get().state == "ready"


def test_a_claim_whose_renderer_died_is_taken_over(item: MediaItem, counted: list[int]) -> None:
    spec = renditions.parse("640x0", "inside", "webp")
    key = renditions.key(item.id, item.content_hash, spec, "webp", (0.5, 0.5))
    stale = timezone.now() - timedelta(seconds=rendition_store.LEASE + 5)
    MediaRendition.objects.create(key=key, media=item, fit="inside", claimed_at=stale)
    response = Client().get(f"/_emdash/media/{item.id}/{PATH}")
    assert response.status_code == 200
    assert len(counted) == 1
    assert MediaRendition.objects.get(key=key).state == "ready"
