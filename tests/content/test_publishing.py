"""Publishing, unpublishing, drafts of published items, discard, compare, scheduling and the due-item run."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from django.utils import timezone as dj_timezone

from content.entries import selectors, services
from content.models import Revision
from content.schema import specs as schema
from emdash.dates import iso
from emdash.errors import EmDashError
from tests.factories import SYSTEM, actor, make_collection


def fails(code: str, fn: Any, *args: Any, **kwargs: Any) -> EmDashError:
    """Call ``fn`` and check it raises the EmDash error ``code``; other exceptions propagate."""
    try:
        fn(*args, **kwargs)
    except EmDashError as exc:
        assert exc.code == code, (args, kwargs, exc.as_dict())
        return exc
    raise AssertionError(f"expected {code} from {fn.__name__}{args} {kwargs}")


def model(collection: str = "posts") -> Any:
    return schema.get_collection(collection).model


def db_row(entry_id: str, collection: str = "posts") -> Any:
    return model(collection).objects.get(pk=entry_id)


def snapshot(entry_id: str, collection: str = "posts") -> dict[str, Any]:
    return model(collection).objects.filter(pk=entry_id).values().get()


def revisions(entry_id: str, collection: str = "posts", kind: str | None = None) -> list[Revision]:
    qs = Revision.objects.filter(collection=collection, entry_id=entry_id)
    if kind:
        qs = qs.filter(kind=kind)
    return list(qs.order_by("created_at", "id"))


def create(collection: str = "posts", **kwargs: Any) -> Any:
    return services.entry_create(actor=SYSTEM, collection=collection, **kwargs)


def update(entry_id: str, collection: str = "posts", **kwargs: Any) -> Any:
    return services.entry_update(actor=SYSTEM, collection=collection, id=entry_id, **kwargs)


def publish(entry_id: str, collection: str = "posts") -> Any:
    return services.entry_publish(actor=SYSTEM, collection=collection, id=entry_id)


def unpublish(entry_id: str, collection: str = "posts") -> Any:
    return services.entry_unpublish(actor=SYSTEM, collection=collection, id=entry_id)


def discard(entry_id: str, collection: str = "posts") -> Any:
    return services.entry_discard_draft(actor=SYSTEM, collection=collection, id=entry_id)


def schedule(entry_id: str, when: Any, collection: str = "posts") -> Any:
    return services.entry_schedule(actor=SYSTEM, collection=collection, id=entry_id, scheduled_at=when)


def unschedule(entry_id: str, collection: str = "posts") -> Any:
    return services.entry_unschedule(actor=SYSTEM, collection=collection, id=entry_id)


def get(entry_id: str, collection: str = "posts") -> dict[str, Any]:
    return selectors.entry_get(actor=SYSTEM, collection=collection, id=entry_id).to_dict()


def compare(entry_id: str, collection: str = "posts") -> dict[str, Any]:
    return selectors.entry_compare(actor=SYSTEM, collection=collection, id=entry_id)


def future(**delta: float) -> datetime:
    return dj_timezone.now() + timedelta(**delta)


# --------------------------------------------------------------------------------------------- publish


def test_publish_a_draft(posts):
    entry = create(data={"title": "Hello", "excerpt": "Ex"})
    editor = actor(role="editor")
    published = services.entry_publish(actor=editor, collection="posts", id=entry.id)
    row = db_row(entry.id)
    assert row.status == "published"
    assert row.published_at is not None and row.scheduled_at is None
    assert row.draft_revision_id is None
    assert row.live_revision_id is not None
    assert (row.f_title, row.f_excerpt) == ("Hello", "Ex")
    live_rev = Revision.objects.get(id=row.live_revision_id)
    assert live_rev.kind == "publish"
    assert live_rev.author_id == editor.user_id
    assert live_rev.data["title"] == "Hello"
    body = published.to_dict()
    assert body["status"] == "published"
    assert body["publishedAt"] == iso(row.published_at)
    assert body["hasDraft"] is False
    assert "liveData" not in body


def test_publish_by_slug_and_unknown(posts):
    entry = create(data={"title": "Hello"})
    publish("hello")
    assert db_row(entry.id).status == "published"
    fails("NOT_FOUND", publish, "missing")
    fails("NOT_FOUND", publish, "01ARZ3NDEKTSV4RRFFQ69G5FAV")


def test_edits_after_publishing_go_to_a_draft(posts):
    entry = create(data={"title": "Live title", "excerpt": "Live excerpt"}, status="published")
    live_before = snapshot(entry.id)
    edited = update(entry.id, data={"title": "Draft title"})
    row = db_row(entry.id)
    # The row still holds the live values.
    assert (row.f_title, row.f_excerpt) == ("Live title", "Live excerpt")
    assert row.status == "published"
    assert row.published_at == live_before["published_at"]
    assert row.live_revision_id == live_before["live_revision_id"]
    assert row.draft_revision_id is not None
    draft_rev = Revision.objects.get(id=row.draft_revision_id)
    assert draft_rev.kind == "draft"
    assert draft_rev.data == {"title": "Draft title", "excerpt": "Live excerpt", "body": None, "_bylines": []}
    for body in (edited.to_dict(), get(entry.id)):
        assert body["hasDraft"] is True
        assert body["data"] == {"title": "Draft title", "excerpt": "Live excerpt", "body": None}
        assert body["liveData"] == {"title": "Live title", "excerpt": "Live excerpt", "body": None}
        assert body["status"] == "published"
    # A second edit builds on the draft, not on the live values.
    update(entry.id, data={"excerpt": "Draft excerpt"})
    body = get(entry.id)
    assert body["data"] == {"title": "Draft title", "excerpt": "Draft excerpt", "body": None}
    assert body["liveData"]["title"] == "Live title"
    assert (db_row(entry.id).f_title, db_row(entry.id).f_excerpt) == ("Live title", "Live excerpt")


def test_publishing_a_draft_copies_it_into_the_row_and_keeps_published_at(posts):
    entry = create(data={"title": "One"}, status="published")
    first_published_at = db_row(entry.id).published_at
    update(entry.id, data={"title": "Two", "excerpt": "New"})
    published = publish(entry.id)
    row = db_row(entry.id)
    assert (row.f_title, row.f_excerpt) == ("Two", "New")
    assert row.draft_revision_id is None
    assert row.published_at == first_published_at
    assert row.status == "published"
    assert Revision.objects.get(id=row.live_revision_id).data["title"] == "Two"
    body = published.to_dict()
    assert body["hasDraft"] is False and "liveData" not in body
    assert body["data"]["title"] == "Two"
    assert body["publishedAt"] == iso(first_published_at)
    assert len(revisions(entry.id, kind="publish")) == 2


def test_publish_without_draft_keeps_values(posts):
    entry = create(data={"title": "One"}, status="published")
    before = snapshot(entry.id)
    publish(entry.id)
    after = snapshot(entry.id)
    assert after["f_title"] == "One"
    assert after["published_at"] == before["published_at"]
    assert after["version"] == before["version"] + 1


def test_discard_draft_returns_to_live(posts):
    entry = create(data={"title": "Live"}, status="published")
    update(entry.id, data={"title": "Draft"})
    draft_id = db_row(entry.id).draft_revision_id
    result = discard(entry.id)
    row = db_row(entry.id)
    assert row.draft_revision_id is None
    assert row.f_title == "Live"
    assert row.status == "published"
    body = result.to_dict()
    assert body["hasDraft"] is False
    assert body["data"]["title"] == "Live"
    assert "liveData" not in body
    assert get(entry.id)["data"]["title"] == "Live"
    # The discarded draft stays in the history.
    assert Revision.objects.filter(id=draft_id).exists()
    # Discarding again is harmless.
    version = row.version
    discard(entry.id)
    assert db_row(entry.id).version == version
    # Editing afterwards starts from the live values.
    update(entry.id, data={"excerpt": "x"})
    assert get(entry.id)["data"] == {"title": "Live", "excerpt": "x", "body": None}


def test_discard_draft_needs_a_published_version(posts):
    entry = create(data={"title": "Never published"})
    update(entry.id, data={"title": "Still a draft"})
    before = snapshot(entry.id)
    fails("VALIDATION_ERROR", discard, entry.id)
    assert snapshot(entry.id) == before
    fails("NOT_FOUND", discard, "missing")


def test_discard_draft_without_revisions_support(cms):
    make_collection("notes", supports=["drafts"])
    entry = create("notes", data={"title": "A"}, status="published")
    update(entry.id, "notes", data={"title": "B"})
    fails("VALIDATION_ERROR", discard, entry.id, "notes")
    assert db_row(entry.id, "notes").f_title == "B"


def test_discard_after_unpublish_still_restores_the_last_live_values(posts):
    entry = create(data={"title": "Live"}, status="published")
    unpublish(entry.id)
    update(entry.id, data={"title": "Edited"})
    discard(entry.id)
    assert get(entry.id)["data"]["title"] == "Live"
    assert db_row(entry.id).status == "draft"


# ------------------------------------------------------------------------------------------- unpublish


def test_unpublish(posts):
    entry = create(data={"title": "Hello", "excerpt": "x"}, status="published")
    result = unpublish(entry.id)
    row = db_row(entry.id)
    assert row.status == "draft"
    assert row.published_at is None
    assert (row.f_title, row.f_excerpt) == ("Hello", "x")
    body = result.to_dict()
    assert body["status"] == "draft" and body["publishedAt"] is None
    assert body["data"]["title"] == "Hello"
    # Published again, it gets a fresh publication date.
    publish(entry.id)
    assert db_row(entry.id).published_at is not None


def test_unpublish_keeps_a_pending_draft(posts):
    entry = create(data={"title": "Live"}, status="published")
    update(entry.id, data={"title": "Draft"})
    unpublish(entry.id)
    assert get(entry.id)["data"]["title"] == "Draft"
    assert db_row(entry.id).status == "draft"
    publish(entry.id)
    assert db_row(entry.id).f_title == "Draft"


def test_unpublish_a_draft_is_a_no_op(posts):
    entry = create(data={"title": "Hello"})
    before = snapshot(entry.id)
    unpublish(entry.id)
    assert snapshot(entry.id) == before


# ----------------------------------------------------------------------------------- no revisions support


def test_collection_without_revisions_writes_rows_directly(cms):
    make_collection("notes", supports=["drafts"])
    entry = create("notes", data={"title": "One"})
    publish(entry.id, "notes")
    update(entry.id, "notes", data={"title": "Two"})
    row = db_row(entry.id, "notes")
    assert row.f_title == "Two"
    assert row.status == "published"
    assert row.draft_revision_id is None and row.live_revision_id is None
    body = get(entry.id, "notes")
    assert body["hasDraft"] is False
    assert body["data"]["title"] == "Two"
    assert "liveData" not in body
    assert Revision.objects.filter(collection="notes").count() == 0
    cmp = compare(entry.id, "notes")
    assert cmp["hasChanges"] is False
    assert cmp["live"] == cmp["draft"] == {"title": "Two", "excerpt": None, "body": None}


# --------------------------------------------------------------------------------------------- compare


def test_compare(posts):
    entry = create(data={"title": "One", "excerpt": "E"})
    never = compare(entry.id)
    assert never["live"] is None
    assert never["draft"] == {"title": "One", "excerpt": "E", "body": None}
    publish(entry.id)
    same = compare(entry.id)
    assert same == {
        "hasChanges": False,
        "live": {"title": "One", "excerpt": "E", "body": None},
        "draft": {"title": "One", "excerpt": "E", "body": None},
        "liveSlug": "one",
        "draftSlug": "one",
        "liveSeo": {},
        "draftSeo": {},
    }
    update(entry.id, data={"title": "Two"})
    changed = compare(entry.id)
    assert changed == {
        "hasChanges": True,
        "live": {"title": "One", "excerpt": "E", "body": None},
        "draft": {"title": "Two", "excerpt": "E", "body": None},
        "liveSlug": "one",
        "draftSlug": "one",
        "liveSeo": {},
        "draftSeo": {},
    }
    discard(entry.id)
    assert compare(entry.id)["hasChanges"] is False
    update(entry.id, data={"title": "Three"})
    publish(entry.id)
    assert compare(entry.id) == {
        "hasChanges": False,
        "live": {"title": "Three", "excerpt": "E", "body": None},
        "draft": {"title": "Three", "excerpt": "E", "body": None},
        "liveSlug": "one",
        "draftSlug": "one",
        "liveSeo": {},
        "draftSeo": {},
    }
    fails("NOT_FOUND", compare, "missing")


def test_compare_draft_identical_to_live_has_no_changes(posts):
    entry = create(data={"title": "One"}, status="published")
    update(entry.id, data={"title": "Two"})
    update(entry.id, data={"title": "One"})
    assert compare(entry.id)["hasChanges"] is False


# -------------------------------------------------------------------------------------------- schedule


def test_schedule_a_draft(posts):
    entry = create(data={"title": "Later"})
    when = future(days=2).replace(microsecond=0)
    offset = timezone(timedelta(hours=5, minutes=30))
    result = schedule(entry.id, when.astimezone(offset).isoformat())
    row = db_row(entry.id)
    assert row.status == "scheduled"
    assert row.scheduled_at == when
    assert row.scheduled_at.utcoffset() == timedelta(0)
    assert row.published_at is None
    body = result.to_dict()
    assert body["status"] == "scheduled"
    assert body["scheduledAt"] == iso(when)
    assert body["scheduledAt"].endswith("Z")
    # Nothing happens before the time.
    assert services.publish_due(now=when - timedelta(seconds=1)) == 0
    assert db_row(entry.id).status == "scheduled"
    # At the time, it is published exactly once.
    assert services.publish_due(now=when) == 1
    row = db_row(entry.id)
    assert row.status == "published"
    assert row.published_at == when
    assert row.scheduled_at is None
    assert row.f_title == "Later"
    assert services.publish_due(now=when + timedelta(days=1)) == 0
    assert len(revisions(entry.id, kind="publish")) == 1


def test_schedule_accepts_any_offset(posts):
    formats = [
        lambda d: d.isoformat(),
        lambda d: d.strftime("%Y-%m-%dT%H:%M:%SZ"),
        lambda d: d.astimezone(timezone(timedelta(hours=-8))).isoformat(),
        lambda d: d.astimezone(timezone(timedelta(hours=13, minutes=45))).isoformat(),
        lambda d: d.strftime("%Y-%m-%dT%H:%M:%S"),  # no offset: UTC
    ]
    for i, fmt in enumerate(formats):
        entry = create(data={"title": f"Later {i}"})
        when = future(hours=3 + i).replace(microsecond=0)
        schedule(entry.id, fmt(when))
        assert db_row(entry.id).scheduled_at == when, fmt(when)


def test_schedule_rejects_past_and_garbage(posts):
    entry = create(data={"title": "Hello"})
    before = snapshot(entry.id)
    bad = [
        "2001-01-01T00:00:00Z",
        (dj_timezone.now() - timedelta(minutes=1)).isoformat(),
        (dj_timezone.now() - timedelta(seconds=1)).astimezone(timezone(timedelta(hours=9))).isoformat(),
        dj_timezone.now().strftime("%Y-%m-%d"),  # today, midnight UTC: in the past
        "tomorrow",
        "2099-13-01T00:00:00Z",
        "",
        "   ",
        None,
        1893456000,
        ["2099-01-01T00:00:00Z"],
    ]
    for when in bad:
        err = fails("VALIDATION_ERROR", schedule, entry.id, when)
        assert "scheduledAt" in err.details["fields"]
    assert snapshot(entry.id) == before


@pytest.mark.parametrize("supports", [["drafts", "revisions"], []])
def test_schedule_works_without_scheduling_support(cms, supports):
    """Issue 13 item 2: the 'scheduling' capability only shows the admin's controls."""
    make_collection("pages", supports=supports)
    entry = create("pages", data={"title": "Hello"})
    scheduled = schedule(entry.id, future(days=1).isoformat(), "pages")
    assert scheduled.to_dict()["status"] == "scheduled"


