"""Revisions: one per save and publish, newest first, pruning, and restoring a revision as a new draft."""

from __future__ import annotations

from typing import Any

from django.test import override_settings

from content.entries import selectors, services
from content.models import Revision
from content.schema import services as schema_services
from content.schema import specs as schema
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


def stored_revisions(entry_id: str, collection: str = "posts") -> list[Revision]:
    """Oldest first."""
    return list(Revision.objects.filter(collection=collection, entry_id=entry_id).order_by("created_at", "id"))


def create(collection: str = "posts", by: Any = SYSTEM, **kwargs: Any) -> Any:
    return services.entry_create(actor=by, collection=collection, **kwargs)


def update(entry_id: str, collection: str = "posts", by: Any = SYSTEM, **kwargs: Any) -> Any:
    return services.entry_update(actor=by, collection=collection, id=entry_id, **kwargs)


def history(entry_id: str, collection: str = "posts", **kwargs: Any) -> dict[str, Any]:
    return selectors.revision_list(actor=SYSTEM, collection=collection, id=entry_id, **kwargs)


def restore(revision_id: Any, by: Any = SYSTEM) -> Any:
    return services.revision_restore(actor=by, revision_id=revision_id)


def test_every_save_and_publish_records_one_revision(posts):
    editor = actor(role="editor")
    entry = create(by=editor, data={"title": "v1"})
    assert [(r.kind, r.data["title"]) for r in stored_revisions(entry.id)] == [("draft", "v1")]
    update(entry.id, by=editor, data={"title": "v2"})
    services.entry_publish(actor=editor, collection="posts", id=entry.id)
    update(entry.id, by=editor, data={"title": "v3"})
    update(entry.id, by=editor, data={"excerpt": "e"})
    services.entry_publish(actor=editor, collection="posts", id=entry.id)
    kinds = [(r.kind, r.data["title"], r.data["excerpt"]) for r in stored_revisions(entry.id)]
    assert kinds == [
        ("draft", "v1", None),
        ("draft", "v2", None),
        ("publish", "v2", None),
        ("draft", "v3", None),
        ("draft", "v3", "e"),
        ("publish", "v3", "e"),
    ]
    assert {r.author_id for r in stored_revisions(entry.id)} == {editor.user_id}
    row = db_row(entry.id)
    assert row.live_revision_id == stored_revisions(entry.id)[-1].id


def test_create_published_records_draft_and_publish(posts):
    entry = create(data={"title": "Hello"}, status="published")
    assert [r.kind for r in stored_revisions(entry.id)] == ["draft", "publish"]


def test_failed_or_empty_writes_record_nothing(posts):
    entry = create(data={"title": "Hello"})
    fails("VALIDATION_ERROR", update, entry.id, data={"title": ""})
    fails("CONFLICT", update, entry.id, data={"title": "x"}, rev="stale")
    assert len(stored_revisions(entry.id)) == 1


def test_revision_list_newest_first_with_total(posts):
    editor = actor(role="editor")
    entry = create(by=editor, data={"title": "v0"})
    for i in range(1, 6):
        update(entry.id, by=editor, data={"title": f"v{i}"})
    result = history(entry.id)
    assert result["total"] == 6
    assert [item["data"]["title"] for item in result["items"]] == ["v5", "v4", "v3", "v2", "v1", "v0"]
    created = [item["createdAt"] for item in result["items"]]
    assert created == sorted(created, reverse=True)
    first = result["items"][0]
    assert first["authorId"] == editor.user_id
    assert first["createdAt"].endswith("Z")
    assert first["data"] == {"title": "v5", "excerpt": None, "body": None}
    assert first["id"] == stored_revisions(entry.id)[-1].id
    limited = history(entry.id, limit=2)
    assert limited["total"] == 6
    assert [item["data"]["title"] for item in limited["items"]] == ["v5", "v4"]
    assert history(entry.row.slug)["total"] == 6


def test_revision_list_limit(posts):
    entry = create(data={"title": "Hello"})
    for limit in [0, 51, 100, "5", True, 2.0, None]:
        err = fails("VALIDATION_ERROR", history, entry.id, limit=limit)
        assert "limit" in err.details["fields"]


def test_revision_list_accepts_limit_50(posts):
    entry = create(data={"title": "Hello"})
    assert history(entry.id, limit=50)["total"] == 1
    assert history(entry.id, limit=1)["total"] == 1


