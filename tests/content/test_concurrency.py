"""Concurrency with real threads (each with its own database connection) and real worker processes.

SPEC 6.2: a stale ``_rev`` writes nothing; generated slugs stay unique; several workers publish each due
item exactly once; ``unschedule`` racing the worker ends in exactly one of the two outcomes.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from django.db import connection, transaction
from django.utils import timezone

from content.entries import rows, selectors, services
from content.models import Revision
from content.schema import specs as schema
from content.signals import entry_changed
from emdash.actor import Actor
from emdash.errors import Conflict
from emdash.roles import Role
from tests.factories import SYSTEM, make_entry, make_user

pytestmark = pytest.mark.slow

PROJECT_DIR = Path(__file__).resolve().parents[2]


def run_in_threads(fns: list[Callable[[], Any]], timeout: float = 120) -> list[tuple[str, Any]]:
    """Start every function at once (barrier) in its own thread; ``("ok", value)`` or ``("error", exc)``."""
    barrier = threading.Barrier(len(fns))
    results: list[tuple[str, Any]] = [("missing", None)] * len(fns)

    def work(i: int, fn: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=30)
            results[i] = ("ok", fn())
        except BaseException as exc:  # reported to the test
            results[i] = ("error", exc)
        finally:
            connection.close()  # this thread's own connection

    threads = [threading.Thread(target=work, args=(i, fn), daemon=True) for i, fn in enumerate(fns)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    return results


@pytest.fixture
def events() -> Iterator[list[tuple[str, str]]]:
    """``(entry_id, action)`` for every entry_changed signal, from any thread."""
    seen: list[tuple[str, str]] = []
    lock = threading.Lock()

    def receiver(sender: Any, *, entry_id: str, action: str, **kwargs: Any) -> None:
        with lock:
            seen.append((entry_id, action))

    entry_changed.connect(receiver, weak=False, dispatch_uid="test_concurrency_events")
    yield seen
    entry_changed.disconnect(dispatch_uid="test_concurrency_events")


def spec():
    return schema.get_collection("posts")


def revisions_of(entry_id: str, kind: str | None = None) -> int:
    qs = Revision.objects.filter(collection="posts", entry_id=entry_id)
    return (qs.filter(kind=kind) if kind else qs).count()


def make_due(ids: list[str]) -> None:
    """Schedule items in the past, straight in the table (content_schedule only accepts future times)."""
    past = timezone.now() - timedelta(minutes=5)
    model = spec().model
    drafts = model.objects.filter(id__in=ids, status="draft").update(status="scheduled", scheduled_at=past)
    published = model.objects.filter(id__in=ids, status="published").update(scheduled_at=past)
    assert drafts + published == len(ids)


# --- (a) one _rev, eight writers -----------------------------------------------------------------


@pytest.mark.parametrize("published", [False, True], ids=["draft", "published-with-draft"])
def test_same_rev_concurrent_updates_exactly_one_wins(posts, published, events):
    editor = Actor.for_user(make_user(Role.EDITOR, password=None))
    entry = make_entry(data={"title": "Original"}, status="published" if published else None)
    current = selectors.entry_get(actor=editor, collection="posts", id=entry.id)
    rev = current.rev
    version_before = current.row.version
    revisions_before = revisions_of(entry.id)
    events.clear()

    n = 8
    fns = [
        partial(
            services.entry_update,
            actor=editor,
            collection="posts",
            id=entry.id,
            data={"title": f"Writer {i}", "excerpt": f"by writer {i}"},
            rev=rev,
        )
        for i in range(n)
    ]
    results = run_in_threads(fns)

    winners = [i for i, (kind, _) in enumerate(results) if kind == "ok"]
    assert len(winners) == 1, results
    (winner,) = winners
    losers = [value for kind, value in results if kind != "ok"]
    assert len(losers) == n - 1
    for exc in losers:
        assert isinstance(exc, Conflict), repr(exc)
        assert exc.code == "CONFLICT"

    final = selectors.entry_get(actor=editor, collection="posts", id=entry.id)
    body = final.to_dict()
    assert body["data"]["title"] == f"Writer {winner}"
    assert body["data"]["excerpt"] == f"by writer {winner}"
    assert final.row.version == version_before + 1
    assert final.rev != rev
    assert revisions_of(entry.id) == revisions_before + 1
    if published:
        assert body["liveData"]["title"] == "Original"  # the edit went to a draft
        assert final.row.status == "published"
    assert events == [(entry.id, "updated")]


def test_updates_without_rev_all_apply(posts):
    """No ``_rev`` means last write wins: every writer succeeds, nobody gets a CONFLICT."""
    editor = Actor.for_user(make_user(Role.EDITOR, password=None))
    entry = make_entry(data={"title": "Original"})
    n = 6
    results = run_in_threads(
        [
            partial(services.entry_update, actor=editor, collection="posts", id=entry.id, data={"title": f"W{i}"})
            for i in range(n)
        ]
    )
    assert [kind for kind, _ in results] == ["ok"] * n, results
    final = selectors.entry_get(actor=editor, collection="posts", id=entry.id)
    assert final.row.version == 1 + n
    assert final.to_dict()["data"]["title"] in {f"W{i}" for i in range(n)}
    assert revisions_of(entry.id) == 1 + n


# --- (b) concurrent creates with one title -------------------------------------------------------


def test_concurrent_creates_with_same_title_get_distinct_slugs(posts):
    author = Actor.for_user(make_user(Role.AUTHOR, password=None))
    n = 8
    results = run_in_threads(
        [
            partial(services.entry_create, actor=author, collection="posts", data={"title": "Same Title"})
            for _ in range(n)
        ]
    )
    failures = [value for kind, value in results if kind != "ok"]
    assert not failures, failures
    slugs = [value.row.slug for _, value in results]
    assert len(set(slugs)) == n, slugs
    assert "same-title" in slugs
    assert all(re.fullmatch(r"same-title(-[2-9]\d*)?", s) for s in slugs), slugs
    stored = sorted(spec().model.objects.values_list("slug", flat=True))
    assert stored == sorted(slugs)
    assert len({value.id for _, value in results}) == n


# --- (c) several workers, 200 due items ---------------------------------------------------------

DUE = 200


def _due_items() -> list[str]:
    with transaction.atomic():  # one commit for the set-up
        ids = [make_entry(data={"title": f"Due {i}"}).id for i in range(DUE)]
        make_due(ids)
    assert spec().model.objects.filter(status="scheduled", scheduled_at__lte=timezone.now()).count() == DUE
    return ids


def _assert_published_once(ids: list[str]) -> None:
    model = spec().model
    assert model.objects.filter(id__in=ids, status="published", scheduled_at__isnull=True).count() == DUE
    per_entry = Counter(
        Revision.objects.filter(collection="posts", kind=Revision.KIND_PUBLISH).values_list("entry_id", flat=True)
    )
    assert set(per_entry) == set(ids)
    twice = {k: v for k, v in per_entry.items() if v != 1}
    assert not twice, f"published more than once: {twice}"
    for row in model.objects.filter(id__in=ids):
        assert row.live_revision_id is not None and row.published_at is not None


def test_threaded_workers_publish_each_due_item_once(posts, events):
    ids = _due_items()
    events.clear()
    results = run_in_threads([services.publish_due for _ in range(4)])
    errors = [value for kind, value in results if kind != "ok"]
    assert not errors, errors
    counts = [value for _, value in results]
    assert sum(counts) == DUE, counts
    _assert_published_once(ids)
    published_events = Counter(eid for eid, action in events if action == "published")
    assert set(published_events) == set(ids)
    assert set(published_events.values()) == {1}
    assert services.publish_due() == 0  # nothing left


def _database_url() -> str:
    s = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{s['NAME']}"
    assert connection.vendor == "postgresql"
    password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
    return f"postgres://{s['USER']}{password}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def _hold_writers_back(seconds: float) -> None:
    """Block every publishing transaction for a while (SQLite: hold the write lock; PostgreSQL: a table
    lock that row locks wait for, plain reads do not), so workers that start at different moments
    contend item by item instead of the first one doing all the work."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(f"LOCK TABLE {connection.ops.quote_name(spec().table_name)} IN EXCLUSIVE MODE")
        time.sleep(seconds)


