"""Content over REST (SPEC 8): CRUD, the lifecycle actions, revisions, translations, terms, visibility."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.tokens import token_create
from emdash.actor import Actor
from tests.api.helpers import body, call, client_for, session_client, token_client
from tests.factories import SYSTEM, make_entry, make_user

API = "/_emdash/api/content/posts"


@pytest.fixture
def editor(posts):
    return client_for("editor")


def _create(client: Client, title: str = "Hello", **extra) -> dict:
    response = call(client, "POST", API, {"data": {"title": title}, **extra})
    assert response.status_code == 201, response.content
    return body(response)


def test_create_get_update_with_rev_and_409_on_a_stale_rev(editor) -> None:
    created = _create(editor, "First post")
    item, rev = created["item"], created["_rev"]
    assert item["slug"] == "first-post" and item["status"] == "draft"
    got = body(call(editor, "GET", f"{API}/first-post"))
    assert got["item"]["id"] == item["id"] and got["_rev"] == rev and got["item"]["terms"] == {}
    updated = call(editor, "PUT", f"{API}/{item['id']}", {"data": {"title": "Renamed"}, "_rev": rev})
    assert updated.status_code == 200, updated.content
    stale = call(editor, "PUT", f"{API}/{item['id']}", {"data": {"title": "Lost"}, "_rev": rev})
    assert stale.status_code == 409 and body(stale)["error"]["code"] == "CONFLICT"
    assert body(call(editor, "GET", f"{API}/{item['id']}"))["item"]["data"]["title"] == "Renamed"


def test_bad_input_is_a_validation_error_and_writes_nothing(editor) -> None:
    response = call(editor, "POST", API, {"data": {"title": "x", "nope": 1}})
    assert response.status_code == 400 and body(response)["error"]["code"] == "VALIDATION_ERROR"
    response = call(editor, "POST", API, {"data": {"title": "x"}, "extra": True})
    assert response.status_code == 400 and "extra" in body(response)["error"]["details"]["fields"]
    response = editor.post(API, data=b"{not json", content_type="application/json")
    assert response.status_code == 400 and body(response)["error"]["code"] == "VALIDATION_ERROR"
    response = editor.post(API, data=b"[1]", content_type="application/json")
    assert response.status_code == 400
    assert body(call(editor, "GET", API))["items"] == []


def test_list_filters_order_and_cursor_pagination(editor) -> None:
    for n in range(5):
        _create(editor, f"Post {n}", status="published" if n % 2 == 0 else "draft")
    first = body(call(editor, "GET", API, {"limit": 2, "orderBy": "title", "order": "asc"}))
    assert [i["data"]["title"] for i in first["items"]] == ["Post 0", "Post 1"]
    second = body(
        call(editor, "GET", API, {"limit": 2, "orderBy": "title", "order": "asc", "cursor": first["nextCursor"]})
    )
    assert [i["data"]["title"] for i in second["items"]] == ["Post 2", "Post 3"]
    published = body(call(editor, "GET", API, {"status": "published"}))["items"]
    assert len(published) == 3
    for bad in ({"status": "gone"}, {"limit": 0}, {"limit": "many"}, {"orderBy": "secret"}, {"cursor": "garbage"}):
        response = call(editor, "GET", API, bad)
        assert response.status_code == 400, bad
        assert body(response)["error"]["code"] in ("VALIDATION_ERROR", "INVALID_CURSOR")


def test_anonymous_and_subscribers_see_published_items_only(posts) -> None:
    live = make_entry(data={"title": "Live"}, status="published")
    draft = make_entry(data={"title": "Secret draft"})
    for client in (Client(), client_for("subscriber", "content:read")):
        items = body(call(client, "GET", API))["items"]
        assert [i["id"] for i in items] == [live.id]
        assert call(client, "GET", f"{API}/{live.row.slug}").status_code == 200
        hidden = call(client, "GET", f"{API}/{draft.id}")
        assert hidden.status_code == 404 and body(hidden)["error"]["code"] == "NOT_FOUND"
        assert "Secret" not in hidden.content.decode()
        assert body(call(client, "GET", API, {"status": "draft"}))["items"] == []


def test_lifecycle_actions(editor) -> None:
    item = _create(editor, "Cycle")["item"]
    path = f"{API}/{item['id']}"
    assert body(call(editor, "POST", f"{path}/publish"))["item"]["status"] == "published"
    call(editor, "PUT", path, {"data": {"title": "Cycle v2"}})
    compare = body(call(editor, "GET", f"{path}/compare"))
    assert compare["hasChanges"] is True and compare["draft"]["title"] == "Cycle v2"
    assert body(call(editor, "POST", f"{path}/discard-draft"))["item"]["data"]["title"] == "Cycle"
    assert body(call(editor, "POST", f"{path}/unpublish"))["item"]["status"] == "draft"
    scheduled = call(editor, "POST", f"{path}/schedule", {"scheduledAt": "2099-01-01T09:00:00Z"})
    assert body(scheduled)["item"]["status"] == "scheduled"
    past = call(editor, "POST", f"{path}/schedule", {"scheduledAt": "2001-01-01T09:00:00Z"})
    assert past.status_code == 400
    assert body(call(editor, "POST", f"{path}/unschedule"))["item"]["scheduledAt"] is None
    copy = call(editor, "POST", f"{path}/duplicate")
    assert copy.status_code == 201 and body(copy)["item"]["data"]["title"] == "Cycle (Copy)"
    translations = body(call(editor, "GET", f"{path}/translations"))
    assert [t["id"] for t in translations["translations"]] == [item["id"]]


def test_trash_restore_and_permanent_delete(editor) -> None:
    item = _create(editor, "Doomed")["item"]
    path = f"{API}/{item['id']}"
    assert body(call(editor, "DELETE", path)) == {"deleted": True}
    assert call(editor, "GET", path).status_code == 404
    assert [i["id"] for i in body(call(editor, "GET", f"{API}/trash"))["items"]] == [item["id"]]
    assert body(call(editor, "POST", f"{path}/restore"))["restored"] is True
    call(editor, "DELETE", path)
    denied = call(editor, "DELETE", f"{path}/permanent")
    assert denied.status_code == 403 and body(denied)["error"]["code"] == "INSUFFICIENT_PERMISSIONS"
    assert body(call(client_for("admin"), "DELETE", f"{path}/permanent")) == {"deleted": True}
    assert body(call(editor, "GET", f"{API}/trash"))["items"] == []


def test_revisions_list_and_restore(editor) -> None:
    item = _create(editor, "Rev 1")["item"]
    path = f"{API}/{item['id']}"
    call(editor, "PUT", path, {"data": {"title": "Rev 2"}})
    revisions = body(call(editor, "GET", f"{path}/revisions", {"limit": 10}))
    assert revisions["total"] >= 2
    oldest = revisions["items"][-1]
    restored = call(editor, "POST", f"/_emdash/api/revisions/{oldest['id']}/restore")
    assert restored.status_code == 200 and body(restored)["item"]["data"]["title"] == "Rev 1"
    assert "_rev" in body(restored)


def test_authors_edit_their_own_items_only(posts) -> None:
    author = make_user("author")
    mine = make_entry(data={"title": "Mine"}, by=Actor.for_user(author))
    theirs = make_entry(data={"title": "Theirs"}, by=SYSTEM)
    client = token_client(author, "content:write content:read")
    assert call(client, "PUT", f"{API}/{mine.id}", {"data": {"title": "Mine 2"}}).status_code == 200
    response = call(client, "PUT", f"{API}/{theirs.id}", {"data": {"title": "Hijack"}})
    assert response.status_code == 403 and body(response)["error"]["code"] == "INSUFFICIENT_PERMISSIONS"


def test_term_assignment(editor) -> None:
    item = _create(editor, "Tagged")["item"]
    call(editor, "POST", "/_emdash/api/taxonomies/tag/terms", {"slug": "django", "label": "Django"})
    path = f"{API}/{item['id']}/terms/tag"
    response = call(editor, "PUT", path, {"terms": ["django"]})
    assert response.status_code == 200, response.content
    assert [t["slug"] for t in body(response)["terms"]] == ["django"]
    assert [t["slug"] for t in body(call(editor, "GET", path))["terms"]] == ["django"]
    assert call(editor, "PUT", path, {"terms": ["nope"]}).status_code == 400
    assert call(editor, "PUT", path, {"terms": "django"}).status_code == 400
    assert [t["slug"] for t in body(call(editor, "GET", path))["terms"]] == ["django"]  # unchanged
    assert call(editor, "GET", f"{API}/{item['id']}/terms/zz_missing").status_code == 404
    assert call(Client(), "GET", path).status_code == 404  # a draft's terms are as hidden as the draft


def test_session_writes_need_csrf_and_a_bad_bearer_never_falls_back(posts) -> None:
    user = make_user("editor")
    strict = session_client(user, enforce_csrf=True)
    response = call(strict, "POST", API, {"data": {"title": "x"}})
    assert response.status_code == 403 and body(response)["error"]["code"] == "CSRF_FAILED"
    strict.get("/_emdash/api/content/posts")  # reading needs no token
    relaxed = session_client(user)
    assert call(relaxed, "POST", API, {"data": {"title": "Via session"}}).status_code == 201
    relaxed.defaults["HTTP_AUTHORIZATION"] = "Bearer ec_pat_wrong"
    response = call(relaxed, "GET", f"{API}/via-session")
    assert response.status_code == 401 and 'error="invalid_token"' in response["WWW-Authenticate"]
    relaxed.defaults["HTTP_AUTHORIZATION"] = "Basic abc"
    assert call(relaxed, "GET", API).status_code == 401


def test_method_not_allowed_and_unknown_collection(editor) -> None:
    response = call(editor, "PATCH", f"{API}/x", {})
    assert response.status_code == 405 and body(response)["error"]["code"] == "METHOD_NOT_ALLOWED"
    response = call(editor, "GET", "/_emdash/api/content/nothing_here")
    assert response.status_code == 404 and body(response)["error"]["code"] == "COLLECTION_NOT_FOUND"


def test_unexpected_errors_are_500_with_a_trace_id_and_no_details(editor, monkeypatch, caplog) -> None:
    from dataclasses import replace

    from emdash.operations import TABLE, load

    def boom(**kwargs):
        raise RuntimeError("SELECT secret FROM users")

    load()  # the REST view runs the table's record: swap its service
    monkeypatch.setitem(TABLE, "content_list", replace(TABLE["content_list"], service=boom))
    response = call(editor, "GET", API)
    assert response.status_code == 500
    error = body(response)["error"]
    assert error["code"] == "INTERNAL_ERROR" and len(error["traceId"]) == 24
    assert "secret" not in response.content.decode()
    assert error["traceId"] in caplog.text


def test_tokens_in_the_query_string_are_ignored_and_head_follows_get(posts) -> None:
    make_entry(data={"title": "Draft only"})
    secret = token_create(user=make_user("admin"), name="q", scopes="admin").raw
    response = Client().get(API, {"access_token": secret, "token": secret})
    assert response.status_code == 200 and body(response)["items"] == []  # treated as anonymous
    assert Client().head(API).status_code == 200
    assert Client().head("/_emdash/api/settings").status_code == 401
