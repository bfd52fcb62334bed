"""A deleted user's entries lose their author in every collection (the entry tables are outside Django's app
registry, so no ``on_delete`` reaches them), their revisions too, and the validators of what showed them move."""

from __future__ import annotations

import pytest
from django.db import transaction

from accounts.models import User
from content.entries import services
from content.models import Revision
from content.schema import specs as schema
from tests.api.helpers import body, client_for
from tests.factories import SYSTEM, actor, make_collection, make_user

TITLE = {"slug": "title", "label": "Title", "type": "string", "required": True}


def author_of(collection: str, entry_id: str) -> int | None:
    found: int | None = schema.current(fresh=True).get(collection).model.objects.get(pk=entry_id).author_id
    return found


@pytest.fixture
def two_collections(posts):
    make_collection("pages", fields=[TITLE], supports=["revisions"])


def test_deleting_a_user_clears_their_authorship_everywhere(two_collections) -> None:
    gone, kept = make_user("author"), make_user("author")
    by = actor(gone)
    post = services.entry_create(actor=by, collection="posts", data={"title": "P"}, status="published")
    page = services.entry_create(actor=by, collection="pages", data={"title": "Q"})
    trashed = services.entry_create(actor=by, collection="posts", data={"title": "T"})
    services.entry_trash(actor=by, collection="posts", id=trashed.id)
    other = services.entry_create(actor=actor(kept), collection="posts", data={"title": "O"})
    assert Revision.objects.filter(author_id=gone.pk).exists()

    gone_id = gone.pk
    gone.delete()

    assert [author_of("posts", post.id), author_of("pages", page.id), author_of("posts", trashed.id)] == [None] * 3
    assert author_of("posts", other.id) == kept.pk
    assert not Revision.objects.filter(author_id=gone_id).exists()
    assert Revision.objects.filter(author_id=kept.pk).exists()


def test_a_queryset_delete_clears_each_users_authorship(posts) -> None:
    first, second = make_user("author"), make_user("author")
    one = services.entry_create(actor=actor(first), collection="posts", data={"title": "A"})
    two = services.entry_create(actor=actor(second), collection="posts", data={"title": "B"})
    User.objects.filter(pk__in=[first.pk, second.pk]).delete()
    assert author_of("posts", one.id) is None and author_of("posts", two.id) is None


def test_a_failed_deletion_changes_no_entry(posts) -> None:
    gone = make_user("author")
    entry = services.entry_create(actor=actor(gone), collection="posts", data={"title": "A"})
    gone_id = gone.pk
    with pytest.raises(RuntimeError), transaction.atomic():
        gone.delete()
        raise RuntimeError("rolled back")
    assert author_of("posts", entry.id) == gone_id


def test_the_items_validators_move_and_reads_show_no_author(posts) -> None:
    gone = make_user("editor")
    entry = services.entry_create(actor=actor(gone), collection="posts", data={"title": "Hello"}, status="published")
    services.entry_create(actor=SYSTEM, collection="posts", data={"title": "Other"})
    reader = client_for("editor")
    path = f"/_emdash/api/content/posts/{entry.id}"
    item, listing = reader.get(path), reader.get("/_emdash/api/content/posts")
    gone_id = gone.pk
    assert body(item)["item"]["authorId"] == gone_id

    gone.delete()

    fresh = reader.get(path, HTTP_IF_NONE_MATCH=item["ETag"])
    assert fresh.status_code == 200 and body(fresh)["item"]["authorId"] is None
    fresh_list = reader.get("/_emdash/api/content/posts", HTTP_IF_NONE_MATCH=listing["ETag"])
    assert fresh_list.status_code == 200
    assert all(row["authorId"] != gone_id for row in body(fresh_list)["items"])
