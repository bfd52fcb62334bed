"""REST reads (item, list, search): validators, 304 before the body, who may cache, surrogate keys."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from content.entries import services
from tests.api.helpers import body, call, client_for
from tests.factories import SYSTEM

API = "/_emdash/api/content/posts"


@pytest.fixture
def published(posts):
    entry = services.entry_create(actor=SYSTEM, collection="posts", data={"title": "Hello"})
    services.entry_publish(actor=SYSTEM, collection="posts", id=entry.id)
    draft = services.entry_create(actor=SYSTEM, collection="posts", data={"title": "Secret"})
    return {"entry": entry, "draft": draft}


@pytest.mark.parametrize("path", [f"{API}/hello", f"{API}?limit=5", "/_emdash/api/search?q=hello"])
def test_anonymous_published_reads_are_public_with_validators(published, path) -> None:
    response = Client().get(path)
    assert response.status_code == 200, response.content
    assert response["Cache-Control"] == "public, max-age=60, s-maxage=300"
    assert response["ETag"].startswith('"') and response["Last-Modified"]
    assert "cookie" not in response.get("Vary", "").lower()
    assert response["Surrogate-Key"] and response["Cache-Tag"]


def test_item_keys_name_the_item_and_its_collection(published) -> None:
    response = Client().get(f"{API}/hello")
    assert set(response["Surrogate-Key"].split()) == {f"item:{published['entry'].id}", "collection:posts"}
    listing = Client().get(API)
    assert listing["Surrogate-Key"] == "collection:posts"


@pytest.mark.parametrize("path", [f"{API}/hello", f"{API}?limit=5", "/_emdash/api/search?q=hello"])
def test_conditional_reads_get_a_304_without_the_body_being_built(published, path) -> None:
    client = Client()
    first = client.get(path)
    with CaptureQueriesContext(connection) as captured:
        again = client.get(path, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == first["ETag"] and again["Cache-Control"] == first["Cache-Control"]
    # The item's revision columns and the change stamps, plus the schema stamp the tests read on every call
    # (SCHEMA_CHECK_SECONDS=0; a server trusts it for a second): never the body's queries.
    assert len(captured) <= 3, [q["sql"] for q in captured.captured_queries]
    assert client.get(path, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"]).status_code == 304
    assert client.get(path, HTTP_IF_NONE_MATCH='"stale"').status_code == 200


@pytest.mark.parametrize("path", [f"{API}/hello", f"{API}?limit=5", "/_emdash/api/search?q=hello"])
def test_failed_preconditions_on_a_read_are_412_as_on_public_pages(published, path) -> None:
    """RFC 9110 13.1.1 and 13.1.4: If-Match / If-Unmodified-Since that fail mean the method is not performed, a GET
    included; the public pages (Django's ConditionalGetMiddleware rules) already answered 412."""
    client = Client()
    first = client.get(path)
    refused = client.get(path, HTTP_IF_MATCH='"someone-elses"')
    assert refused.status_code == 412 and refused.content == b""
    assert refused["ETag"] == first["ETag"]
    assert client.get(path, HTTP_IF_UNMODIFIED_SINCE="Mon, 01 Jan 2001 00:00:00 GMT").status_code == 412
    held = client.get(path, HTTP_IF_MATCH=first["ETag"])
    assert held.status_code == 200 and held.content == first.content
    assert client.get(path, HTTP_IF_MATCH="*").status_code == 200
    assert client.get(path, HTTP_IF_UNMODIFIED_SINCE=first["Last-Modified"]).status_code == 200


def test_an_edit_changes_the_item_and_list_validators(published) -> None:
    client = Client()
    item, listing = client.get(f"{API}/hello"), client.get(API)
    entry = published["entry"]
    services.entry_update(actor=SYSTEM, collection="posts", id=entry.id, data={"title": "Hello again"})
    services.entry_publish(actor=SYSTEM, collection="posts", id=entry.id)
    assert client.get(f"{API}/{entry.id}", HTTP_IF_NONE_MATCH=item["ETag"]).status_code == 200
    fresh = client.get(API, HTTP_IF_NONE_MATCH=listing["ETag"])
    assert fresh.status_code == 200 and body(fresh)["items"][0]["data"]["title"] == "Hello again"


def test_authenticated_reads_are_private_without_keys(published) -> None:
    editor = client_for("editor")
    for path in (f"{API}/hello", API, f"{API}/{published['draft'].id}"):
        response = call(editor, "GET", path)
        assert response.status_code == 200
        assert response["Cache-Control"] == "private, no-cache" and "Surrogate-Key" not in response
        assert response["ETag"]
        assert call(editor, "GET", path).status_code == 200
        assert editor.get(path, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304


def test_drafts_stay_hidden_from_conditional_reads(published) -> None:
    draft = published["draft"].id
    response = Client().get(f"{API}/{draft}", HTTP_IF_NONE_MATCH="*")
    assert response.status_code == 404


def test_editor_and_public_views_of_one_item_differ(published) -> None:
    public = Client().get(f"{API}/hello")["ETag"]
    editor = client_for("editor").get(f"{API}/hello")["ETag"]
    assert public != editor


def test_the_max_ages_come_from_settings(published, settings) -> None:
    settings.EMDASH = {**settings.EMDASH, "HTTP_CACHE_MAX_AGE": 5, "HTTP_CACHE_S_MAXAGE": 600}
    assert Client().get(API)["Cache-Control"] == "public, max-age=5, s-maxage=600"


def test_assigning_terms_moves_the_item_validator(published) -> None:
    from taxonomy import services as taxonomy_services

    client = Client()
    first = client.get(f"{API}/hello")
    taxonomy_services.term_create(actor=SYSTEM, taxonomy="category", slug="news", label="News")
    taxonomy_services.entry_terms_set(
        actor=SYSTEM, collection="posts", id=published["entry"].id, taxonomy="category", terms=["news"]
    )
    again = client.get(f"{API}/hello", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and again["ETag"] != first["ETag"]


@pytest.mark.parametrize("path", [f"{API}/hello", f"{API}?limit=5", "/_emdash/api/search?q=hello", "/posts/hello/"])
def test_anonymous_304s_are_answered_before_sessions_auth_and_views(published, path, monkeypatch) -> None:
    """EarlyNotModifiedMiddleware: the 304 costs the URL match and the validators, nothing further down."""
    from django.contrib.auth.middleware import AuthenticationMiddleware

    etag = Client().get(path)["ETag"]

    def refuse(*args, **kwargs):
        raise AssertionError("the conditional GET went down the chain")

    monkeypatch.setattr(AuthenticationMiddleware, "process_request", refuse)
    response = Client().get(path, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 304 and response["ETag"] == etag
    assert response["Cache-Control"].startswith("public")


@pytest.mark.parametrize("path", [f"{API}/hello", f"{API}?limit=5"])
def test_a_schema_change_moves_last_modified_as_it_moves_the_etag(published, path) -> None:
    """A client revalidating with If-Modified-Since alone must not keep an item read from before a field was added
    (the new field shows in every item's data)."""
    from datetime import UTC, datetime

    from content.models import ChangeStamp, Collection
    from content.schema import services as schema_services
    from content.schema import specs as schema

    long_ago = datetime(2020, 1, 1, tzinfo=UTC)
    schema.get_collection("posts").model.objects.update(updated_at=long_ago)
    ChangeStamp.objects.update(changed_at=long_ago)
    Collection.objects.update(updated_at=long_ago)
    schema.invalidate()
    since = "Wed, 01 Jan 2020 00:00:01 GMT"
    client = Client()
    assert client.get(path, HTTP_IF_MODIFIED_SINCE=since).status_code == 304
    schema_services.field_create(actor=SYSTEM, collection="posts", slug="subtitle", label="Subtitle", type="string")
    again = client.get(path, HTTP_IF_MODIFIED_SINCE=since)
    assert again.status_code == 200, again.status_code
    assert "subtitle" in str(body(again))


@pytest.mark.parametrize(
    "path", [f"{API}/hello", f"{API}?limit=5", "/_emdash/api/search?q=hello", "/posts/hello/", "/"]
)
def test_a_412_is_never_kept_by_a_shared_cache(published, path) -> None:
    """A failed If-Match is an answer to that one request: marked public with s-maxage and surrogate keys, a CDN
    (whose cache key ignores If-Match) could keep the empty 412 and hand it to every visitor of the URL."""
    refused = Client().get(path, HTTP_IF_MATCH='"someone-elses"')
    assert refused.status_code == 412
    assert refused["Cache-Control"] == "private, no-store"
    assert "Surrogate-Key" not in refused and "Cache-Tag" not in refused
    late = Client().get(path, HTTP_IF_UNMODIFIED_SINCE="Mon, 01 Jan 2001 00:00:00 GMT")
    assert late.status_code == 412 and late["Cache-Control"] == "private, no-store"
    assert Client().get(path)["Cache-Control"].startswith("public")  # the 200 is unchanged


def test_a_write_guarded_by_a_stale_if_match_is_refused_and_changes_nothing(published) -> None:
    """RFC 9110 13.1.1: a client that read the item, then PUTs or DELETEs it with If-Match, must not overwrite an
    edit made in between (the lost update); the item's current ETag (as this caller reads it) lets the write through."""
    editor = client_for("editor")
    entry = published["entry"]
    item = f"{API}/{entry.id}"
    first = editor.get(item)
    services.entry_update(actor=SYSTEM, collection="posts", id=entry.id, data={"title": "Someone else's edit"})
    stale = editor.put(
        item, b'{"data": {"title": "Mine"}}', content_type="application/json", HTTP_IF_MATCH=first["ETag"]
    )
    assert stale.status_code == 412, stale.content
    assert body(stale)["error"]["code"] == "PRECONDITION_FAILED"
    assert stale["Cache-Control"] == "private, no-store"
    assert body(editor.get(item))["item"]["data"]["title"] == "Someone else's edit"
    gone = editor.delete(item, HTTP_IF_MATCH=first["ETag"])
    assert gone.status_code == 412 and editor.get(item).status_code == 200
    late = editor.put(
        item,
        b'{"data": {"title": "Mine"}}',
        content_type="application/json",
        HTTP_IF_UNMODIFIED_SINCE="Mon, 01 Jan 2001 00:00:00 GMT",
    )
    assert late.status_code == 412
    current = editor.get(item)["ETag"]
    held = editor.put(item, b'{"data": {"title": "Mine"}}', content_type="application/json", HTTP_IF_MATCH=current)
    assert held.status_code == 200, held.content
    assert body(editor.get(item))["item"]["data"]["title"] == "Mine"
    assert (
        editor.put(item, b'{"data": {"title": "Any"}}', content_type="application/json", HTTP_IF_MATCH="*").status_code
        == 200
    )


def test_a_caller_who_may_not_write_learns_that_before_any_precondition(published) -> None:
    reader = client_for("subscriber", scopes="content:read")
    item = f"{API}/{published['entry'].id}"
    refused = reader.put(item, b'{"data": {"title": "x"}}', content_type="application/json", HTTP_IF_MATCH='"stale"')
    assert refused.status_code == 403