@pytest.mark.parametrize("supports", [["drafts", "revisions"], ["revisions"], []])
def test_a_new_item_is_a_draft_unless_published_is_asked(cms, supports):
    """Issue 13 item 1: whatever the collection supports."""
    make_collection("pages", supports=supports)
    assert create("pages", data={"title": "Draft"}).to_dict()["status"] == "draft"
    assert create("pages", data={"title": "Live"}, status="published").to_dict()["status"] == "published"


def test_schedule_unknown_or_trashed_is_not_found(posts):
    entry = create(data={"title": "Hello"})
    fails("NOT_FOUND", schedule, "missing", future(days=1).isoformat())
    services.entry_trash(actor=SYSTEM, collection="posts", id=entry.id)
    fails("NOT_FOUND", schedule, entry.id, future(days=1).isoformat())
    assert db_row(entry.id).scheduled_at is None


def test_schedule_a_published_item_publishes_its_pending_draft_later(posts):
    entry = create(data={"title": "Live"}, status="published")
    first_published_at = db_row(entry.id).published_at
    update(entry.id, data={"title": "Pending"})
    when = future(days=1)
    result = schedule(entry.id, when.isoformat())
    row = db_row(entry.id)
    assert row.status == "published"
    assert row.scheduled_at == when
    assert row.f_title == "Live"  # still serving the live version
    body = result.to_dict()
    assert body["status"] == "published"
    assert body["data"]["title"] == "Pending" and body["liveData"]["title"] == "Live"
    # Readers without draft rights still see the live version.
    public = selectors.entry_get(actor=actor(role="subscriber"), collection="posts", id=entry.id).to_dict()
    assert public["data"]["title"] == "Live"
    assert services.publish_due(now=when - timedelta(minutes=1)) == 0
    assert db_row(entry.id).f_title == "Live"
    assert services.publish_due(now=when + timedelta(minutes=1)) == 1
    row = db_row(entry.id)
    assert row.f_title == "Pending"
    assert row.status == "published"
    assert row.draft_revision_id is None and row.scheduled_at is None
    assert row.published_at == first_published_at


