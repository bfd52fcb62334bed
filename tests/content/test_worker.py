"""The background worker: ``publish_due`` and the ``emdash_worker`` management command."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from datetime import timedelta
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from content.entries import rows, selectors, services
from content.models import Revision
from content.schema import specs as schema
from emdash.actor import Actor
from tests.factories import SYSTEM, make_collection, make_entry

PROJECT_DIR = Path(__file__).resolve().parents[2]


def spec(slug: str = "posts"):
    return schema.get_collection(slug)


def make_due(collection: str, *ids: str, minutes_ago: int = 5) -> None:
    """Put items' schedule in the past, straight in the table (content_schedule wants a future time)."""
    past = timezone.now() - timedelta(minutes=minutes_ago)
    model = spec(collection).model
    model.objects.filter(id__in=ids, status="draft").update(status="scheduled", scheduled_at=past)
    model.objects.filter(id__in=ids, status="published").update(scheduled_at=past)
    assert model.objects.filter(id__in=ids, scheduled_at__lte=timezone.now()).count() == len(ids)


def run_worker_once() -> str:
    out = StringIO()
    call_command("emdash_worker", "--once", stdout=out)
    return out.getvalue()


def publishes(entry_id: str) -> int:
    return Revision.objects.filter(entry_id=entry_id, kind=Revision.KIND_PUBLISH).count()


def test_once_publishes_due_items_and_prints_the_count(posts):
    due = [make_entry(data={"title": f"Due {i}"}).id for i in range(3)]
    make_due("posts", *due)
    later = make_entry(data={"title": "Later"})
    services.entry_schedule(
        actor=SYSTEM, collection="posts", id=later.id, scheduled_at=(timezone.now() + timedelta(hours=1)).isoformat()
    )
    plain = make_entry(data={"title": "Plain draft"})

    output = run_worker_once()
    assert "published 3 scheduled item(s)" in output

    model = spec().model
    for entry_id in due:
        row = model.objects.get(pk=entry_id)
        assert row.status == "published"
        assert row.scheduled_at is None
        assert row.published_at is not None
        assert publishes(entry_id) == 1
    assert model.objects.get(pk=later.id).status == "scheduled"
    assert model.objects.get(pk=plain.id).status == "draft"
    assert publishes(later.id) == publishes(plain.id) == 0

    assert "published 0 scheduled item(s)" in run_worker_once()  # nothing twice
    assert all(publishes(entry_id) == 1 for entry_id in due)


def test_once_with_nothing_due_prints_zero(posts):
    make_entry(data={"title": "Draft"})
    assert run_worker_once().strip() == "emdash worker: published 0 scheduled item(s)"


def test_publish_due_honours_now(posts):
    entry = make_entry(data={"title": "Tomorrow"})
    when = timezone.now() + timedelta(hours=1)
    services.entry_schedule(actor=SYSTEM, collection="posts", id=entry.id, scheduled_at=when.isoformat())
    assert services.publish_due() == 0
    assert spec().model.objects.get(pk=entry.id).status == "scheduled"

    assert services.publish_due(now=when + timedelta(minutes=1)) == 1
    row = spec().model.objects.get(pk=entry.id)
    assert row.status == "published"
    assert row.scheduled_at is None
    assert abs((row.published_at - when).total_seconds()) < 1  # published "at" the scheduled time
    assert services.publish_due(now=when + timedelta(minutes=2)) == 0


def test_publish_due_puts_the_pending_draft_live_and_keeps_published_at(posts):
    entry = make_entry(data={"title": "Live"}, status="published")
    first_published = spec().model.objects.get(pk=entry.id).published_at
    services.entry_update(actor=SYSTEM, collection="posts", id=entry.id, data={"title": "Pending"})
    when = timezone.now() + timedelta(hours=2)
    services.entry_schedule(actor=SYSTEM, collection="posts", id=entry.id, scheduled_at=when.isoformat())

    row = spec().model.objects.get(pk=entry.id)
    assert row.status == "published"  # keeps serving the live version meanwhile
    assert rows.row_values(spec(), row)["title"] == "Live"
    anon = selectors.entry_get(actor=Actor.anonymous(), collection="posts", id=entry.id)
    assert anon.to_dict()["data"]["title"] == "Live"

    assert services.publish_due(now=when + timedelta(seconds=1)) == 1
    row = spec().model.objects.get(pk=entry.id)
    assert rows.row_values(spec(), row)["title"] == "Pending"
    assert row.draft_revision_id is None and row.scheduled_at is None
    assert row.published_at == first_published
    assert publishes(entry.id) == 2


def test_trashed_and_unscheduled_items_are_not_published(posts):
    trashed = make_entry(data={"title": "Trashed"})
    unscheduled = make_entry(data={"title": "Unscheduled"})
    make_due("posts", trashed.id, unscheduled.id)
    spec().model.objects.filter(pk=trashed.id).update(deleted_at=timezone.now())
    services.entry_unschedule(actor=SYSTEM, collection="posts", id=unscheduled.id)

    assert "published 0 scheduled item(s)" in run_worker_once()
    model = spec().model
    assert model.objects.get(pk=trashed.id).status == "scheduled"  # untouched while in the trash
    assert model.objects.get(pk=unscheduled.id).status == "draft"
    assert publishes(trashed.id) == publishes(unscheduled.id) == 0


def test_worker_covers_every_collection(posts):
    make_collection("pages", fields=[{"slug": "title", "label": "Title", "type": "string"}])
    post = make_entry("posts", data={"title": "Post"})
    page = make_entry("pages", data={"title": "Page"})
    make_due("posts", post.id)
    make_due("pages", page.id)
    assert "published 2 scheduled item(s)" in run_worker_once()
    assert spec("posts").model.objects.get(pk=post.id).status == "published"
    assert spec("pages").model.objects.get(pk=page.id).status == "published"


def test_worker_respects_the_limit(posts):
    ids = [make_entry(data={"title": f"Due {i}"}).id for i in range(5)]
    make_due("posts", *ids)
    assert services.publish_due(limit=2) == 2
    assert services.publish_due(limit=2) == 2
    assert services.publish_due(limit=2) == 1
    assert spec().model.objects.filter(status="published").count() == 5


def _database_url() -> str:
    s = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{s['NAME']}"
    password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
    return f"postgres://{s['USER']}{password}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


@pytest.mark.slow
def test_worker_loop_publishes_and_stops_on_sigterm(posts):
    """Without --once the worker keeps polling, publishes what falls due, and exits cleanly on SIGTERM."""
    proc = subprocess.Popen(
        [sys.executable, "-u", "manage.py", "emdash_worker", "--interval", "0.2"],
        cwd=PROJECT_DIR,
        env={**os.environ, "DATABASE_URL": _database_url()},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        assert ready, "the worker printed nothing within 60 s"
        first = proc.stdout.readline()
        assert "running every 0.2s" in first, first + (proc.stderr.read() if proc.poll() is not None else "")
        entry = make_entry(data={"title": "Soon"})
        make_due("posts", entry.id)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and spec().model.objects.get(pk=entry.id).status != "published":
            time.sleep(0.1)
        assert spec().model.objects.get(pk=entry.id).status == "published"
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert "published 1 scheduled item(s)" in out
    assert out.rstrip().endswith("emdash worker: stopped")
    assert publishes(entry.id) == 1