def test_revision_list_unknown_or_trashed(posts):
    entry = create(data={"title": "Hello"})
    fails("NOT_FOUND", history, "missing")
    services.entry_trash(actor=SYSTEM, collection="posts", id=entry.id)
    fails("NOT_FOUND", history, entry.id)


def test_revision_list_is_per_item(posts):
    a = create(data={"title": "a"})
    b = create(data={"title": "b"})
    update(b.id, data={"title": "b2"})
    assert history(a.id)["total"] == 1
    assert [i["data"]["title"] for i in history(b.id)["items"]] == ["b2", "b"]


def test_revision_data_only_shows_current_fields(cms):
    make_collection("posts")
    entry = create(data={"title": "Hello", "excerpt": "x"})
    schema_services.field_delete(actor=SYSTEM, collection="posts", field_slug="excerpt")
    schema_services.field_create(actor=SYSTEM, collection="posts", slug="subtitle", label="Subtitle", type="string")
    item = history(entry.id)["items"][0]
    assert item["data"] == {"title": "Hello", "body": None, "subtitle": None}


def test_no_revisions_without_support(cms):
    make_collection("notes", supports=["drafts"])
    entry = create("notes", data={"title": "a"})
    update(entry.id, "notes", data={"title": "b"})
    services.entry_publish(actor=SYSTEM, collection="notes", id=entry.id)
    assert Revision.objects.filter(collection="notes").count() == 0
    assert history(entry.id, "notes") == {"items": [], "total": 0}


# -------------------------------------------------------------------------------------------- pruning


def test_only_the_newest_revisions_are_kept(posts):
    with override_settings(EMDASH={"REVISIONS_KEEP": 5}):
        entry = create(data={"title": "v0"})
        for i in range(1, 12):
            update(entry.id, data={"title": f"v{i}"})
        kept = stored_revisions(entry.id)
        assert [r.data["title"] for r in kept] == ["v7", "v8", "v9", "v10", "v11"]
        assert history(entry.id)["total"] == 5


def test_pruning_never_drops_the_live_or_draft_revision(posts):
    with override_settings(EMDASH={"REVISIONS_KEEP": 5}):
        entry = create(data={"title": "live"}, status="published")
        live_id = db_row(entry.id).live_revision_id
        for i in range(12):
            update(entry.id, data={"title": f"d{i}"})
        row = db_row(entry.id)
        kept = stored_revisions(entry.id)
        kept_ids = {r.id for r in kept}
        assert row.live_revision_id == live_id
        assert live_id in kept_ids
        assert row.draft_revision_id in kept_ids
        assert len(kept) == 6  # the newest five plus the live one
        assert [r.data["title"] for r in kept] == ["live", "d7", "d8", "d9", "d10", "d11"]
        # Reads still work: live values from the row, the draft from its revision.
        body = selectors.entry_get(actor=SYSTEM, collection="posts", id=entry.id).to_dict()
        assert body["liveData"]["title"] == "live"
        assert body["data"]["title"] == "d11"
        # Publishing moves the protection to the new live revision; the old one may go.
        services.entry_publish(actor=SYSTEM, collection="posts", id=entry.id)
        row = db_row(entry.id)
        kept_ids = {r.id for r in stored_revisions(entry.id)}
        assert row.live_revision_id in kept_ids
        assert len(kept_ids) == 5
        assert live_id not in kept_ids


def test_default_keeps_fifty(posts):
    entry = create(data={"title": "v0"})
    for i in range(1, 55):
        update(entry.id, data={"title": f"v{i}"})
    kept = stored_revisions(entry.id)
    assert len(kept) == 50
    assert kept[0].data["title"] == "v5"
    assert kept[-1].data["title"] == "v54"
    result = history(entry.id, limit=50)
    assert result["total"] == 50
    assert len(result["items"]) == 50


def test_pruning_is_per_item(posts):
    with override_settings(EMDASH={"REVISIONS_KEEP": 3}):
        a = create(data={"title": "a"})
        b = create(data={"title": "b"})
        for i in range(6):
            update(a.id, data={"title": f"a{i}"})
        assert len(stored_revisions(a.id)) == 3
        assert len(stored_revisions(b.id)) == 1


# -------------------------------------------------------------------------------------------- restore