def test_reschedule_replaces_the_time(posts):
    entry = create(data={"title": "Hello"})
    first, second = future(days=1), future(days=3)
    schedule(entry.id, first.isoformat())
    schedule(entry.id, second.isoformat())
    assert db_row(entry.id).scheduled_at == second
    assert services.publish_due(now=first + timedelta(hours=1)) == 0
    assert db_row(entry.id).status == "scheduled"
    assert services.publish_due(now=second) == 1


def test_unschedule_a_scheduled_draft(posts):
    entry = create(data={"title": "Hello"})
    when = future(days=1)
    schedule(entry.id, when.isoformat())
    result = unschedule(entry.id)
    row = db_row(entry.id)
    assert row.status == "draft" and row.scheduled_at is None
    assert result.to_dict()["status"] == "draft"
    assert result.to_dict()["scheduledAt"] is None
    version = row.version
    # Idempotent.
    again = unschedule(entry.id)
    assert again.to_dict()["status"] == "draft"
    assert db_row(entry.id).version == version
    assert services.publish_due(now=when + timedelta(days=1)) == 0
    assert db_row(entry.id).status == "draft"


def test_unschedule_a_published_item_keeps_it_published(posts):
    entry = create(data={"title": "Live"}, status="published")
    update(entry.id, data={"title": "Pending"})
    when = future(days=1)
    schedule(entry.id, when.isoformat())
    unschedule(entry.id)
    row = db_row(entry.id)
    assert row.status == "published" and row.scheduled_at is None
    assert row.draft_revision_id is not None
    assert services.publish_due(now=when + timedelta(days=1)) == 0
    assert db_row(entry.id).f_title == "Live"
    assert get(entry.id)["data"]["title"] == "Pending"


