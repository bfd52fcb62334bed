"""Content services: create, get, update, trash, restore, permanent delete and duplicate."""

from __future__ import annotations

import re
from typing import Any

import pytest
from ulid import ULID

from content.entries import selectors, services
from content.field_types import CONTENT_SLUG_RE
from content.models import Revision
from content.schema import specs as schema
from emdash.errors import EmDashError
from tests.factories import SYSTEM, actor, make_collection

ULID_RE = re.compile(r"^[0-9A-HJKMNP-TV-Z]{26}$")


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


def row_count(collection: str = "posts") -> int:
    return model(collection).objects.count()


def revision_count(collection: str = "posts", entry_id: str | None = None) -> int:
    qs = Revision.objects.filter(collection=collection)
    if entry_id is not None:
        qs = qs.filter(entry_id=entry_id)
    return qs.count()


def create(collection: str = "posts", **kwargs: Any) -> Any:
    kwargs.setdefault("actor", SYSTEM)
    return services.entry_create(collection=collection, **kwargs)


def get(entry_id: str, collection: str = "posts", **kwargs: Any) -> Any:
    return selectors.entry_get(actor=SYSTEM, collection=collection, id=entry_id, **kwargs)


# --------------------------------------------------------------------------------------------- create


TITLE_SLUGS = [
    ("Héllo Wörld", "hello-world"),
    ("  C++ & Rust: 2024!! ", "c-rust-2024"),
    ("Crème brûlée à la carte", "creme-brulee-a-la-carte"),
    ("Ça va? Ñandú", "ca-va-nandu"),
    ("already-a-slug", "already-a-slug"),
    ("under_score and---dashes", "under-score-and-dashes"),
    ("ALL CAPS", "all-caps"),
    ("Ελληνικά and English", "and-english"),
]


def test_slug_generated_from_title(posts):
    for title, expected in TITLE_SLUGS:
        entry = create(data={"title": title})
        assert entry.row.slug == expected, title
        assert db_row(entry.id).slug == expected, title
    assert create(data={"title": "Hello World"}).row.slug == "hello-world-2"


def test_generated_slug_is_capped_at_80_characters(posts):
    title = " ".join(["word"] * 40)  # 199 characters
    entry = create(data={"title": title})
    slug = db_row(entry.id).slug
    assert len(slug) <= 80
    assert slug.startswith("word-word-")
    assert not slug.endswith("-")
    assert CONTENT_SLUG_RE.match(slug)


def test_generated_slug_collisions_get_numeric_suffixes(posts):
    slugs = [create(data={"title": "Hello"}).row.slug for _ in range(4)]
    assert slugs == ["hello", "hello-2", "hello-3", "hello-4"]
    assert sorted(model().objects.values_list("slug", flat=True)) == sorted(slugs)


def test_generated_slug_collisions_with_long_titles_stay_unique_and_capped(posts):
    title = "A very long headline " * 10
    slugs = [create(data={"title": title}).row.slug for _ in range(4)]
    assert len(set(slugs)) == 4
    assert all(len(s) <= 80 and CONTENT_SLUG_RE.match(s) for s in slugs)
    assert slugs[1].endswith("-2")
    assert slugs[2].endswith("-3")
    assert slugs[3].endswith("-4")
    assert row_count() == 4


def test_generated_slug_skips_slugs_held_by_trashed_items(posts):
    first = create(data={"title": "Hello"})
    services.entry_trash(actor=SYSTEM, collection="posts", id=first.id)
    second = create(data={"title": "Hello"})
    assert second.row.slug == "hello-2"


def test_generated_slug_does_not_collide_with_a_longer_slug_sharing_the_prefix(posts):
    create(data={"title": "Hello World"})
    assert create(data={"title": "Hello"}).row.slug == "hello"


def test_slug_generated_from_name_when_there_is_no_title_field(cms):
    make_collection("people", fields=[{"slug": "name", "label": "Name", "type": "string"}])
    entry = create("people", data={"name": "Zoë Ångström"})
    assert entry.row.slug == "zoe-angstrom"
    assert create("people", data={"name": "Zoë Ångström"}).row.slug == "zoe-angstrom-2"


