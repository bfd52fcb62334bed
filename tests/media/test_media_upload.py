"""media_upload (SPEC 6.4b) over MCP and REST: base64 and URL, sniffing, refusals, dedupe, audit."""

from __future__ import annotations

import base64
from typing import Any

import orjson
import pytest
from django.test import Client

from accounts.tokens import token_create
from audit.models import AuditLog
from emdash.roles import Role
from media.models import MediaItem
from tests.factories import make_user
from tests.mcp.conftest import MCP, MakeMCP
from tests.media.fetch_server import PNG, Server
from tests.media.helpers import PDF, image_bytes

pytestmark = pytest.mark.django_db
REST = "/_emdash/api/media/upload"


def b64(content: bytes) -> str:
    return base64.b64encode(content).decode()


@pytest.fixture
def allow_private(settings: Any) -> None:
    settings.EMDASH = {**getattr(settings, "EMDASH", {}), "FETCH_ALLOW_PRIVATE": True}


def test_base64_upload_measures_and_serves_the_image(mcp: MCP) -> None:
    content = image_bytes("JPEG", size=(64, 48))
    item = mcp.ok("media_upload", {"filename": "cat.jpg", "data": b64(content), "alt": "A cat", "caption": "Hi"})[
        "item"
    ]
    assert (item["mimeType"], item["width"], item["height"], item["size"]) == ("image/jpeg", 64, 48, len(content))
    assert (item["alt"], item["caption"], item["filename"]) == ("A cat", "Hi", "cat.jpg")
    assert item["url"].startswith("/media/") and item["storageKey"].endswith(".jpg")
    row = MediaItem.objects.get(id=item["id"])
    assert row.author_id == mcp.user.id
    assert Client().get(item["url"]).status_code == 200
    audit = AuditLog.objects.filter(action="media_upload", source="mcp")
    assert [(a.outcome, a.target) for a in audit] == [("ok", f"media/{item['id']}")]


def test_same_bytes_give_the_existing_item(mcp: MCP) -> None:
    data = b64(image_bytes("PNG", colour=(1, 2, 3)))
    first = mcp.ok("media_upload", {"filename": "a.png", "data": data})["item"]
    second = mcp.ok("media_upload", {"filename": "again.png", "data": data})["item"]
    assert second["id"] == first["id"] and second["filename"] == "a.png"
    assert MediaItem.objects.count() == 1


@pytest.mark.parametrize(
    ("filename", "content"),
    [
        ("page.html", b"<!doctype html><html><script>alert(1)</script></html>"),
        ("drawing.svg", b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>'),
        ("clip.mp4", b"<html><body><script>alert(1)</script></body></html>"),  # markup in disguise
        ("photo.png", b"not a png at all"),
        ("notes.txt", b"plain text"),
    ],
)
def test_active_or_unknown_content_is_refused(mcp: MCP, filename: str, content: bytes) -> None:
    result = mcp.fails("media_upload", {"filename": filename, "data": b64(content)})
    assert result["_meta"]["code"] == "VALIDATION_ERROR", result
    assert MediaItem.objects.count() == 0


def test_a_pdf_is_accepted_by_its_name(mcp: MCP) -> None:
    assert mcp.ok("media_upload", {"filename": "doc.pdf", "data": b64(PDF)})["item"]["mimeType"] == "application/pdf"


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"filename": "a.png"}, "data"),
        ({"filename": "a.png", "data": b64(PNG), "url": "https://example.com/a.png"}, "data"),
        ({"filename": "a.png", "data": "!!not base64!!"}, "data"),
        ({"data": b64(PNG)}, "filename"),
        ({"filename": "a.png", "url": "ftp://example.com/a.png"}, "url"),
        ({"filename": "a.png", "url": "http://169.254.169.254/latest/meta-data"}, "url"),
        ({"filename": "a.png", "url": "http://[::ffff:127.0.0.1]/a.png"}, "url"),
    ],
)
def test_bad_arguments(mcp: MCP, arguments: dict[str, Any], field: str) -> None:
    result = mcp.fails("media_upload", arguments)
    assert result["_meta"]["code"] == "VALIDATION_ERROR"
    assert field in result["_meta"]["details"]["fields"]


def test_too_large_after_decoding(mcp: MCP, settings: Any) -> None:
    settings.EMDASH = {**getattr(settings, "EMDASH", {}), "MAX_UPLOAD": 100}
    result = mcp.fails("media_upload", {"filename": "a.png", "data": b64(image_bytes(size=(200, 200)))})
    assert result["_meta"]["code"] == "FILE_TOO_LARGE"


def test_url_upload_is_refused_for_loopback_without_the_setting(mcp: MCP, server: Server) -> None:
    result = mcp.fails("media_upload", {"filename": "x.png", "url": f"{server.base}/img.png"})
    assert "loopback" in result["_meta"]["details"]["fields"]["url"]
    assert server.hits == []


