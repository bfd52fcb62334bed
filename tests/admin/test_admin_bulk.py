"""Bulk actions on a content list: every item through the operation pipeline (permissions, audit), one report."""

from __future__ import annotations

import pytest

from audit.models import AuditLog
from content.entries import selectors
from taxonomy import selectors as taxonomy_selectors
from taxonomy import services as taxonomy_services
from tests.factories import SYSTEM, actor, make_entry

URL = "/_emdash/admin/content/posts/rows/bulk/"


def _status(id: str) -> str:
    return selectors.entry_get(actor=SYSTEM, collection="posts", id=id).row.status


def _categories(id: str) -> list[str]:
    return sorted(
        t["slug"] for t in taxonomy_selectors.entry_terms(actor=SYSTEM, collection="posts", id=id).get("category", [])
    )


def test_the_list_offers_a_selection_column_and_the_action_bar(posts, as_role):
    news = taxonomy_services.term_create(actor=SYSTEM, taxonomy="category", slug="news", label="News")
    entry = make_entry(data={"title": "Pick me"})
    client, _ = as_role("author")
    page = client.get("/_emdash/admin/content/posts/").content.decode()
    assert f'name="ids" value="{entry.id}" form="bulk-form"' in page and 'aria-label="Select Pick me"' in page
    assert 'value="publish"' in page and f'value="category:{news.id}"' in page and "data-bulk-all" in page
    rows = client.get("/_emdash/admin/content/posts/rows/").content.decode()  # the live refresh keeps the boxes
    assert f'value="{entry.id}" form="bulk-form"' in rows
    reader, _ = as_role("contributor")  # may read drafts, may not change items: no selection, no bar
    page = reader.get("/_emdash/admin/content/posts/").content.decode()
    assert "bulk-form" not in page and 'name="ids"' not in page