def test_title_field_wins_over_name(cms):
    make_collection(
        "things",
        fields=[
            {"slug": "name", "label": "Name", "type": "string"},
            {"slug": "title", "label": "Title", "type": "string"},
        ],
    )
    assert create("things", data={"name": "By Name", "title": "By Title"}).row.slug == "by-title"


def test_unsluggable_titles_still_get_valid_unique_slugs(posts):
    made = [create(data={"title": title}).row.slug for title in ["!!!", "---", "日本語", "   "] * 2]
    assert all(slug and CONTENT_SLUG_RE.match(slug) for slug in made), made
    assert len(set(made)) == len(made)


def test_collection_without_title_or_name_gets_a_slug(cms):
    make_collection("counters", fields=[{"slug": "count", "label": "Count", "type": "integer"}])
    a = create("counters", data={"count": 1})
    b = create("counters", data={"count": 2})
    assert CONTENT_SLUG_RE.match(a.row.slug) and CONTENT_SLUG_RE.match(b.row.slug)
    assert a.row.slug != b.row.slug


def test_explicit_slug_is_used(posts):
    entry = create(data={"title": "Hello"}, slug="my_custom-slug-1")
    assert db_row(entry.id).slug == "my_custom-slug-1"


def test_explicit_duplicate_slug_is_slug_conflict_and_writes_nothing(posts):
    create(data={"title": "Hello"})
    rows_before, revs_before = row_count(), revision_count()
    fails("SLUG_CONFLICT", create, data={"title": "Other"}, slug="hello")
    assert row_count() == rows_before
    assert revision_count() == revs_before


def test_explicit_slug_held_by_trashed_item_is_slug_conflict(posts):
    first = create(data={"title": "Hello"})
    services.entry_trash(actor=SYSTEM, collection="posts", id=first.id)
    fails("SLUG_CONFLICT", create, data={"title": "Other"}, slug="hello")
    assert row_count() == 1


MALFORMED_SLUGS = [
    "Hello World",
    "UPPER",
    "-leading",
    "trailing-",
    "",
    "a" * 201,
    "spa ce",
    "ünïcode",
    "a/b",
    "a.b",
    "a\n",
    "hello\x00",
    123,
    ["x"],
]


def test_malformed_explicit_slug_is_invalid_slug(posts):
    for slug in MALFORMED_SLUGS:
        fails("INVALID_SLUG", create, data={"title": "Hello"}, slug=slug)
    assert row_count() == 0
    assert revision_count() == 0


def test_ids_are_ulids(posts):
    ids = [create(data={"title": f"T{i}"}).id for i in range(5)]
    assert len(set(ids)) == 5
    for entry_id in ids:
        assert ULID_RE.match(entry_id), entry_id
        assert str(ULID.from_str(entry_id)) == entry_id
        assert db_row(entry_id).id == entry_id


def test_create_sets_metadata(posts):
    editor = actor(role="editor")
    entry = create(actor=editor, data={"title": "Hello"})
    row = db_row(entry.id)
    assert row.author_id == editor.user_id
    assert row.version == 1
    assert row.locale == "en"
    assert row.translation_group == entry.id
    assert row.created_at == row.updated_at
    assert row.published_at is None and row.scheduled_at is None and row.deleted_at is None
    body = entry.to_dict()
    assert body["id"] == entry.id
    assert body["collection"] == "posts"
    assert body["authorId"] == editor.user_id
    assert body["createdAt"].endswith("Z")
    assert body["data"] == {"title": "Hello", "excerpt": None, "body": None}


def test_default_values_are_applied(cms):
    make_collection(
        "products",
        fields=[
            {"slug": "title", "label": "Title", "type": "string"},
            {
                "slug": "colour",
                "label": "Colour",
                "type": "select",
                "validation": {"options": ["red", "blue"]},
                "defaultValue": "blue",
            },
            {"slug": "stock", "label": "Stock", "type": "integer", "defaultValue": 7},
            {"slug": "active", "label": "Active", "type": "boolean", "defaultValue": False},
            {"slug": "tagline", "label": "Tagline", "type": "string", "required": True, "defaultValue": "New!"},
        ],
    )
    entry = create("products", data={"title": "Lamp"})
    data = get(entry.id, "products").to_dict()["data"]
    assert data == {"title": "Lamp", "colour": "blue", "stock": 7, "active": False, "tagline": "New!"}
    row = db_row(entry.id, "products")
    assert (row.f_colour, row.f_stock, row.f_active, row.f_tagline) == ("blue", 7, False, "New!")
    # Given values win over defaults.
    other = create("products", data={"title": "Desk", "colour": "red", "stock": 0, "active": True})
    assert get(other.id, "products").to_dict()["data"]["colour"] == "red"
    assert db_row(other.id, "products").f_stock == 0
    assert db_row(other.id, "products").f_active is True


