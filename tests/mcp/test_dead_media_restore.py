"""A revision naming a media item deleted since (a forced media_delete) is restored without it, as dead links are
(content/entries/dead_media.py): the value is cleared (a required one keeps the item's current value), the inline
image leaves the text, and the answer says what was left out. MCP, REST and the admin alike."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.test import Client

from content.entries import services
from content.models import Revision
from media import services as media_services
from tests.api.helpers import body, call, client_for
from tests.factories import SYSTEM, make_collection, make_user
from tests.mcp.conftest import MCP
from tests.media.helpers import media_rows

pytestmark = pytest.mark.django_db
GONE, KEPT = "01ARZ3NDEKTSV4RRFFQ69G5FB1", "01ARZ3NDEKTSV4RRFFQ69G5FB2"
TEXT = {"_type": "block", "_key": "t1", "style": "normal", "children": [{"_type": "span", "text": "Words"}]}
IMAGE = {"_type": "image", "_key": "i1", "asset": {"id": GONE}}


@pytest.fixture
def history(cms: None) -> tuple[str, str]:
    """An item whose first revision shows GONE everywhere, then edited to KEPT; GONE deleted by force. Returns
    (item id, the first revision's id)."""
    media_rows(GONE, KEPT)
    make_collection(
        "gallery",
        fields=[
            {"slug": "title", "label": "Title", "type": "string", "required": True},
            {"slug": "cover", "label": "Cover", "type": "image"},
            {"slug": "hero", "label": "Hero", "type": "image", "required": True},
            {"slug": "body", "label": "Body", "type": "portableText"},
        ],
    )
    first = {"title": "First", "cover": {"id": GONE}, "hero": {"id": GONE}, "body": [TEXT, IMAGE]}
    entry = services.entry_create(actor=SYSTEM, collection="gallery", data=first)
    later = {"title": "Later", "cover": {"id": KEPT}, "hero": {"id": KEPT}, "body": [TEXT]}
    services.entry_update(actor=SYSTEM, collection="gallery", id=entry.id, data=later)
    revision = Revision.objects.filter(entry_id=entry.id).order_by("created_at", "id").values_list("id", flat=True)[0]
    media_services.media_delete(actor=SYSTEM, id=GONE, force=True)
    return entry.id, revision


DROPPED = [
    {"field": "cover", "mediaId": GONE},
    {"field": "hero", "mediaId": GONE},
    {"field": "body", "mediaId": GONE},
]


def _check(result: dict[str, Any]) -> None:
    data = result["item"]["data"]
    assert data["title"] == "First" and data["cover"] is None
    assert data["hero"]["id"] == KEPT  # required: keeps the item's current value rather than being refused
    assert [block["_type"] for block in data["body"]] == ["block"]  # the text stays, its image goes
    assert result["droppedMedia"] == DROPPED
    assert GONE in result["note"] and "cover" in result["note"]


def test_mcp_restores_the_revision_without_the_deleted_media_and_says_so(history: tuple[str, str], mcp: MCP) -> None:
    item, revision = history
    _check(mcp.ok("revision_restore", {"revisionId": revision}))
    assert mcp.ok("content_get", {"collection": "gallery", "id": item})["item"]["data"]["cover"] is None


def test_rest_restores_the_revision_without_the_deleted_media(history: tuple[str, str]) -> None:
    _item, revision = history
    response = call(client_for("editor"), "POST", f"/_emdash/api/revisions/{revision}/restore")
    assert response.status_code == 200, response.content
    _check(body(response))


def test_the_admin_restores_the_revision_and_warns_of_the_deleted_media(history: tuple[str, str]) -> None:
    item, revision = history
    client = Client()
    client.force_login(make_user("editor"))
    done = client.post(f"/_emdash/admin/revisions/{revision}/restore/", {"collection": "gallery", "id": item})
    assert done.status_code == 302 and done["Location"].endswith(f"/content/gallery/{item}/")
    shown = [str(m) for m in get_messages(done.wsgi_request)]
    assert any(GONE in m and "cover" in m for m in shown), shown


def test_a_restore_with_every_media_item_still_there_says_nothing(cms: None, mcp: MCP) -> None:
    media_rows(GONE)
    fields = [{"slug": "title", "label": "T", "type": "string"}, {"slug": "cover", "label": "C", "type": "image"}]
    make_collection("gallery", fields=fields)
    entry = services.entry_create(actor=SYSTEM, collection="gallery", data={"title": "A", "cover": {"id": GONE}})
    services.entry_update(actor=SYSTEM, collection="gallery", id=entry.id, data={"title": "B", "cover": None})
    revision = mcp.ok("revision_list", {"collection": "gallery", "id": entry.id})["items"][-1]["id"]
    restored = mcp.ok("revision_restore", {"revisionId": revision})
    assert restored["item"]["data"]["cover"]["id"] == GONE and "droppedMedia" not in restored and "note" not in restored
