"""Redirects, per-item SEO, pending slugs and publishedAt over REST: shapes, refusals, nothing changed on errors."""

from __future__ import annotations

import pytest

from content.models import EntrySeo, Redirect
from tests.api.helpers import body, call, client_for
from tests.factories import SYSTEM, make_entry

API = "/_emdash/api/content/posts"
REDIRECTS = "/_emdash/api/redirects"


@pytest.fixture
def editor(posts):
    return client_for("editor")


def _published(client, title: str = "Hello", **extra) -> dict:
    created = body(call(client, "POST", API, {"data": {"title": title}, "status": "published", **extra}))
    return created["item"]


def test_a_slug_sent_with_an_edit_of_a_published_item_waits_for_publish(editor) -> None:
    item = _published(editor, "Hello")
    updated = call(editor, "PUT", f"{API}/{item['id']}", {"slug": "hello-again"})
    assert updated.status_code == 200
    assert body(updated)["item"]["slug"] == "hello" and body(updated)["item"]["draftSlug"] == "hello-again"
    anonymous = call(client_for("subscriber", "content:read"), "GET", f"{API}/hello")
    assert anonymous.status_code == 200 and "draftSlug" not in body(anonymous)["item"]
    diff = body(call(editor, "GET", f"{API}/{item['id']}/compare"))
    assert diff["liveSlug"] == "hello" and diff["draftSlug"] == "hello-again" and diff["hasChanges"] is True
    published = call(editor, "POST", f"{API}/{item['id']}/publish", {})
    assert published.status_code == 200 and body(published)["item"]["slug"] == "hello-again"
    listed = body(call(editor, "GET", REDIRECTS))["items"]
    assert [(r["source"], r["target"], r["kind"]) for r in listed] == [("/posts/hello/", "/posts/hello-again/", "auto")]


def test_publish_takes_published_at_and_an_empty_body(editor) -> None:
    first = body(call(editor, "POST", API, {"data": {"title": "Migrated"}}))["item"]
    bad = call(editor, "POST", f"{API}/{first['id']}/publish", {"publishedAt": "2019-05-01 09:00"})
    assert bad.status_code == 400 and "publishedAt" in body(bad)["error"]["details"]["fields"]
    assert body(call(editor, "GET", f"{API}/{first['id']}"))["item"]["status"] == "draft"
    ok = call(editor, "POST", f"{API}/{first['id']}/publish", {"publishedAt": "2019-05-01T09:00:00-05:00"})
    assert ok.status_code == 200 and body(ok)["item"]["publishedAt"] == "2019-05-01T14:00:00Z"
    second = body(call(editor, "POST", API, {"data": {"title": "Plain"}}))["item"]
    # A client that sends no body at all (curl -X POST) keeps working.
    empty = editor.generic("POST", f"{API}/{second['id']}/publish", b"")
    assert empty.status_code == 200 and body(empty)["item"]["status"] == "published"


def test_seo_on_create_and_update_and_bad_seo_refused(editor) -> None:
    item = body(call(editor, "POST", API, {"data": {"title": "S"}, "seo": {"title": "Search title"}}))["item"]
    assert item["seo"] == {"title": "Search title"}
    changed = call(editor, "PUT", f"{API}/{item['id']}", {"seo": {"description": "D", "title": None}})
    assert body(changed)["item"]["seo"] == {"description": "D"}
    for bad, field in (
        ({"canonical": "javascript:alert(1)"}, "seo.canonical"),
        ({"noindex": "yes"}, "seo.noindex"),
        ({"title": "x" * 201}, "seo.title"),
        ({"image": {"id": "01ZZZZZZZZZZZZZZZZZZZZZZZZ"}}, "seo.image.id"),
        ({"unknown": 1}, "seo.unknown"),
    ):
        response = call(editor, "PUT", f"{API}/{item['id']}", {"seo": bad, "data": {"title": "Changed"}})
        assert response.status_code == 400, bad
        assert field in body(response)["error"]["details"]["fields"], body(response)
    after = body(call(editor, "GET", f"{API}/{item['id']}"))["item"]
    assert after["seo"] == {"description": "D"} and after["data"]["title"] == "S"
    assert EntrySeo.objects.count() == 1


def test_redirects_create_list_delete_and_refusals(posts) -> None:
    editor, author = client_for("editor"), client_for("author")
    created = call(editor, "POST", REDIRECTS, {"source": "/old/", "target": "/posts/new/"})
    assert created.status_code == 201 and body(created)["source"] == "/old/"
    for bad in (
        {"source": "//evil.example/", "target": "/x/"},
        {"source": "/a/", "target": "https://evil.example/"},
        {"source": "/a/", "target": "//evil.example/"},
        {"source": "/_emdash/admin/", "target": "/x/"},
        {"source": "/a/"},
        {"source": "/a/", "target": "/b/", "extra": 1},
    ):
        response = call(editor, "POST", REDIRECTS, bad)
        assert response.status_code == 400 and body(response)["error"]["code"] == "VALIDATION_ERROR", bad
    duplicate = call(editor, "POST", REDIRECTS, {"source": "/old/", "target": "/y/"})
    assert duplicate.status_code == 409
    assert call(author, "POST", REDIRECTS, {"source": "/b/", "target": "/c/"}).status_code == 403
    assert call(author, "GET", REDIRECTS).status_code == 403
    narrow = client_for("editor", "content:read")
    assert call(narrow, "GET", REDIRECTS).status_code == 200
    assert call(narrow, "POST", REDIRECTS, {"source": "/b/", "target": "/c/"}).status_code == 403
    assert Redirect.objects.count() == 1
    rid = body(created)["id"]
    assert call(author, "DELETE", f"{REDIRECTS}/{rid}").status_code == 403
    assert call(editor, "DELETE", f"{REDIRECTS}/{rid}").status_code == 200
    assert call(editor, "DELETE", f"{REDIRECTS}/{rid}").status_code == 404
    assert not Redirect.objects.exists()


def test_an_author_cannot_move_someone_elses_published_url(posts) -> None:
    entry = make_entry(data={"title": "Theirs"}, status="published", by=SYSTEM)
    response = call(client_for("author"), "PUT", f"{API}/{entry.id}", {"slug": "mine-now"})
    assert response.status_code == 403 and not Redirect.objects.exists()