def test_status_defaults_to_draft(posts):
    entry = create(data={"title": "Hello"})
    row = db_row(entry.id)
    assert row.status == "draft"
    assert row.published_at is None
    assert row.live_revision_id is None


@pytest.mark.parametrize("supports", [[], ["revisions"], ["scheduling", "search"]])
def test_status_defaults_to_draft_without_drafts_support(cms, supports):
    """Issue 13 item 1 (SPEC 7): a new item is a draft unless published is asked, whatever the collection supports."""
    make_collection("pages", supports=supports)
    entry = create("pages", data={"title": "About"})
    row = db_row(entry.id, "pages")
    assert row.status == "draft"
    assert row.published_at is None
    live = create("pages", data={"title": "Live"}, status="published")
    assert db_row(live.id, "pages").status == "published"


def test_status_published_publishes_on_create(posts):
    entry = create(data={"title": "Hello"}, status="published")
    row = db_row(entry.id)
    assert row.status == "published"
    assert row.published_at is not None
    assert row.live_revision_id is not None
    assert row.draft_revision_id is None
    assert row.f_title == "Hello"
    assert Revision.objects.filter(id=row.live_revision_id, kind="publish", entry_id=entry.id).exists()
    body = entry.to_dict()
    assert body["status"] == "published" and body["hasDraft"] is False
    assert body["publishedAt"] is not None


def test_bad_status_is_validation_error(posts):
    for status in ["scheduled", "live", "", "PUBLISHED", 1, True, ["draft"]]:
        err = fails("VALIDATION_ERROR", create, data={"title": "Hello"}, status=status)
        assert "status" in err.details["fields"]
    assert row_count() == 0
    assert revision_count() == 0


def test_unknown_collection(posts):
    for collection in ["nope", "", "Posts", None, 5, ["posts"]]:
        fails("COLLECTION_NOT_FOUND", services.entry_create, actor=SYSTEM, collection=collection, data={"title": "x"})
        fails("COLLECTION_NOT_FOUND", selectors.entry_get, actor=SYSTEM, collection=collection, id="x")
        fails("COLLECTION_NOT_FOUND", selectors.entry_list, actor=SYSTEM, collection=collection)
        fails("COLLECTION_NOT_FOUND", services.entry_update, actor=SYSTEM, collection=collection, id="x", data={})
        fails("COLLECTION_NOT_FOUND", services.entry_trash, actor=SYSTEM, collection=collection, id="x")
    assert row_count() == 0


def test_data_must_be_an_object(posts):
    for data in ["title", ["title"], 5, True]:
        err = fails("VALIDATION_ERROR", create, data=data)
        assert "data" in err.details["fields"]
    assert row_count() == 0


# ------------------------------------------------------------------------------------------------ get


def test_get_by_id_and_by_slug(posts):
    entry = create(data={"title": "Hello", "excerpt": "Short"})
    by_id = get(entry.id)
    by_slug = get("hello")
    by_lower_id = get(entry.id.lower())
    assert by_id.id == by_slug.id == by_lower_id.id == entry.id
    assert by_id.to_dict()["data"]["excerpt"] == "Short"
    assert by_id.rev == entry.rev


def test_get_unknown_is_not_found(posts):
    create(data={"title": "Hello"})
    for ident in ["missing", "01ARZ3NDEKTSV4RRFFQ69G5FAV", "", None, 42, "x" * 300, "hel\x00lo", ["hello"]]:
        fails("NOT_FOUND", get, ident)