def test_unschedule_without_schedule_is_a_no_op(posts):
    draft = create(data={"title": "Draft"})
    live = create(data={"title": "Live"}, status="published")
    before = [snapshot(draft.id), snapshot(live.id)]
    unschedule(draft.id)
    unschedule(live.id)
    assert [snapshot(draft.id), snapshot(live.id)] == before
    fails("NOT_FOUND", unschedule, "missing")


def test_publish_now_clears_a_schedule(posts):
    entry = create(data={"title": "Hello"})
    when = future(days=1)
    schedule(entry.id, when.isoformat())
    publish(entry.id)
    row = db_row(entry.id)
    assert row.status == "published" and row.scheduled_at is None
    published_at = row.published_at
    assert published_at < when
    assert services.publish_due(now=when + timedelta(days=1)) == 0
    assert db_row(entry.id).published_at == published_at


def test_update_status_published_on_a_scheduled_item(posts):
    entry = create(data={"title": "Hello"})
    schedule(entry.id, future(days=1).isoformat())
    update(entry.id, status="published")
    row = db_row(entry.id)
    assert row.status == "published" and row.scheduled_at is None


def test_unpublish_or_update_to_draft_cancels_a_schedule(posts):
    a = create(data={"title": "A"})
    b = create(data={"title": "B"})
    when = future(days=1)
    schedule(a.id, when.isoformat())
    schedule(b.id, when.isoformat())
    unpublish(a.id)
    update(b.id, status="draft")
    for entry in (a, b):
        row = db_row(entry.id)
        assert row.status == "draft" and row.scheduled_at is None
    assert services.publish_due(now=when + timedelta(days=1)) == 0