def test_bulk_publish_runs_each_item_through_the_pipeline_and_reports(posts, as_role):
    client, user = as_role("editor")
    entries = [make_entry(data={"title": f"Draft {n}"}) for n in range(3)]
    response = client.post(URL, {"action": "publish", "ids": [e.id for e in entries], "query": "status=draft"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "3 of 3 posts published." in page and "could not" not in page
    assert 'href="/_emdash/admin/content/posts/?status=draft"' in page  # back to the filtered list
    assert all(_status(e.id) == "published" for e in entries)
    rows = AuditLog.objects.filter(user=user, source="admin", action="content_publish", outcome="ok")
    assert sorted(r.target for r in rows) == sorted(f"posts/{e.id}" for e in entries)

    response = client.post(URL, {"action": "unpublish", "ids": [entries[0].id]})
    assert "1 of 1 posts unpublished." in response.content.decode() and _status(entries[0].id) == "draft"
    response = client.post(URL, {"action": "trash", "ids": [entries[1].id, entries[2].id]})
    assert "2 of 2 posts moved to the trash." in response.content.decode()
    assert selectors.entry_list_trashed(actor=SYSTEM, collection="posts").present().items.__len__() == 2


def test_an_author_bulk_publishing_someone_elses_post_gets_a_plain_refusal_for_that_item_only(posts, as_role):
    client, author = as_role("author")
    mine = make_entry(by=actor(author), data={"title": "My post"})
    theirs = make_entry(data={"title": "Their post"})  # owned by the system user
    response = client.post(URL, {"action": "publish", "ids": [mine.id, theirs.id]})
    page = response.content.decode()
    assert "1 of 2 posts published." in page and "1 could not be published:" in page
    assert (
        "<strong>Their post</strong>: Insufficient permissions: changing content owned by someone else requires "
        "the editor role." in page
    )
    assert "INSUFFICIENT" not in page and "content.edit" not in page  # no codes or internal names
    assert _status(mine.id) == "published" and _status(theirs.id) == "draft"
    outcomes = sorted(AuditLog.objects.filter(user=author, action="content_publish").values_list("outcome", flat=True))
    assert outcomes == ["INSUFFICIENT_PERMISSIONS", "ok"]  # one audit row per item, the refusal included


def test_an_unknown_item_is_reported_and_the_others_still_change(posts, as_role):
    client, _ = as_role("editor")
    entry = make_entry(data={"title": "Real"})
    page = client.post(URL, {"action": "publish", "ids": ["01NOSUCHITEM0000000000000", entry.id]}).content.decode()
    assert "1 of 2 posts published." in page and "01NOSUCHITEM0000000000000" in page
    assert _status(entry.id) == "published"


def test_bulk_assign_adds_a_term_and_keeps_the_others(posts, as_role):
    for slug in ("news", "local"):
        taxonomy_services.term_create(actor=SYSTEM, taxonomy="category", slug=slug, label=slug.title())
    client, _ = as_role("editor")
    tagged, plain = make_entry(data={"title": "Tagged"}), make_entry(data={"title": "Plain"})
    taxonomy_services.entry_terms_set(
        actor=SYSTEM, collection="posts", id=tagged.id, taxonomy="category", terms=["local"]
    )
    page = client.post(
        URL, {"action": "assign", "term": "category:news", "ids": [tagged.id, plain.id]}
    ).content.decode()
    assert "2 of 2 posts given the term “News”." in page
    assert _categories(tagged.id) == ["local", "news"] and _categories(plain.id) == ["news"]
    again = client.post(URL, {"action": "assign", "term": "category:news", "ids": [plain.id]}).content.decode()
    assert "1 of 1 posts given the term" in again and _categories(plain.id) == ["news"]  # no duplicate


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"action": "explode"}, "Choose what to do with the selected items."),
        ({"action": "publish", "ids": []}, "Select at least one item first."),
        ({"action": "assign", "term": "category:nope"}, "Choose an existing term to assign."),
        ({"action": "assign", "term": "nonsense"}, "Choose an existing term to assign."),
        ({"action": "assign"}, "Choose an existing term to assign."),
    ],
)
def test_bad_bulk_input_changes_nothing(posts, as_role, form, message):
    client, _ = as_role("editor")
    entry = make_entry(data={"title": "Untouched"})
    form = {"ids": [entry.id], **form}
    response = client.post(URL, form, follow=True)
    assert response.redirect_chain[0][0] == "/_emdash/admin/content/posts/"
    assert message in response.content.decode()
    assert _status(entry.id) == "draft" and _categories(entry.id) == []
    assert not AuditLog.objects.filter(action__in=["content_publish", "content_terms_set"]).exists()


def test_too_many_items_at_once_are_refused(posts, as_role):
    client, _ = as_role("editor")
    response = client.post(URL, {"action": "publish", "ids": [f"id{n}" for n in range(101)]}, follow=True)
    assert "Select at most 100 items at a time." in response.content.decode()


def test_bulk_needs_a_role_that_changes_content_and_a_post(posts, as_role):
    entry = make_entry(data={"title": "Guarded"})
    client, _ = as_role("contributor")
    assert client.post(URL, {"action": "publish", "ids": [entry.id]}).status_code == 403
    assert _status(entry.id) == "draft"
    editor, _ = as_role("editor")
    assert editor.get(URL).status_code == 405


def test_an_author_cannot_bulk_assign_terms_to_someone_elses_post(posts, as_role):
    taxonomy_services.term_create(actor=SYSTEM, taxonomy="category", slug="news", label="News")
    client, author = as_role("author")
    mine, theirs = make_entry(by=actor(author), data={"title": "Mine"}), make_entry(data={"title": "Theirs"})
    taxonomy_services.entry_terms_set(
        actor=SYSTEM, collection="posts", id=theirs.id, taxonomy="category", terms=["news"]
    )
    page = client.post(URL, {"action": "assign", "term": "category:news", "ids": [mine.id, theirs.id]}).content.decode()
    # Refused even though the term is already there: the write checks the right to change the item.
    assert "1 of 2 posts given the term “News”." in page and "<strong>Theirs</strong>: Insufficient permissions" in page
    assert _categories(mine.id) == ["news"]