def test_get_trashed_is_not_found_by_id_and_slug(posts):
    entry = create(data={"title": "Hello"})
    services.entry_trash(actor=SYSTEM, collection="posts", id=entry.id)
    fails("NOT_FOUND", get, entry.id)
    fails("NOT_FOUND", get, "hello")


def test_get_by_slug_that_looks_like_a_ulid(posts):
    slug = "abcdefghjkmnpqrstvwxyz0123"  # 26 Crockford characters
    entry = create(data={"title": "Odd"}, slug=slug)
    assert get(slug).id == entry.id


# --------------------------------------------------------------------------------------------- update


def update(entry_id: str, collection: str = "posts", **kwargs: Any) -> Any:
    kwargs.setdefault("actor", SYSTEM)
    return services.entry_update(collection=collection, id=entry_id, **kwargs)


def test_update_is_partial(posts):
    entry = create(data={"title": "Hello", "excerpt": "One"})
    before = db_row(entry.id)
    updated = update(entry.id, data={"excerpt": "Two"})
    row = db_row(entry.id)
    assert (row.f_title, row.f_excerpt) == ("Hello", "Two")
    assert updated.to_dict()["data"] == {"title": "Hello", "excerpt": "Two", "body": None}
    assert row.version == before.version + 1
    assert row.updated_at > before.updated_at
    assert row.created_at == before.created_at
    assert row.slug == "hello"  # the slug does not follow title edits


def test_update_by_slug(posts):
    create(data={"title": "Hello"})
    update("hello", data={"excerpt": "via slug"})
    assert model().objects.get(slug="hello").f_excerpt == "via slug"


def test_update_can_clear_an_optional_field(posts):
    entry = create(data={"title": "Hello", "excerpt": "One"})
    update(entry.id, data={"excerpt": None})
    assert db_row(entry.id).f_excerpt is None


def test_stale_rev_is_conflict_and_writes_nothing(posts):
    entry = create(data={"title": "Hello", "excerpt": "One"})
    stale = entry.rev
    update(entry.id, data={"excerpt": "Two"}, rev=stale)
    before = db_row(entry.id)
    revs_before = revision_count(entry_id=entry.id)
    fails("CONFLICT", update, entry.id, data={"excerpt": "Three", "title": "Changed"}, rev=stale, slug="new-slug")
    after = db_row(entry.id)
    assert (after.f_title, after.f_excerpt, after.slug) == ("Hello", "Two", "hello")
    assert after.version == before.version
    assert after.updated_at == before.updated_at
    assert revision_count(entry_id=entry.id) == revs_before


def test_stale_rev_on_published_item_writes_no_draft(posts):
    entry = create(data={"title": "Hello"}, status="published")
    stale = entry.rev
    update(entry.id, data={"title": "Draft 1"})
    before = db_row(entry.id)
    revs_before = revision_count(entry_id=entry.id)
    fails("CONFLICT", update, entry.id, data={"title": "Draft 2"}, rev=stale)
    after = db_row(entry.id)
    assert after.draft_revision_id == before.draft_revision_id
    assert after.version == before.version
    assert revision_count(entry_id=entry.id) == revs_before
    assert get(entry.id).to_dict()["data"]["title"] == "Draft 1"


def test_stale_rev_with_status_change_does_not_publish(posts):
    entry = create(data={"title": "Hello"})
    stale = entry.rev
    update(entry.id, data={"excerpt": "x"})
    fails("CONFLICT", update, entry.id, status="published", rev=stale)
    assert db_row(entry.id).status == "draft"


def test_garbage_rev_is_conflict(posts):
    entry = create(data={"title": "Hello"})
    for rev in ["garbage", "", "MS4x", 12, entry.rev + "x"]:
        fails("CONFLICT", update, entry.id, data={"title": "Nope"}, rev=rev)
    assert db_row(entry.id).f_title == "Hello"
    assert db_row(entry.id).version == 1


def test_current_rev_is_accepted_and_changes_after_each_write(posts):
    entry = create(data={"title": "Hello"})
    got = get(entry.id)
    assert got.rev == entry.rev
    second = update(entry.id, data={"title": "Two"}, rev=got.rev)
    assert second.rev != entry.rev
    assert get(entry.id).rev == second.rev
    published = services.entry_publish(actor=SYSTEM, collection="posts", id=entry.id)
    assert published.rev != second.rev
    third = update(entry.id, data={"title": "Three"}, rev=published.rev)
    assert get(entry.id).to_dict()["data"]["title"] == "Three"
    assert third.rev == get(entry.id).rev