def test_worker_processes_publish_each_due_item_once(posts):
    ids = _due_items()
    env = {**os.environ, "DATABASE_URL": _database_url()}
    procs = [
        subprocess.Popen(
            [sys.executable, "manage.py", "emdash_worker", "--once"],
            cwd=PROJECT_DIR,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    outputs = []
    try:
        _hold_writers_back(seconds=2.5)  # let all four start up and queue on the lock, then race
        for p in procs:
            out, err = p.communicate(timeout=180)
            assert p.returncode == 0, err
            outputs.append(out)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    counts = []
    for out in outputs:
        match = re.search(r"published (\d+) scheduled item", out)
        assert match, out
        counts.append(int(match.group(1)))
    assert sum(counts) == DUE, counts
    _assert_published_once(ids)


# --- (d) unschedule racing the worker ------------------------------------------------------------


@pytest.mark.parametrize("published", [False, True], ids=["scheduled-draft", "published-with-draft"])
def test_unschedule_racing_publish_due_has_one_outcome(posts, published, events):
    editor = Actor.for_user(make_user(Role.EDITOR, password=None))
    outcomes: Counter[str] = Counter()
    for round_ in range(8):
        entry = make_entry(data={"title": f"Old {round_}"}, status="published" if published else None)
        if published:
            services.entry_update(actor=SYSTEM, collection="posts", id=entry.id, data={"title": f"New {round_}"})
        make_due([entry.id])
        publishes_before = revisions_of(entry.id, Revision.KIND_PUBLISH)
        events.clear()

        results = run_in_threads(
            [
                services.publish_due,
                partial(services.entry_unschedule, actor=editor, collection="posts", id=entry.id),
            ]
        )
        assert [kind for kind, _ in results] == ["ok", "ok"], results
        published_count = results[0][1]
        row = spec().model.objects.get(pk=entry.id)
        live = rows.row_values(spec(), row)["title"]
        new_publishes = revisions_of(entry.id, Revision.KIND_PUBLISH) - publishes_before
        actions = sorted(a for eid, a in events if eid == entry.id)
        assert row.scheduled_at is None
        if published_count == 1:
            outcomes["published"] += 1
            assert row.status == "published"
            assert row.draft_revision_id is None
            assert live == (f"New {round_}" if published else f"Old {round_}")
            assert new_publishes == 1
            assert actions == ["published"]
        else:
            outcomes["unscheduled"] += 1
            assert published_count == 0
            assert row.status == ("published" if published else "draft")
            assert live == f"Old {round_}"
            assert new_publishes == 0
            assert actions == ["unscheduled"]
            if published:
                assert rows.current_values(spec(), row)["title"] == f"New {round_}"  # draft still pending
    assert sum(outcomes.values()) == 8