def test_restore_on_a_published_item_creates_a_draft(posts):
    entry = create(data={"title": "one", "excerpt": "first"}, status="published")
    old = stored_revisions(entry.id)[0]
    update(entry.id, data={"title": "two", "excerpt": "second"})
    services.entry_publish(actor=SYSTEM, collection="posts", id=entry.id)
    before = db_row(entry.id)
    count = len(stored_revisions(entry.id))
    editor = actor(role="editor")
    restored = restore(old.id, by=editor)
    row = db_row(entry.id)
    # Not published: the row still holds the live values.
    assert (row.f_title, row.f_excerpt) == ("two", "second")
    assert row.status == "published"
    assert row.published_at == before.published_at
    assert row.live_revision_id == before.live_revision_id
    assert row.draft_revision_id not in (None, old.id)
    draft = Revision.objects.get(id=row.draft_revision_id)
    # The credits it kept (none) come along: a revision keeps the item's credits (tests/bylines/test_revisions.py).
    assert draft.data == {"title": "one", "excerpt": "first", "body": None, "_bylines": []}
    assert draft.author_id == editor.user_id
    assert len(stored_revisions(entry.id)) == count + 1
    body = restored.to_dict()
    assert body["hasDraft"] is True
    assert body["data"] == {"title": "one", "excerpt": "first", "body": None}
    assert body["liveData"] == {"title": "two", "excerpt": "second", "body": None}
    assert restored.rev == selectors.entry_get(actor=SYSTEM, collection="posts", id=entry.id).rev
    # Publishing it makes it live.
    services.entry_publish(actor=SYSTEM, collection="posts", id=entry.id)
    assert db_row(entry.id).f_title == "one"


def test_restore_on_a_draft_item_rewrites_the_draft(posts):
    entry = create(data={"title": "one"})
    old = stored_revisions(entry.id)[0]
    update(entry.id, data={"title": "two", "excerpt": "added"})
    restore(old.id)
    row = db_row(entry.id)
    assert (row.f_title, row.f_excerpt) == ("one", None)
    assert row.status == "draft" and row.published_at is None
    assert len(stored_revisions(entry.id)) == 3


def test_restore_lowercase_id(posts):
    entry = create(data={"title": "one"})
    old = stored_revisions(entry.id)[0]
    update(entry.id, data={"title": "two"})
    restore(old.id.lower())
    assert db_row(entry.id).f_title == "one"


def test_restore_unknown_revision(posts):
    entry = create(data={"title": "one"})
    for revision_id in ["01ARZ3NDEKTSV4RRFFQ69G5FAV", "nope", "", None, 5, ["x"], "x\x00"]:
        fails("NOT_FOUND", restore, revision_id)
    assert db_row(entry.id).version == 1


def test_restore_revision_of_trashed_or_deleted_item(posts):
    entry = create(data={"title": "one"})
    old = stored_revisions(entry.id)[0]
    services.entry_trash(actor=SYSTEM, collection="posts", id=entry.id)
    fails("NOT_FOUND", restore, old.id)
    assert db_row(entry.id).f_title == "one"
    services.entry_delete_permanently(actor=SYSTEM, collection="posts", id=entry.id)
    fails("NOT_FOUND", restore, old.id)


def test_restoring_a_revision_drops_its_link_to_a_since_deleted_item(cms):
    make_collection("authors", fields=[{"slug": "name", "label": "Name", "type": "string"}])
    make_collection(
        "books",
        fields=[
            {"slug": "title", "label": "Title", "type": "string"},
            {"slug": "author", "label": "Author", "type": "reference", "options": {"collection": "authors"}},
        ],
    )
    ada = create("authors", data={"name": "Ada"})
    book = create("books", data={"title": "B", "author": ada.id})
    old = stored_revisions(book.id, "books")[0]
    update(book.id, "books", data={"author": None})
    services.entry_trash(actor=SYSTEM, collection="authors", id=ada.id)
    restored = restore(old.id)  # the dead link is dropped, not refused (SPEC 10: deleting a target leaves others)
    assert restored.to_dict()["data"]["title"] == "B" and restored.to_dict()["data"]["author"] is None
    assert db_row(book.id, "books").f_author is None


def test_restore_keeps_fields_added_after_the_revision(cms):
    make_collection("posts")
    entry = create(data={"title": "one"})
    old = stored_revisions(entry.id)[0]
    schema_services.field_create(actor=SYSTEM, collection="posts", slug="subtitle", label="Subtitle", type="string")
    update(entry.id, data={"title": "two", "subtitle": "kept"})
    restore(old.id)
    row = db_row(entry.id)
    assert (row.f_title, row.f_subtitle) == ("one", "kept")