def test_url_upload(mcp: MCP, server: Server, allow_private: None) -> None:
    item = mcp.ok("media_upload", {"filename": "remote.png", "url": f"{server.base}/img.png", "alt": "Remote"})["item"]
    assert (item["mimeType"], item["width"], item["height"], item["alt"]) == ("image/png", 30, 12, "Remote")
    again = mcp.ok("media_upload", {"filename": "copy.png", "data": b64(PNG)})["item"]
    assert again["id"] == item["id"]  # the same bytes, whichever way they came


@pytest.mark.parametrize("path", ["/page.html", "/drawing.svg"])
def test_url_upload_refuses_html_and_svg(mcp: MCP, server: Server, allow_private: None, path: str) -> None:
    result = mcp.fails("media_upload", {"filename": "x", "url": f"{server.base}{path}"})
    assert result["_meta"]["code"] == "VALIDATION_ERROR"
    assert MediaItem.objects.count() == 0


def test_url_upload_too_many_redirects(mcp: MCP, server: Server, allow_private: None) -> None:
    result = mcp.fails("media_upload", {"filename": "x.png", "url": f"{server.base}/hop/5"})
    assert "redirects" in result["_meta"]["details"]["fields"]["url"]


def test_url_upload_oversize(mcp: MCP, server: Server, allow_private: None, settings: Any) -> None:
    settings.EMDASH = {**settings.EMDASH, "MAX_UPLOAD": 1000}
    assert mcp.fails("media_upload", {"filename": "x", "url": f"{server.base}/big-chunked"})["_meta"]["code"] == (
        "FILE_TOO_LARGE"
    )


def test_subscribers_may_not_upload(make_mcp: MakeMCP) -> None:
    params = {"name": "media_upload", "arguments": {"filename": "a.png", "data": b64(PNG)}}
    assert make_mcp(Role.SUBSCRIBER).error("tools/call", params)["data"]["code"] == "INSUFFICIENT_PERMISSIONS"
    assert MediaItem.objects.count() == 0


def rest_client(role: str = "author") -> Client:
    issued = token_create(user=make_user(role), name="rest", scopes="admin")
    return Client(headers={"Authorization": f"Bearer {issued.raw}"})


def test_rest_json_upload_is_audited(db: None) -> None:
    client = rest_client()
    response = client.post(REST, {"filename": "r.png", "data": b64(PNG)}, content_type="application/json")
    assert response.status_code == 201, response.content
    item = orjson.loads(response.content)["item"]
    assert AuditLog.objects.filter(action="media_upload", source="rest", target=f"media/{item['id']}").count() == 1
    bad = client.post(REST, {"filename": "r.png", "url": "http://10.0.0.1/a.png"}, content_type="application/json")
    assert bad.status_code == 400 and orjson.loads(bad.content)["error"]["code"] == "VALIDATION_ERROR"


def test_rest_json_upload_takes_more_than_the_body_limit(db: None, settings: Any) -> None:
    # The route's limit is the base64 size of MAX_UPLOAD, not MAX_BODY.
    settings.EMDASH = {**getattr(settings, "EMDASH", {}), "MAX_BODY": 2000}
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2000  # as config/settings.py sets it from MAX_BODY
    content = image_bytes("PNG", size=(300, 300), colour=(9, 9, 9)) + b"\x00" * 3000  # PNG ignores trailing bytes
    body = {"filename": "big.png", "data": b64(content)}
    response = rest_client().post(REST, body, content_type="application/json")
    assert response.status_code == 201, response.content[:300]
    other = rest_client().generic(
        "PUT", "/_emdash/api/settings", orjson.dumps({"title": "x" * 3000}), "application/json"
    )
    assert other.status_code == 413  # every other route keeps MAX_BODY


def test_media_create_with_a_url_points_to_media_upload(mcp: MCP) -> None:
    result = mcp.fails(
        "media_create", {"filename": "a.png", "mimeType": "image/png", "storageKey": "https://example.com/a.png"}
    )
    assert "media_upload" in result["_meta"]["details"]["fields"]["storageKey"]


@pytest.mark.postgres
def test_dedupe_on_postgres(mcp: MCP) -> None:
    data = b64(image_bytes("GIF"))
    ids = {mcp.ok("media_upload", {"filename": f"g{i}.gif", "data": data})["item"]["id"] for i in range(3)}
    assert len(ids) == 1 and MediaItem.objects.count() == 1


@pytest.mark.parametrize("raw", [b"{not json", b'{"filename": "a\\u0000.png", "data": "AAAA"}', b"[1]"])
def test_rest_upload_bad_bodies_are_400(db: None, raw: bytes) -> None:
    response = rest_client().generic("POST", REST, raw, "application/json")
    assert response.status_code == 400, response.content
    assert MediaItem.objects.count() == 0