def test_without_rev_last_write_wins(posts):
    entry = create(data={"title": "Hello"})
    update(entry.id, data={"title": "First"})
    update(entry.id, data={"title": "Second"})
    assert db_row(entry.id).f_title == "Second"
    assert db_row(entry.id).version == 3


def test_update_slug(posts):
    entry = create(data={"title": "Hello"})
    updated = update(entry.id, slug="brand-new")
    assert updated.row.slug == "brand-new"
    assert db_row(entry.id).slug == "brand-new"
    assert get("brand-new").id == entry.id
    fails("NOT_FOUND", get, "hello")


def test_update_slug_to_a_taken_slug_is_slug_conflict(posts):
    create(data={"title": "Taken"})
    entry = create(data={"title": "Hello", "excerpt": "keep"})
    before = db_row(entry.id)
    fails("SLUG_CONFLICT", update, entry.id, slug="taken", data={"excerpt": "changed"})
    after = db_row(entry.id)
    assert (after.slug, after.f_excerpt, after.version) == ("hello", "keep", before.version)


def test_update_slug_malformed(posts):
    entry = create(data={"title": "Hello"})
    for slug in MALFORMED_SLUGS:
        fails("INVALID_SLUG", update, entry.id, slug=slug, data={"title": "Changed"})
    assert db_row(entry.id).slug == "hello"
    assert db_row(entry.id).f_title == "Hello"
    assert db_row(entry.id).version == 1


def test_update_to_same_slug_is_fine(posts):
    entry = create(data={"title": "Hello"})
    update(entry.id, slug="hello", data={"excerpt": "x"})
    assert db_row(entry.id).slug == "hello"
    assert db_row(entry.id).f_excerpt == "x"


def test_status_change_via_update(posts):
    entry = create(data={"title": "Hello"})
    published = update(entry.id, data={"title": "Live"}, status="published")
    row = db_row(entry.id)
    assert row.status == "published" and row.published_at is not None
    assert row.f_title == "Live"
    assert published.to_dict()["status"] == "published"
    update(entry.id, status="draft")
    row = db_row(entry.id)
    assert row.status == "draft" and row.published_at is None
    assert row.f_title == "Live"


def test_update_bad_status_writes_nothing(posts):
    entry = create(data={"title": "Hello"})
    for status in ["scheduled", "archived", 0, ""]:
        err = fails("VALIDATION_ERROR", update, entry.id, data={"title": "Changed"}, status=status)
        assert "status" in err.details["fields"]
    row = db_row(entry.id)
    assert (row.f_title, row.status, row.version) == ("Hello", "draft", 1)


def test_update_invalid_data_writes_nothing(posts):
    entry = create(data={"title": "Hello", "excerpt": "One"})
    revs = revision_count(entry_id=entry.id)
    err = fails("VALIDATION_ERROR", update, entry.id, data={"excerpt": "Two", "title": "", "bogus": 1})
    assert set(err.details["fields"]) == {"data.title", "data.bogus"}
    row = db_row(entry.id)
    assert (row.f_title, row.f_excerpt, row.version) == ("Hello", "One", 1)
    assert revision_count(entry_id=entry.id) == revs


def test_update_unknown_or_trashed_is_not_found(posts):
    entry = create(data={"title": "Hello"})
    fails("NOT_FOUND", update, "01ARZ3NDEKTSV4RRFFQ69G5FAV", data={"title": "x"})
    fails("NOT_FOUND", update, "nope", data={"title": "x"})
    fails("NOT_FOUND", update, "hello\x00", data={"title": "x"})
    services.entry_trash(actor=SYSTEM, collection="posts", id=entry.id)
    fails("NOT_FOUND", update, entry.id, data={"title": "x"})
    assert db_row(entry.id).f_title == "Hello"


# --------------------------------------------------------------------------- trash / restore / delete


def trash(entry_id: str, collection: str = "posts") -> None:
    services.entry_trash(actor=SYSTEM, collection=collection, id=entry_id)


