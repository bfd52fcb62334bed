"""Image and file fields must name existing media items (issue 10 item 12): a missing id is a
VALIDATION_ERROR naming the field, on MCP and REST, checked with one query per write."""

from __future__ import annotations

import orjson
import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.tokens import token_create
from tests.factories import make_collection, make_user
from tests.media.helpers import media_rows

MISSING = "01ZZZZZZZZZZZZZZZZZZZZZZZZ"
IMG, DOC = "01ARZ3NDEKTSV4RRFFQ69G5FAV", "01ARZ3NDEKTSV4RRFFQ69G5FAW"


@pytest.fixture
def gallery(cms):
    media_rows(IMG, DOC)
    return make_collection(
        "gallery",
        fields=[
            {"slug": "title", "label": "Title", "type": "string"},
            {"slug": "cover", "label": "Cover", "type": "image"},
            {"slug": "thumb", "label": "Thumb", "type": "image"},
            {"slug": "attachment", "label": "Attachment", "type": "file"},
        ],
    )


def rest() -> Client:
    raw = token_create(user=make_user("admin"), name="t", scopes="admin").raw
    return Client(headers={"Authorization": f"Bearer {raw}"})


def test_rest_refuses_a_missing_media_id_and_names_the_field(gallery) -> None:
    client = rest()
    data = {"title": "T", "cover": {"id": IMG}, "thumb": {"id": MISSING}, "attachment": {"id": "not-an-id"}}
    response = client.post("/_emdash/api/content/gallery", {"data": data}, content_type="application/json")
    assert response.status_code == 400
    error = orjson.loads(response.content)["error"]
    assert error["code"] == "VALIDATION_ERROR"
    assert error["details"]["fields"] == {
        "data.thumb": f"no media item with id '{MISSING}'",
        "data.attachment": "no media item with id 'not-an-id'",
    }
    assert client.get("/_emdash/api/content/gallery").json()["items"] == []


def test_rest_update_is_checked_too(gallery) -> None:
    client = rest()
    created = client.post(
        "/_emdash/api/content/gallery", {"data": {"title": "T", "cover": {"id": IMG}}}, content_type="application/json"
    )
    assert created.status_code == 201, created.content
    item_id = created.json()["item"]["id"]
    response = client.put(
        f"/_emdash/api/content/gallery/{item_id}", {"data": {"cover": {"id": MISSING}}}, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["details"]["fields"] == {"data.cover": f"no media item with id '{MISSING}'"}


def test_mcp_refuses_a_missing_media_id(gallery, mcp) -> None:
    result = mcp.fails("content_create", {"collection": "gallery", "data": {"title": "T", "cover": {"id": MISSING}}})
    assert result["_meta"]["code"] == "VALIDATION_ERROR"
    assert result["_meta"]["details"]["fields"] == {"data.cover": f"no media item with id '{MISSING}'"}
    assert "data.cover" in result["content"][0]["text"]


def test_existing_ids_in_any_case_pass_with_one_media_query(gallery, mcp) -> None:
    """One query checks the write's references; one more reads their details for the item it answers; after the
    commit, the usage index checks once whether the newly used items changed since the write (media/usage.py
    ``_recheck``)."""
    data = {"title": "T", "cover": {"id": IMG}, "thumb": {"id": IMG.lower()}, "attachment": {"id": DOC}}
    with CaptureQueriesContext(connection) as queries:
        result = mcp.call("content_create", {"collection": "gallery", "data": data})
    assert result["isError"] is False, result
    media_queries = [q["sql"] for q in queries.captured_queries if "media_mediaitem" in q["sql"]]
    assert len(media_queries) == 3, media_queries
    assert media_queries[0].startswith('SELECT "media_mediaitem"."id" AS "id" FROM'), media_queries[0]
    assert media_queries[2].startswith('SELECT id, updated_at FROM "media_mediaitem"'), media_queries[2]
    assert orjson.loads(result["content"][0]["text"])["item"]["data"]["thumb"]["url"].endswith(f"{IMG}.png")
