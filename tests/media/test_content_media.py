"""Image and file values in content results carry their media's details (SPEC 11 "Responsive markup"): url, size,
alt, placeholders, renditions and srcset, over MCP, REST and the template query API, read with one media query
for a whole page; writes never store those details; S3 urls are the stable public ones."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

import jsonschema
import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from content.entries import services
from content.media_values import MediaValue
from emdash.actor import Actor
from emdash.operations.typed import schema_of
from media import services as media_services
from media.models import MediaItem
from public_site import query
from tests.factories import make_collection
from tests.mcp.conftest import MCP
from tests.media.helpers import PDF, image_bytes, make_media
from tests.media.storages import use_s3
from tests.media.test_tools import structured

pytestmark = pytest.mark.django_db
SYSTEM = Actor.system()
VALUE_SCHEMA = schema_of(MediaValue, "a media value")
STRICT_VALUE = {**VALUE_SCHEMA, "additionalProperties": False}


def _image(size: tuple[int, int] = (1000, 500), **extra: Any) -> MediaItem:
    return make_media(SYSTEM, content=image_bytes("JPEG", size), mime_type="image/jpeg", **extra)


def _inline(media_id: str, **extra: Any) -> dict[str, Any]:
    return {"_type": "image", "_key": f"i{media_id[-4:]}", "asset": {"id": media_id}, **extra}


@pytest.fixture
def posts(cms) -> Any:
    return make_collection(
        "posts",
        fields=[
            {"slug": "title", "label": "Title", "type": "string"},
            {"slug": "cover", "label": "Cover", "type": "image"},
            {"slug": "attachment", "label": "Attachment", "type": "file"},
            {"slug": "body", "label": "Body", "type": "portableText"},
        ],
    )


def _publish(data: dict[str, Any]) -> Any:
    entry = services.entry_create(actor=SYSTEM, collection="posts", data=data)
    return services.entry_publish(actor=SYSTEM, collection="posts", id=entry.id)


def _check_value(value: dict[str, Any], item: MediaItem) -> None:
    jsonschema.validate(value, STRICT_VALUE)
    assert value["id"] == item.id and value["width"] == item.width and value["height"] == item.height
    assert value["url"].endswith(item.storage_key) and value["mimeType"] == item.mime_type
    if value["renditions"] is not None:
        assert set(value["renditions"]) == {"thumbnail", "medium", "large", "openGraph"}
        assert value["srcset"].endswith(f" {item.width}w")
        assert value["blurhash"] == item.blurhash and value["dominantColor"] == item.dominant_color


def test_mcp_get_shows_image_file_and_inline_images_with_their_details(posts: Any, mcp: MCP) -> None:
    cover, inline = _image(alt="The sea"), _image((300, 200))
    pdf = make_media(SYSTEM, content=PDF, mime_type="application/pdf")
    entry = _publish(
        {
            "title": "T",
            "cover": {"id": cover.id},
            "attachment": {"id": pdf.id},
            "body": [_inline(inline.id, alt="Own words")],
        }
    )
    got = structured(mcp, "content_get", {"collection": "posts", "id": entry.id})["item"]["data"]
    _check_value(got["cover"], cover)
    assert got["cover"]["alt"] == "The sea"
    assert "/1200x630/cover.jpeg?v=" in got["cover"]["renditions"]["openGraph"]
    _check_value(got["attachment"], pdf)
    assert got["attachment"]["renditions"] is None and got["attachment"]["srcset"] is None
    assert "blurhash" not in got["attachment"]
    block = got["body"][0]
    assert block["alt"] == "Own words" and block["_type"] == "image"
    _check_value(block["asset"], inline)


def test_a_list_of_fifty_reads_its_media_in_one_query(posts: Any, mcp: MCP) -> None:
    images = [_image((400 + i, 300)) for i in range(5)]
    for i in range(50):
        picked = images[i % 5]
        _publish({"title": f"P{i}", "cover": {"id": picked.id}, "body": [_inline(images[(i + 1) % 5].id)]})

    def listed(limit: int) -> tuple[list[dict[str, Any]], list[str]]:
        with CaptureQueriesContext(connection) as captured:
            page = structured(mcp, "content_list", {"collection": "posts", "limit": limit, "fields": ["cover", "body"]})
        return page["items"], [q["sql"] for q in captured.captured_queries]

    listed(5)  # warm: the token and the collection's schema are cached after the first call
    _, few_sql = listed(5)
    many, many_sql = listed(50)
    assert len(many) == 50 and len(many_sql) == len(few_sql), many_sql
    media_sql = [sql for sql in many_sql if "media_mediaitem" in sql]
    assert len(media_sql) == 1, media_sql
    by_id = {i.id: i for i in images}
    for item in many:
        _check_value(item["data"]["cover"], by_id[item["data"]["cover"]["id"]])
        _check_value(item["data"]["body"][0]["asset"], by_id[item["data"]["body"][0]["asset"]["id"]])
    # A summary without fields= carries the image field too (small), without the rich text.
    summary = structured(mcp, "content_list", {"collection": "posts", "limit": 3})["items"][0]["data"]
    assert "srcset" in summary["cover"] and "body" not in summary


def test_rest_item_and_list_carry_the_same_details(posts: Any, mcp: MCP) -> None:
    cover = _image()
    entry = _publish({"title": "T", "cover": {"id": cover.id, "alt": "Mine"}})
    client = Client(HTTP_AUTHORIZATION=f"Bearer {mcp.token}")
    item = client.get(f"/_emdash/api/content/posts/{entry.id}").json()["item"]["data"]["cover"]
    listed = client.get("/_emdash/api/content/posts").json()["items"][0]["data"]["cover"]
    assert item == listed
    _check_value(item, cover)
    assert item["alt"] == "Mine"  # the reference's own alt wins over the library's


def test_a_value_read_and_written_back_stores_no_details(posts: Any, mcp: MCP) -> None:
    cover, inline = _image(), _image((200, 100))
    entry = _publish({"title": "T", "cover": {"id": cover.id, "alt": "Kept"}, "body": [_inline(inline.id)]})
    read = mcp.ok("content_get", {"collection": "posts", "id": entry.id})["item"]
    mcp.ok("content_update", {"collection": "posts", "id": entry.id, "data": {**read["data"], "title": "T2"}})
    draft = mcp.ok("content_compare", {"collection": "posts", "id": entry.id})["draft"]  # the stored values
    assert draft["cover"] == {"id": cover.id, "alt": "Kept"}
    assert draft["body"][0]["asset"] == {"id": inline.id}


def test_a_reference_to_a_deleted_item_is_shown_as_stored(posts: Any, mcp: MCP) -> None:
    cover = _image()
    entry = _publish({"title": "T", "cover": {"id": cover.id, "alt": "Gone soon"}})
    media_services.media_delete(actor=SYSTEM, id=cover.id, force=True)
    got = mcp.ok("content_get", {"collection": "posts", "id": entry.id})["item"]["data"]
    assert got["cover"] == {"id": cover.id, "alt": "Gone soon"}


def test_the_template_query_api_reads_entries_with_their_media(posts: Any) -> None:
    cover = _image()
    _publish({"title": "T", "cover": {"id": cover.id}, "body": [_inline(cover.id)]})
    with CaptureQueriesContext(connection) as captured:
        items = query.entry_list("posts")["items"]
    assert len([q for q in captured.captured_queries if "media_mediaitem" in q["sql"]]) == 1
    _check_value(items[0]["data"]["cover"], cover)
    _check_value(items[0]["data"]["body"][0]["asset"], cover)


def test_with_s3_values_carry_the_stable_public_url(settings: Any, s3_endpoint: str, posts: Any, mcp: MCP) -> None:
    bucket = use_s3(settings, s3_endpoint)
    cover = _image((300, 200))
    entry = _publish({"title": "T", "cover": {"id": cover.id}})
    got = mcp.ok("content_get", {"collection": "posts", "id": entry.id})["item"]["data"]["cover"]
    assert got["url"] == f"{s3_endpoint}/{bucket}/{cover.storage_key}"
    assert not parse_qs(urlsplit(got["url"]).query)  # no signature that expires
    medium = got["renditions"]["medium"]
    assert medium.startswith("/_emdash/media/") and set(parse_qs(urlsplit(medium).query)) == {"v"}
    assert Client().get(medium, HTTP_ACCEPT="image/webp").status_code == 200


def test_changing_a_used_item_moves_the_item_and_list_etags(posts: Any) -> None:
    cover, unused = _image(alt="Before"), _image((200, 100))
    entry = _publish({"title": "T", "cover": {"id": cover.id}})
    before = mcp_free_read(entry.id)
    client, item_path, list_path = Client(), f"/_emdash/api/content/posts/{entry.id}", "/_emdash/api/content/posts"
    tags = {path: client.get(path)["ETag"] for path in (item_path, list_path)}
    media_services.media_update(actor=SYSTEM, id=unused.id, alt="Nobody shows this")
    for path, tag in tags.items():
        assert client.get(path, HTTP_IF_NONE_MATCH=tag).status_code == 304, path
    media_services.media_update(actor=SYSTEM, id=cover.id, focal_point={"x": 0.1, "y": 0.9})
    for path, tag in tags.items():
        fresh = client.get(path, HTTP_IF_NONE_MATCH=tag)
        assert fresh.status_code == 200, path
    assert fresh.json()["items"][0]["data"]["cover"]["srcset"] != before["srcset"]  # a new version: new URLs


def mcp_free_read(entry_id: str) -> dict[str, Any]:
    return Client().get(f"/_emdash/api/content/posts/{entry_id}").json()["item"]["data"]["cover"]