def test_trash_hides_the_item(posts):
    entry = create(data={"title": "Hello"}, status="published")
    keep = create(data={"title": "Keep"})
    trash(entry.id)
    row = db_row(entry.id)
    assert row.deleted_at is not None
    assert row.status == "published"  # trash does not touch the publication state
    fails("NOT_FOUND", get, entry.id)
    listed = [i["id"] for i in selectors.entry_list(actor=SYSTEM, collection="posts").items]
    assert listed == [keep.id]
    trashed = selectors.entry_list_trashed(actor=SYSTEM, collection="posts").items
    assert [i["id"] for i in trashed] == [entry.id]
    assert trashed[0]["deletedAt"].endswith("Z")
    for fn in (
        services.entry_publish,
        services.entry_unpublish,
        services.entry_trash,
        services.entry_duplicate,
        services.entry_discard_draft,
    ):
        fails("NOT_FOUND", fn, actor=SYSTEM, collection="posts", id=entry.id)
    fails(
        "NOT_FOUND",
        services.entry_schedule,
        actor=SYSTEM,
        collection="posts",
        id=entry.id,
        scheduled_at="2999-01-01T00:00:00Z",
    )


def test_trash_by_slug(posts):
    entry = create(data={"title": "Hello"})
    trash("hello")
    assert db_row(entry.id).deleted_at is not None


def test_trash_cancels_a_pending_schedule(posts):
    from datetime import timedelta

    from django.utils import timezone

    entry = create(data={"title": "Hello"})
    when = timezone.now() + timedelta(days=1)
    services.entry_schedule(actor=SYSTEM, collection="posts", id=entry.id, scheduled_at=when.isoformat())
    trash(entry.id)
    row = db_row(entry.id)
    assert row.status == "draft" and row.scheduled_at is None
    services.entry_restore(actor=SYSTEM, collection="posts", id=entry.id)
    assert services.publish_due(now=when + timedelta(days=1)) == 0
    row = db_row(entry.id)
    assert row.status == "draft" and row.published_at is None


def test_restore(posts):
    entry = create(data={"title": "Hello", "excerpt": "x"})
    trash(entry.id)
    restored = services.entry_restore(actor=SYSTEM, collection="posts", id=entry.id)
    assert restored.id == entry.id
    assert "deletedAt" not in restored.to_dict()
    assert db_row(entry.id).deleted_at is None
    assert get("hello").to_dict()["data"]["excerpt"] == "x"
    assert selectors.entry_list_trashed(actor=SYSTEM, collection="posts").items == []


def test_restore_of_an_item_not_in_trash_is_not_found(posts):
    entry = create(data={"title": "Hello"})
    fails("NOT_FOUND", services.entry_restore, actor=SYSTEM, collection="posts", id=entry.id)
    fails("NOT_FOUND", services.entry_restore, actor=SYSTEM, collection="posts", id="missing")
    assert db_row(entry.id).version == 1


def test_permanent_delete_requires_trash_first(posts):
    entry = create(data={"title": "Hello"})
    fails("VALIDATION_ERROR", services.entry_delete_permanently, actor=SYSTEM, collection="posts", id=entry.id)
    fails("VALIDATION_ERROR", services.entry_delete_permanently, actor=SYSTEM, collection="posts", id="hello")
    assert row_count() == 1
    assert revision_count(entry_id=entry.id) == 1


def test_permanent_delete_removes_row_and_revisions(posts):
    entry = create(data={"title": "Hello"}, status="published")
    update(entry.id, data={"title": "Draft"})
    other = create(data={"title": "Other"})
    assert revision_count(entry_id=entry.id) >= 3
    other_revs = revision_count(entry_id=other.id)
    trash(entry.id)
    services.entry_delete_permanently(actor=SYSTEM, collection="posts", id=entry.id)
    assert not model().objects.filter(pk=entry.id).exists()
    assert revision_count(entry_id=entry.id) == 0
    assert revision_count(entry_id=other.id) == other_revs
    assert row_count() == 1
    fails("NOT_FOUND", services.entry_delete_permanently, actor=SYSTEM, collection="posts", id=entry.id)
    fails("NOT_FOUND", services.entry_restore, actor=SYSTEM, collection="posts", id=entry.id)
    # The slug is free again.
    assert create(data={"title": "Hello"}).row.slug == "hello"


