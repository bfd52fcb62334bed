"""The content screens: list, edit with _rev, the lifecycle buttons, revisions, compare, trash, duplicate."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from audit.models import AuditLog
from content.entries import selectors, services
from tests.factories import SYSTEM, actor, make_entry


def _get(id):
    return selectors.entry_get(actor=SYSTEM, collection="posts", id=id)


def test_list_filters_searches_sorts_and_pages(posts, as_role):
    client, _ = as_role("contributor")
    for n in range(25):
        make_entry(data={"title": f"Post {n:02d}"})
    services.entry_publish(actor=SYSTEM, collection="posts", id=make_entry(data={"title": "Shiny"}).id)
    page = client.get("/_emdash/admin/content/posts/?sort=title&order=asc").content.decode()
    assert page.index("Post 00") < page.index("Post 01") and "Post 24" not in page  # 20 per page
    assert "Next page" in page
    published = client.get("/_emdash/admin/content/posts/?status=published").content.decode()
    assert "Shiny" in published and "Post 00" not in published
    found = client.get("/_emdash/admin/content/posts/?q=post 1").content.decode()
    assert "Post 10" in found and "Post 20" not in found and "Shiny" not in found
    rows = client.get("/_emdash/admin/content/posts/rows/?status=published")
    assert rows.status_code == 200 and "<html" not in rows.content.decode() and "Shiny" in rows.content.decode()


def test_a_stale_cursor_falls_back_to_the_first_page(posts, as_role):
    client, _ = as_role("editor")
    make_entry(data={"title": "Only"})
    response = client.get("/_emdash/admin/content/posts/?cursor=garbage")
    assert response.status_code == 200 and "Only" in response.content.decode()


BODY = (
    '[{"_type": "block", "_key": "b1", "style": "normal", "markDefs": [],'
    ' "children": [{"_type": "span", "_key": "s1", "text": "Some bold text", "marks": ["strong"]}]}]'
)


def test_create_edit_publish_and_see_it_live(posts, as_role):
    client, user = as_role("author")
    response = client.post("/_emdash/admin/content/posts/new/", {"f_title": "Hello", "f_body": BODY})
    assert response.status_code == 302
    entry_id = response["Location"].rstrip("/").split("/")[-1]
    assert _get(entry_id).row.author_id == user.pk
    edit = client.get(response["Location"])
    rev = edit.context["rev"]
    response = client.post(
        response["Location"], {"f_title": "Hello again", "f_body": BODY, "slug": "hello", "_rev": rev}
    )
    assert response.status_code == 302
    client.post(f"/_emdash/admin/content/posts/{entry_id}/publish/")
    entry = _get(entry_id)
    assert entry.row.status == "published" and entry.row.slug == "hello"
    assert client.get("/hello/") is not None
    page = client.get("/posts/hello/").content.decode()
    assert "Hello again" in page and "<strong>Some bold text</strong>" in page
    actions = set(AuditLog.objects.filter(source="admin", user=user).values_list("action", flat=True))
    # The operation's name, as MCP and REST record it: one action name per operation at every door.
    assert {"content_create", "content_update", "content_publish"} <= actions


def test_saving_over_a_newer_version_is_refused_until_confirmed(posts, as_role):
    client, _ = as_role("editor")
    entry = make_entry(data={"title": "Original"})
    stale_rev = client.get(f"/_emdash/admin/content/posts/{entry.id}/").context["rev"]
    services.entry_update(actor=SYSTEM, collection="posts", id=entry.id, data={"title": "From MCP"})
    url = f"/_emdash/admin/content/posts/{entry.id}/"
    response = client.post(url, {"f_title": "Mine", "slug": entry.row.slug, "_rev": stale_rev})
    assert response.status_code == 409
    body = response.content.decode()
    assert "CONFLICT" in body and "Overwrite the newer version" in body and 'value="Mine"' in body
    assert _get(entry.id).to_dict()["data"]["title"] == "From MCP"
    response = client.post(url, {"f_title": "Mine", "slug": entry.row.slug, "_rev": stale_rev, "overwrite": "1"})
    assert response.status_code == 302
    assert _get(entry.id).to_dict()["data"]["title"] == "Mine"


def test_state_endpoint_reports_the_current_rev(posts, as_role):
    client, _ = as_role("contributor")
    entry = make_entry()
    state = client.get(f"/_emdash/admin/content/posts/{entry.id}/state/").json()
    assert state["rev"] == entry.rev and state["status"] == "draft"


def test_schedule_unschedule_and_bad_times(posts, as_role):
    client, _ = as_role("editor")
    entry = make_entry()
    base = f"/_emdash/admin/content/posts/{entry.id}"
    past = (timezone.now() - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    client.post(f"{base}/schedule/", {"scheduled_at": past})
    assert _get(entry.id).row.status == "draft"
    later = (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    response = client.post(f"{base}/schedule/", {"scheduled_at": later}, follow=True)
    assert "Scheduled." in response.content.decode()
    row = _get(entry.id).row
    assert row.status == "scheduled" and row.scheduled_at.strftime("%Y-%m-%dT%H:%M") == later
    client.post(f"{base}/unschedule/")
    assert _get(entry.id).row.status == "draft"


def test_revisions_compare_and_restore(posts, as_role):
    client, _ = as_role("editor")
    entry = make_entry(data={"title": "First"})
    services.entry_publish(actor=SYSTEM, collection="posts", id=entry.id)
    services.entry_update(actor=SYSTEM, collection="posts", id=entry.id, data={"title": "Second"})
    compare = client.get(f"/_emdash/admin/content/posts/{entry.id}/compare/").content.decode()
    assert "First" in compare and "Second" in compare and "changed" in compare
    listing = selectors.revision_list(actor=SYSTEM, collection="posts", id=entry.id)["items"]
    first = next(r for r in listing if r["data"]["title"] == "First")
    page = client.get(f"/_emdash/admin/content/posts/{entry.id}/revisions/?revision={first['id']}").content.decode()
    assert "compared with the current version" in page
    response = client.post(f"/_emdash/admin/revisions/{first['id']}/restore/", {"collection": "posts", "id": entry.id})
    assert response.status_code == 302
    restored = _get(entry.id).to_dict()
    assert restored["data"]["title"] == "First" and restored["status"] == "published"  # a draft, not published
    client.post(f"/_emdash/admin/content/posts/{entry.id}/discard-draft/")
    assert _get(entry.id).to_dict()["hasDraft"] is False


def test_duplicate_trash_restore_and_delete(posts, as_role):
    client, _ = as_role("admin")
    entry = make_entry(data={"title": "Keep"})
    response = client.post(f"/_emdash/admin/content/posts/{entry.id}/duplicate/")
    copy_id = response["Location"].rstrip("/").split("/")[-1]
    assert _get(copy_id).to_dict()["data"]["title"] == "Keep (Copy)"
    client.post(f"/_emdash/admin/content/posts/{copy_id}/trash/")
    trash = client.get("/_emdash/admin/content/posts/trash/").content.decode()
    assert "Keep (Copy)" in trash and "Delete permanently" in trash
    client.post(f"/_emdash/admin/content/posts/{copy_id}/restore/")
    assert _get(copy_id).row.deleted_at is None
    client.post(f"/_emdash/admin/content/posts/{copy_id}/trash/")
    client.post(f"/_emdash/admin/content/posts/{copy_id}/delete/")
    assert selectors.entry_list_trashed(actor=SYSTEM, collection="posts").items == []


def test_authors_cannot_change_or_permanently_delete_others_items(posts, as_role):
    client, _ = as_role("author")
    other = make_entry(by=actor(role="author"), data={"title": "Not yours"})
    page = client.get(f"/_emdash/admin/content/posts/{other.id}/").content.decode()
    assert "Publish" not in page and "Save draft" not in page and "Move to trash" not in page
    response = client.post(f"/_emdash/admin/content/posts/{other.id}/publish/", follow=True)
    assert "INSUFFICIENT_PERMISSIONS" in response.content.decode()
    response = client.post(f"/_emdash/admin/content/posts/{other.id}/", {"f_title": "Hijack", "slug": "x"})
    assert response.status_code == 403
    assert _get(other.id).to_dict()["data"]["title"] == "Not yours" and _get(other.id).row.status == "draft"
    mine = make_entry(by=actor(role="author"))
    services.entry_trash(actor=SYSTEM, collection="posts", id=mine.id)
    client.post(f"/_emdash/admin/content/posts/{mine.id}/delete/")
    assert len(selectors.entry_list_trashed(actor=SYSTEM, collection="posts").items) == 1


@pytest.mark.parametrize("role", ["subscriber"])
def test_subscribers_see_no_content_screens(posts, as_role, role):
    client, _ = as_role(role)
    assert client.get("/_emdash/admin/content/posts/").status_code == 403
    assert client.get("/_emdash/admin/").status_code == 200


def test_unknown_collections_and_items_are_404(posts, as_role):
    client, _ = as_role("editor")
    assert client.get("/_emdash/admin/content/nope/").status_code == 404
    assert client.get("/_emdash/admin/content/posts/01J0000000000000000000000X/").status_code == 404


def test_restoring_an_unknown_revision_changes_nothing(posts, as_role):
    client, _ = as_role("editor")
    entry = make_entry(data={"title": "Stays"})
    response = client.post(
        "/_emdash/admin/revisions/NOPE/restore/", {"collection": "posts", "id": entry.id}, follow=True
    )
    assert "NOT_FOUND" in response.content.decode()
    assert _get(entry.id).to_dict()["data"]["title"] == "Stays"
    response = client.post("/_emdash/admin/revisions/NOPE/restore/", {"collection": "a/b", "id": ""})
    assert response["Location"] == "/_emdash/admin/"


def test_translations_are_listed_and_created_from_the_edit_page(posts, as_role):
    from django.test import override_settings

    client, _ = as_role("editor")
    with override_settings(EMDASH={"LOCALES": ["en", "fr"]}):
        entry = make_entry(data={"title": "Hello"})
        page = client.get(f"/_emdash/admin/content/posts/{entry.id}/").content.decode()
        assert "Translations" in page and "Create translation" in page
        response = client.post(f"/_emdash/admin/content/posts/{entry.id}/translate/", {"locale": "fr"})
        french_id = response["Location"].rstrip("/").split("/")[-1]
        french = _get(french_id)
        assert french.row.locale == "fr" and french.row.translation_group == entry.row.translation_group
        assert french.to_dict()["data"]["title"] == "Hello"
        response = client.post(f"/_emdash/admin/content/posts/{entry.id}/translate/", {"locale": "fr"}, follow=True)
        assert "CONFLICT" in response.content.decode()
        response = client.post(f"/_emdash/admin/content/posts/{entry.id}/translate/", {"locale": "xx"}, follow=True)
        assert "VALIDATION_ERROR" in response.content.decode()