def test_publish_due_runs_due_items_across_collections_in_order(cms):
    make_collection("posts")
    make_collection("pages", supports=["drafts", "scheduling"])
    base = future(days=1)
    due = [
        ("posts", create("posts", data={"title": "P1"})),
        ("pages", create("pages", data={"title": "G1"})),
        ("posts", create("posts", data={"title": "P2"})),
    ]
    late = create("posts", data={"title": "Late"})
    for i, (collection, entry) in enumerate(due):
        schedule(entry.id, (base + timedelta(minutes=i)).isoformat(), collection)
    schedule(late.id, (base + timedelta(days=5)).isoformat())
    untouched = create("posts", data={"title": "Draft"})
    assert services.publish_due(now=base + timedelta(hours=1)) == 3
    for i, (collection, entry) in enumerate(due):
        row = db_row(entry.id, collection)
        assert row.status == "published"
        assert row.published_at == base + timedelta(minutes=i)
    assert db_row(late.id).status == "scheduled"
    assert db_row(untouched.id).status == "draft"
    assert services.publish_due(now=base + timedelta(hours=1)) == 0


def test_publish_due_skips_trashed_items(posts):
    entry = create(data={"title": "Hello"})
    when = future(days=1)
    schedule(entry.id, when.isoformat())
    model().objects.filter(pk=entry.id).update(deleted_at=dj_timezone.now())  # trashed behind the service's back
    assert services.publish_due(now=when + timedelta(days=1)) == 0
    assert db_row(entry.id).status == "scheduled"


