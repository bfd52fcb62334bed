"""A slug edit of a published item waits in the draft; publishing it leaves a redirect; per-item SEO; publishedAt."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from content.entries import selectors, services
from content.models import EntrySeo, Redirect
from content.redirects import services as redirects
from emdash.actor import Actor
from tests.content.test_publishing import (
    compare,
    create,
    db_row,
    discard,
    fails,
    get,
    publish,
    snapshot,
    update,
)
from tests.factories import SYSTEM, actor, make_collection, make_user
from tests.media.helpers import make_media


def public_get(ident: str, collection: str = "posts") -> dict[str, Any]:
    return selectors.entry_get(actor=Actor.anonymous(), collection=collection, id=ident).to_dict()


def pairs() -> set[tuple[str, str]]:
    return set(Redirect.objects.values_list("source", "target"))


def published(title: str, **kwargs: Any) -> Any:
    entry = create(data={"title": title}, **kwargs)
    return publish(entry.id)


@pytest.fixture
def media_root(tmp_path, settings):
    settings.MEDIA_ROOT = str(tmp_path / "media")


# --- item 3: a slug edit waits in the draft -----------------------------------------------------------


def test_a_slug_edit_of_a_published_item_waits_in_the_draft_until_publish(posts):
    entry = published("Hello", slug="hello")
    update(entry.id, slug="hi", data={"title": "Hello again"})
    row = db_row(entry.id)
    assert row.slug == "hello" and row.status == "published"
    item = get(entry.id)
    assert item["slug"] == "hello" and item["draftSlug"] == "hi" and item["data"]["title"] == "Hello again"
    # The public reads the live version at the live URL only.
    assert public_get("hello")["data"]["title"] == "Hello" and "draftSlug" not in public_get("hello")
    fails("NOT_FOUND", public_get, "hi")
    diff = compare(entry.id)
    assert diff["hasChanges"] is True and diff["liveSlug"] == "hello" and diff["draftSlug"] == "hi"
    assert pairs() == set()
    publish(entry.id)
    assert db_row(entry.id).slug == "hi" and "draftSlug" not in get(entry.id)
    assert public_get("hi")["data"]["title"] == "Hello again"
    assert pairs() == {("/posts/hello/", "/posts/hi/")}
    assert Redirect.objects.get().kind == "auto" and Redirect.objects.get().entry_id == entry.id


def test_a_slug_change_alone_is_a_draft_change_and_discard_drops_it(posts):
    entry = published("Solo", slug="solo")
    update(entry.id, slug="duo")
    assert get(entry.id)["draftSlug"] == "duo" and compare(entry.id)["hasChanges"] is True
    discard(entry.id)
    item = get(entry.id)
    assert item["slug"] == "solo" and "draftSlug" not in item and compare(entry.id)["hasChanges"] is False
    publish(entry.id)
    assert db_row(entry.id).slug == "solo" and pairs() == set()


def test_sending_the_live_slug_again_cancels_the_pending_one(posts):
    entry = published("Back", slug="back")
    update(entry.id, slug="forth")
    update(entry.id, slug="back")
    assert "draftSlug" not in get(entry.id)
    publish(entry.id)
    assert db_row(entry.id).slug == "back" and pairs() == set()


def test_later_edits_keep_the_pending_slug(posts):
    entry = published("Keep", slug="keep")
    update(entry.id, slug="kept")
    update(entry.id, data={"title": "Keep 2"})
    assert get(entry.id)["draftSlug"] == "kept"
    publish(entry.id)
    assert db_row(entry.id).slug == "kept"


def test_a_draft_that_was_never_published_changes_its_slug_at_once(posts):
    entry = create(data={"title": "Fresh"})
    update(entry.id, slug="fresh-start")
    assert db_row(entry.id).slug == "fresh-start" and "draftSlug" not in get(entry.id)
    publish(entry.id)
    assert pairs() == set()


def test_a_taken_or_bad_slug_is_refused_and_nothing_changes(posts):
    published("Other", slug="taken")
    entry = published("Mine", slug="mine")
    before = snapshot(entry.id)
    fails("SLUG_CONFLICT", update, entry.id, slug="taken", data={"title": "Changed"})
    fails("INVALID_SLUG", update, entry.id, slug="Not A Slug!", data={"title": "Changed"})
    assert snapshot(entry.id) == before and "draftSlug" not in get(entry.id)


def test_a_slug_taken_after_the_edit_fails_the_publish_and_keeps_everything(posts):
    entry = published("Racer", slug="racer")
    update(entry.id, slug="winner")
    published("Winner", slug="winner")
    before = snapshot(entry.id)
    fails("SLUG_CONFLICT", publish, entry.id)
    assert snapshot(entry.id) == before and get(entry.id)["draftSlug"] == "winner" and pairs() == set()


def test_without_revisions_the_url_moves_at_once_and_redirects(cms):
    make_collection("notes", supports=[])
    entry = services.entry_create(actor=SYSTEM, collection="notes", data={"title": "N"}, slug="n1", status="published")
    services.entry_update(actor=SYSTEM, collection="notes", id=entry.id, slug="n2")
    assert db_row(entry.id, "notes").slug == "n2"
    assert pairs() == {("/notes/n1/", "/notes/n2/")}


def test_the_scheduled_publish_applies_the_pending_slug(posts):
    entry = published("Later", slug="later")
    update(entry.id, slug="sooner")
    services.entry_schedule(
        actor=SYSTEM, collection="posts", id=entry.id, scheduled_at=(timezone.now() + timedelta(hours=1)).isoformat()
    )
    assert db_row(entry.id).slug == "later"
    assert services.publish_due(now=timezone.now() + timedelta(hours=2)) == 1
    assert db_row(entry.id).slug == "sooner" and pairs() == {("/posts/later/", "/posts/sooner/")}


# --- item 11: redirects -----------------------------------------------------------------------------------


def move(entry_id: str, slug: str) -> None:
    update(entry_id, slug=slug)
    publish(entry_id)


def test_chains_collapse_and_renaming_back_leaves_no_loop(posts):
    entry = published("Chain", slug="a")
    move(entry.id, "b")
    move(entry.id, "c")
    assert pairs() == {("/posts/a/", "/posts/c/"), ("/posts/b/", "/posts/c/")}
    move(entry.id, "a")  # /posts/a/ is live again: its redirect goes, the others point at it
    assert pairs() == {("/posts/b/", "/posts/a/"), ("/posts/c/", "/posts/a/")}
    assert redirects.resolve("/posts/a/") is None and redirects.resolve("/posts/b/") == "/posts/a/"


def test_manual_redirects_are_checked_collapsed_and_never_loop(cms):
    editor = actor(make_user("editor"))
    made = redirects.redirect_create(actor=editor, source="/old-page/", target="/new-page/")
    assert made["kind"] == "manual" and made["target"] == "/new-page/"
    redirects.redirect_create(actor=editor, source="/new-page/", target="/newest/?from=old#top")
    assert pairs() == {("/old-page/", "/newest/?from=old#top"), ("/new-page/", "/newest/?from=old#top")}
    redirects.redirect_create(actor=editor, source="/start/", target="/old-page/")  # follows to the end
    assert ("/start/", "/newest/?from=old#top") in pairs()
    before = pairs()
    fails("VALIDATION_ERROR", redirects.redirect_create, actor=editor, source="/newest/", target="/start/")
    fails("CONFLICT", redirects.redirect_create, actor=editor, source="/old-page/", target="/x/")
    fails("VALIDATION_ERROR", redirects.redirect_create, actor=editor, source="/same/", target="/same/")
    assert pairs() == before


BAD_PATHS = [
    "https://evil.example/x",
    "//evil.example/x",
    "/\\evil.example/x",
    "javascript:alert(1)",
    "relative/path",
    "/with space/",
    "/tab\there/",
    "",
    "/" + "a" * 3000,
]


@pytest.mark.parametrize("bad", BAD_PATHS)
def test_only_local_paths_are_accepted(cms, bad):
    fails("VALIDATION_ERROR", redirects.redirect_create, actor=SYSTEM, source="/ok/", target=bad)
    fails("VALIDATION_ERROR", redirects.redirect_create, actor=SYSTEM, source=bad, target="/ok/")
    assert not Redirect.objects.exists()


@pytest.mark.parametrize(
    "bad",
    [
        "/_emdash/admin/",
        "/_emdash",
        "/%5Femdash/admin/",  # the same path, %-encoded
        "/x/../_emdash/api/mcp",  # dot segments: a proxy or browser resolves them before we see the path
        "/x/%2E%2E/_emdash/",
        "/old/./page/",
        "/old/?q=1?r=2",
        "/old/#top",
    ],
)
def test_sources_are_plain_paths_outside_the_admin(cms, bad):
    """A source is a path with at most one ?query (old WordPress links such as /?p=12 are query sources)."""
    exc = fails("VALIDATION_ERROR", redirects.redirect_create, actor=SYSTEM, source=bad, target="/ok/")
    assert "source" in exc.as_dict()["details"]["fields"]
    assert not Redirect.objects.exists()


def test_redirect_rights_list_pages_and_delete(cms):
    author, editor = actor(make_user("author")), actor(make_user("editor"))
    fails("INSUFFICIENT_PERMISSIONS", redirects.redirect_create, actor=author, source="/a/", target="/b/")
    fails("INSUFFICIENT_PERMISSIONS", redirects.redirect_list, actor=author)
    for n in range(3):
        redirects.redirect_create(actor=editor, source=f"/p{n}/", target="/home/")
    first = redirects.redirect_list(actor=editor, limit=2)
    assert [r["source"] for r in first["items"]] == ["/p0/", "/p1/"]
    rest = redirects.redirect_list(actor=editor, limit=2, cursor=first["nextCursor"])
    assert [r["source"] for r in rest["items"]] == ["/p2/"] and "nextCursor" not in rest
    fails("INVALID_CURSOR", redirects.redirect_list, actor=editor, cursor="garbage")
    doomed = first["items"][0]["id"]
    fails("INSUFFICIENT_PERMISSIONS", redirects.redirect_delete, actor=author, redirect_id=doomed)
    redirects.redirect_delete(actor=editor, redirect_id=doomed)
    fails("NOT_FOUND", redirects.redirect_delete, actor=editor, redirect_id=doomed)
    assert Redirect.objects.count() == 2


# --- item 12: SEO and publishedAt -------------------------------------------------------------------------


def test_seo_is_stored_merged_cleared_and_waits_in_the_draft(posts, media_root):
    image = make_media(SYSTEM)
    seo = {"title": "Jam", "description": "All about jam", "image": {"id": image.id}, "canonical": "/jam/"}
    entry = create(data={"title": "Jam"}, seo=seo)
    assert get(entry.id)["seo"] == seo
    update(entry.id, seo={"noindex": True, "canonical": None})
    assert get(entry.id)["seo"] == {**{k: v for k, v in seo.items() if k != "canonical"}, "noindex": True}
    publish(entry.id)
    live = get(entry.id)["seo"]
    update(entry.id, seo={"title": "Better jam"})
    item = get(entry.id)
    assert item["seo"]["title"] == "Better jam" and item["liveSeo"] == live
    assert public_get(entry.id)["seo"] == live  # the public sees the live SEO
    assert compare(entry.id)["draftSeo"]["title"] == "Better jam" and compare(entry.id)["hasChanges"] is True
    publish(entry.id)
    assert EntrySeo.objects.get(entry_id=entry.id).data["title"] == "Better jam"
    assert EntrySeo.objects.get(entry_id=entry.id).noindex is True


@pytest.mark.parametrize(
    ("seo", "field"),
    [
        ({"canonical": "javascript:alert(1)"}, "seo.canonical"),
        ({"canonical": "//evil.example/"}, "seo.canonical"),
        ({"canonical": "data:text/html,hi"}, "seo.canonical"),
        ({"canonical": "#top"}, "seo.canonical"),
        ({"image": {"id": "01ZZZZZZZZZZZZZZZZZZZZZZZZ"}}, "seo.image.id"),
    ],
)
def test_bad_seo_is_refused_and_nothing_changes(posts, seo, field):
    entry = published("Safe")
    before = snapshot(entry.id)
    exc = fails("VALIDATION_ERROR", update, entry.id, seo=seo, data={"title": "Changed"})
    assert field in exc.as_dict()["details"]["fields"]
    assert snapshot(entry.id) == before and get(entry.id)["seo"] == {}
    fails("VALIDATION_ERROR", create, data={"title": "New"}, seo=seo)
    assert not EntrySeo.objects.exists()


def test_permanent_delete_removes_the_seo(posts):
    entry = create(data={"title": "Gone"}, seo={"title": "Gone"})
    services.entry_trash(actor=SYSTEM, collection="posts", id=entry.id)
    services.entry_delete_permanently(actor=SYSTEM, collection="posts", id=entry.id)
    assert not EntrySeo.objects.exists()


def test_published_at_is_settable_on_publish(posts):
    entry = create(data={"title": "Old post"})
    services.entry_publish(actor=SYSTEM, collection="posts", id=entry.id, published_at="2019-05-01T09:00:00+02:00")
    assert get(entry.id)["publishedAt"] == "2019-05-01T07:00:00Z"
    update(entry.id, data={"title": "Old post, edited"})
    publish(entry.id)  # kept from the first publication unless given
    assert get(entry.id)["publishedAt"] == "2019-05-01T07:00:00Z"


@pytest.mark.parametrize(
    "bad",
    ["2019-05-01T09:00:00", "yesterday", "2019-13-01T00:00:00Z", (timezone.now() + timedelta(days=2)).isoformat()],
    ids=["no-offset", "words", "month-13", "future"],  # stable ids: xdist workers must collect the same names
)
def test_bad_published_at_is_refused_and_nothing_changes(posts, bad):
    entry = create(data={"title": "Pending"})
    before = snapshot(entry.id)
    exc = fails(
        "VALIDATION_ERROR", services.entry_publish, actor=SYSTEM, collection="posts", id=entry.id, published_at=bad
    )
    assert "publishedAt" in exc.as_dict()["details"]["fields"]
    assert snapshot(entry.id) == before


def test_deleting_an_item_or_its_collection_drops_its_seo_and_recorded_moves(posts):
    from content.schema import services as schema_services

    entry = published("Doomed", slug="doomed")
    update(entry.id, slug="doomed-2", seo={"title": "D"})
    publish(entry.id)
    redirects.redirect_create(actor=SYSTEM, source="/kept/", target="/posts/doomed-2/")
    services.entry_trash(actor=SYSTEM, collection="posts", id=entry.id)
    services.entry_delete_permanently(actor=SYSTEM, collection="posts", id=entry.id)
    assert pairs() == {("/kept/", "/posts/doomed-2/")} and not EntrySeo.objects.exists()  # manual ones stay
    other = published("Other", slug="o1")
    move(other.id, "o2")
    update(other.id, seo={"title": "O"})
    publish(other.id)
    schema_services.collection_delete(actor=SYSTEM, slug="posts", force=True)
    assert pairs() == {("/kept/", "/posts/doomed-2/")} and not EntrySeo.objects.exists()
