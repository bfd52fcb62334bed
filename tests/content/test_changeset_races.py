"""Change sets under concurrency (SPEC 9.2): two publishes of one set, a publish racing an edit of one of its items,
and a scheduled publish whose worker is SIGKILLed mid-run. Each ends in exactly one outcome, never half-applied."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from content.changesets import publishing, services
from content.changesets.models import ChangeSet
from content.entries import services as entries
from content.models import Revision
from content.schema import specs as schema
from content.schema.dynamic import field_attname
from emdash.actor import Actor
from emdash.errors import EmDashError
from emdash.roles import Role
from tests.content.test_concurrency import _database_url, run_in_threads
from tests.factories import make_entry, make_user

pytestmark = pytest.mark.slow

PROJECT_DIR = Path(__file__).resolve().parents[2]


def title(entry_id: str) -> Any:
    return getattr(schema.get_collection("posts").model.objects.get(pk=entry_id), field_attname("title"))


def status(entry_id: str) -> str:
    return str(schema.get_collection("posts").model.objects.get(pk=entry_id).status)


def publishes(entry_id: str) -> int:
    return Revision.objects.filter(entry_id=entry_id, kind=Revision.KIND_PUBLISH).count()


def approved_set(author: Actor, reviewer: Actor, n: int = 3, tag: str = "") -> tuple[str, list[str]]:
    """An approved set publishing ``n`` items: the first published with a pending edit, the others new drafts."""
    ids = [make_entry(by=author, data={"title": f"Live {tag}"}, status="published").id]
    entries.entry_update(actor=author, collection="posts", id=ids[0], data={"title": f"Approved {tag}"})
    ids += [make_entry(by=author, data={"title": f"New {tag} {i}"}).id for i in range(n - 1)]
    changeset = services.changeset_create(actor=author, title=f"Race {tag}")
    for item in ids:
        services.changeset_add(actor=author, id=changeset.id, collection="posts", item=item)
    services.changeset_submit(actor=author, id=changeset.id)
    services.changeset_review(actor=reviewer, id=changeset.id, decision="approve")
    return changeset.id, ids


@pytest.fixture
def people(posts: Any) -> tuple[Actor, Actor]:
    return Actor.for_user(make_user(Role.AUTHOR, password=None)), Actor.for_user(make_user(Role.EDITOR, password=None))


def test_two_publishes_of_one_set_have_one_winner(people):
    author, editor = people
    for round_ in range(4):
        changeset_id, ids = approved_set(author, editor, tag=str(round_))
        results = run_in_threads([partial(publishing.changeset_publish, actor=editor, id=changeset_id)] * 2)
        kinds = sorted(kind for kind, _ in results)
        assert kinds == ["error", "ok"], results
        loser = next(value for kind, value in results if kind == "error")
        assert isinstance(loser, EmDashError) and loser.code in ("VALIDATION_ERROR", "CONFLICT"), loser
        assert all(publishes(item) == 2 if i == 0 else publishes(item) == 1 for i, item in enumerate(ids))
        assert ChangeSet.objects.get(id=changeset_id).state == "published"


def test_a_publish_racing_an_edit_of_one_item_has_one_outcome(people):
    author, editor = people
    seen = set()
    for round_ in range(8):
        changeset_id, ids = approved_set(author, editor, tag=str(round_))
        edit = partial(entries.entry_update, actor=author, collection="posts", id=ids[0], data={"title": "Late edit"})
        results = run_in_threads([partial(publishing.changeset_publish, actor=editor, id=changeset_id), edit])
        (publish_kind, publish_value), (edit_kind, edit_value) = results
        assert edit_kind == "ok", edit_value
        state = ChangeSet.objects.get(id=changeset_id).state
        if publish_kind == "ok":  # published first: the approved text is live, the edit waits in a new draft
            seen.add("published")
            assert state == "published" and title(ids[0]) == f"Approved {round_}"
            assert all(status(item) == "published" for item in ids)
        else:  # edited first: CONFLICT naming the item, nothing published
            seen.add("conflict")
            assert isinstance(publish_value, EmDashError) and publish_value.code == "CONFLICT", publish_value
            assert publish_value.details == {"items": [f"posts/{ids[0]}"]}
            assert state == "approved" and title(ids[0]) == f"Live {round_}"
            assert all(status(item) == "draft" for item in ids[1:])
    assert seen, "no round finished"


WORKER = textwrap.dedent(
    """
    import os, sys, time
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from content.changesets import publishing

    applied = publishing.apply_entry
    count = 0

    def slow(*args, **kwargs):
        global count
        applied(*args, **kwargs)
        count += 1
        if count == 2:  # two of three entries applied, inside the transaction: now get killed
            print("mid-run", flush=True)
            time.sleep(60)

    publishing.apply_entry = slow
    publishing.publish_due_changesets()
    """
)


def test_a_worker_killed_mid_publish_leaves_the_set_due_and_it_is_published_once(people, tmp_path):
    author, editor = people
    changeset_id, ids = approved_set(author, editor, tag="k")
    publishing.changeset_publish(
        actor=editor, id=changeset_id, scheduled_at=(timezone.now() + timedelta(hours=1)).isoformat()
    )
    ChangeSet.objects.filter(id=changeset_id).update(scheduled_at=timezone.now() - timedelta(seconds=1))
    script = tmp_path / "worker.py"
    script.write_text(WORKER)
    proc = subprocess.Popen(
        [sys.executable, "-u", str(script)],
        cwd=PROJECT_DIR,
        env={**os.environ, "DATABASE_URL": _database_url(), "PYTHONPATH": str(PROJECT_DIR)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.strip() == "mid-run", line + (proc.stderr.read() if proc.poll() is not None else "")
        proc.kill()  # SIGKILL: no cleanup, the open transaction dies with the process
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == -9
    due = ChangeSet.objects.get(id=changeset_id)
    assert due.state == "approved" and due.scheduled_at is not None, "the claim rolled back with the publish"
    assert title(ids[0]) == "Live k" and all(status(item) == "draft" for item in ids[1:])

    assert publishing.publish_due_changesets() == 1
    assert publishing.publish_due_changesets() == 0
    assert ChangeSet.objects.get(id=changeset_id).state == "published"
    assert title(ids[0]) == "Approved k"
    assert [publishes(item) for item in ids] == [2, 1, 1], "each item published exactly once by the set"