def test_publish_due_default_now(posts):
    entry = create(data={"title": "Hello"})
    schedule(entry.id, future(days=1).isoformat())
    assert services.publish_due() == 0
    # Move the schedule into the past directly (the service refuses past times).
    model().objects.filter(pk=entry.id).update(scheduled_at=datetime(2020, 1, 1, tzinfo=UTC))
    assert services.publish_due() == 1
    row = db_row(entry.id)
    assert row.status == "published"
    assert row.published_at == datetime(2020, 1, 1, tzinfo=UTC)


def test_publishing_a_draft_whose_unique_value_was_taken_meanwhile(cms):
    make_collection(
        "products",
        fields=[
            {"slug": "title", "label": "Title", "type": "string"},
            {"slug": "sku", "label": "SKU", "type": "string", "unique": True},
        ],
    )
    a = create("products", data={"title": "A", "sku": "X"}, status="published")
    update(a.id, "products", data={"sku": "Z"})  # pending draft; the row still holds X
    b = create("products", data={"title": "B", "sku": "Z"})  # Z is free in the rows
    before = snapshot(a.id, "products")
    revs = Revision.objects.filter(collection="products").count()
    err = fails("VALIDATION_ERROR", publish, a.id, "products")
    assert "data.sku" in err.details["fields"]
    assert snapshot(a.id, "products") == before
    assert Revision.objects.filter(collection="products").count() == revs
    assert db_row(b.id, "products").f_sku == "Z"
    # Scheduled, the worker skips it and goes on with other due items.
    when = future(days=1)
    schedule(a.id, when.isoformat(), "products")
    c = create("products", data={"title": "C"})
    schedule(c.id, (when + timedelta(seconds=1)).isoformat(), "products")
    assert services.publish_due(now=when + timedelta(minutes=1)) == 1
    assert db_row(c.id, "products").status == "published"
    assert db_row(a.id, "products").f_sku == "X"
    # Once the value is free again, publishing works.
    update(b.id, "products", data={"sku": "B"})
    publish(a.id, "products")
    assert db_row(a.id, "products").f_sku == "Z"