def test_permanent_delete_by_slug_and_unknown(posts):
    entry = create(data={"title": "Hello"})
    trash(entry.id)
    fails("NOT_FOUND", services.entry_delete_permanently, actor=SYSTEM, collection="posts", id="nope")
    services.entry_delete_permanently(actor=SYSTEM, collection="posts", id="hello")
    assert row_count() == 0


# ------------------------------------------------------------------------------------------ duplicate


def duplicate(entry_id: str, collection: str = "posts", by: Any = SYSTEM) -> Any:
    return services.entry_duplicate(actor=by, collection=collection, id=entry_id)


def test_duplicate(posts):
    body = [
        {
            "_type": "block",
            "_key": "b1",
            "style": "normal",
            "markDefs": [],
            "children": [{"_type": "span", "_key": "s1", "text": "Hi", "marks": []}],
        }
    ]
    source = create(data={"title": "Hello", "excerpt": "Ex", "body": body}, status="published")
    editor = actor(role="editor")
    copy = duplicate(source.id, by=editor)
    assert copy.id != source.id
    row = db_row(copy.id)
    assert row.f_title == "Hello (Copy)"
    assert row.f_excerpt == "Ex"
    assert row.f_body == body
    assert row.slug not in ("hello", "") and CONTENT_SLUG_RE.match(row.slug)
    assert row.status == "draft"
    assert row.published_at is None and row.live_revision_id is None
    assert row.locale == db_row(source.id).locale
    assert row.translation_group == copy.id
    assert row.author_id == editor.user_id
    assert row_count() == 2
    # The source is untouched.
    src = db_row(source.id)
    assert (src.f_title, src.status, src.version) == ("Hello", "published", source.row.version)


def test_duplicate_twice_gives_distinct_slugs(posts):
    source = create(data={"title": "Hello"})
    a, b = duplicate(source.id), duplicate(source.id)
    assert len({source.row.slug, a.row.slug, b.row.slug}) == 3
    assert db_row(a.id).f_title == db_row(b.id).f_title == "Hello (Copy)"


def test_duplicate_does_not_copy_unique_fields(cms):
    make_collection(
        "products",
        fields=[
            {"slug": "title", "label": "Title", "type": "string"},
            {"slug": "sku", "label": "SKU", "type": "string", "unique": True},
            {"slug": "price", "label": "Price", "type": "number"},
        ],
    )
    source = create("products", data={"title": "Lamp", "sku": "LMP-1", "price": 9.5})
    copy = duplicate(source.id, "products")
    row = db_row(copy.id, "products")
    assert row.f_sku is None
    assert row.f_price == 9.5
    assert row.f_title == "Lamp (Copy)"
    assert db_row(source.id, "products").f_sku == "LMP-1"


def test_duplicate_without_title_field(cms):
    make_collection("counters", fields=[{"slug": "count", "label": "Count", "type": "integer"}])
    source = create("counters", data={"count": 3}, slug="tally")
    copy = duplicate(source.id, "counters")
    again = duplicate(source.id, "counters")
    assert db_row(copy.id, "counters").f_count == 3
    assert copy.row.slug != "tally" and again.row.slug not in ("tally", copy.row.slug)
    assert CONTENT_SLUG_RE.match(copy.row.slug)


def test_duplicate_unknown_or_trashed_is_not_found(posts):
    entry = create(data={"title": "Hello"})
    fails("NOT_FOUND", duplicate, "nope")
    trash(entry.id)
    fails("NOT_FOUND", duplicate, entry.id)
    assert row_count() == 1


def test_identifiers_with_nul_characters_are_not_found(posts):
    entry = create(data={"title": "Hello"})
    trash(entry.id)
    for fn in (
        services.entry_delete_permanently,
        services.entry_restore,
        services.entry_publish,
        services.entry_trash,
        services.entry_duplicate,
    ):
        fails("NOT_FOUND", fn, actor=SYSTEM, collection="posts", id="hello\x00")
    assert db_row(entry.id).deleted_at is not None
