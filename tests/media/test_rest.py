"""SPEC 6.4 upload paths over REST: multipart POST /_emdash/api/media, and upload-url -> PUT -> confirm."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson
import pytest
from django.core import signing
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from accounts.tokens import token_create
from emdash.roles import Role
from media.models import MediaItem
from tests.factories import make_user
from tests.media.helpers import PDF, image_bytes

pytestmark = pytest.mark.django_db
API = "/_emdash/api/media"


def client_for(role: Role | str = "author", scopes: str = "admin") -> Client:
    user = make_user(role)
    issued = token_create(user=user, name="rest", scopes=scopes)
    return Client(headers={"Authorization": f"Bearer {issued.raw}"})


def body(response: Any) -> Any:
    return orjson.loads(response.content)


def upload(client: Client, content: bytes, name: str = "photo.png", content_type: str = "image/png", **fields: Any):
    return client.post(API, {"file": SimpleUploadedFile(name, content, content_type=content_type), **fields})


def stored_files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file()]


# --- multipart -------------------------------------------------------------------------------------------


def test_multipart_upload_stores_measures_and_registers(media_root: Path) -> None:
    response = upload(client_for(), image_bytes("PNG", (64, 32)), alt="A banner", caption="Hello")
    assert response.status_code == 201, response.content
    item = body(response)["item"]
    assert (item["mimeType"], item["width"], item["height"]) == ("image/png", 64, 32)
    assert (item["filename"], item["alt"], item["caption"]) == ("photo.png", "A banner", "Hello")
    assert re.fullmatch(r"\d{4}/\d{2}/[0-9a-z]{26}\.png", item["storageKey"])
    assert item["storageKey"].split("/")[-1].startswith(item["id"].lower())
    assert item["url"] == f"/media/{item['storageKey']}"
    assert (media_root / item["storageKey"]).read_bytes() == image_bytes("PNG", (64, 32))


def test_multipart_type_comes_from_the_bytes_when_the_client_does_not_say() -> None:
    response = upload(client_for(), image_bytes("JPEG"), name="upload", content_type="application/octet-stream")
    assert response.status_code == 201, response.content
    assert body(response)["item"]["mimeType"] == "image/jpeg"
    assert body(response)["item"]["storageKey"].endswith(".jpg")


def test_multipart_pdf_upload() -> None:
    response = upload(client_for(), PDF, name="doc.pdf", content_type="application/pdf")
    assert response.status_code == 201, response.content
    assert body(response)["item"]["storageKey"].endswith(".pdf")


@pytest.mark.parametrize(
    ("content", "name", "content_type", "field"),
    [
        (image_bytes("PNG"), "photo.jpg", "image/jpeg", "file"),  # mismatch
        (b"MZ\x90\x00 not really", "tool.exe", "application/x-msdownload", "mimeType"),  # not allowed
        (b"<html><script>alert(1)</script>", "page.png", "image/png", "file"),  # not an image
        (b"<svg onload='alert(1)'/>", "x.svg", "image/svg+xml", "mimeType"),  # SVG needs an explicit entry
        (b"just text", "notes.txt", "text/plain", "mimeType"),
    ],
)
def test_multipart_rejects_wrong_or_disallowed_types(
    media_root: Path, content: bytes, name: str, content_type: str, field: str
) -> None:
    response = upload(client_for(), content, name=name, content_type=content_type)
    assert response.status_code == 400, response.content
    error = body(response)["error"]
    assert error["code"] == "VALIDATION_ERROR" and field in error["details"]["fields"]
    assert stored_files(media_root) == []
    assert not MediaItem.objects.exists()


def test_multipart_oversize_is_413_and_stores_nothing(media_root: Path, settings) -> None:
    settings.EMDASH = {**settings.EMDASH, "MEDIA_MAX_UPLOAD_SIZE": 100}
    response = upload(client_for(), image_bytes("PNG", (200, 200), (1, 2, 3)) + b"\x00" * 200)
    assert response.status_code == 413
    assert body(response)["error"] == {
        "code": "FILE_TOO_LARGE",
        "message": "The file is larger than the upload limit of 100 bytes",
        "details": {"maxSize": 100},
    }
    assert stored_files(media_root) == []


def test_multipart_without_a_file_or_not_multipart() -> None:
    client = client_for()
    assert client.post(API, {"alt": "x"}).status_code == 400
    response = client.post(API, b"{}", content_type="application/json")
    assert response.status_code == 400 and body(response)["error"]["code"] == "VALIDATION_ERROR"


def test_upload_needs_the_author_role_and_media_write() -> None:
    response = upload(client_for("contributor"), image_bytes())
    assert response.status_code == 403 and body(response)["error"]["code"] == "INSUFFICIENT_PERMISSIONS"
    response = upload(client_for("admin", "media:read"), image_bytes())
    assert response.status_code == 403 and body(response)["error"]["code"] == "INSUFFICIENT_SCOPE"
    response = upload(Client(), image_bytes())  # no credentials at all: authenticate first
    assert response.status_code == 401 and body(response)["error"]["code"] == "UNAUTHORIZED"
    response = upload(Client(headers={"Authorization": "Bearer ec_pat_nope"}), image_bytes())
    assert response.status_code == 401 and "WWW-Authenticate" in response


# --- signed upload ---------------------------------------------------------------------------------------


def ask_upload_url(client: Client, **payload: Any) -> dict[str, Any]:
    payload = {"filename": "photo.png", "mimeType": "image/png", **payload}
    response = client.post(f"{API}/upload-url", payload, content_type="application/json")
    assert response.status_code == 200, response.content
    return body(response)


def put(url: str, content: bytes) -> Any:
    return Client().generic("PUT", urlsplit(url).path, content, content_type="application/octet-stream")


def test_signed_upload_flow(media_root: Path) -> None:
    client = client_for()
    ticket = ask_upload_url(client, size=100)
    assert ticket["method"] == "PUT" and ticket["uploadUrl"].startswith("http://testserver/_emdash/api/media/upload/")
    assert re.fullmatch(r"\d{4}/\d{2}/[0-9a-z]{26}\.png", ticket["storageKey"])
    assert ticket["expiresAt"].endswith("Z")
    content = image_bytes("PNG", (10, 12))
    response = put(ticket["uploadUrl"], content)
    assert response.status_code == 200, response.content
    assert body(response) == {"storageKey": ticket["storageKey"], "size": len(content)}
    assert (media_root / ticket["storageKey"]).read_bytes() == content

    confirm = {"storageKey": ticket["storageKey"], "filename": "photo.png", "mimeType": "image/png", "alt": "A"}
    response = client.post(f"{API}/confirm", confirm, content_type="application/json")
    assert response.status_code == 201, response.content
    item = body(response)["item"]
    assert (item["width"], item["height"], item["size"], item["alt"]) == (10, 12, len(content), "A")

    listed = body(client.get(API, {"mimeType": "image/"}))
    assert [i["id"] for i in listed["items"]] == [item["id"]]
    assert body(client.get(f"{API}/{item['id']}"))["item"]["url"] == item["url"]
    again = client.post(f"{API}/confirm", confirm, content_type="application/json")
    assert again.status_code == 409 and body(again)["error"]["code"] == "CONFLICT"


def test_a_signed_url_writes_once() -> None:
    ticket = ask_upload_url(client_for())
    assert put(ticket["uploadUrl"], image_bytes()).status_code == 200
    response = put(ticket["uploadUrl"], image_bytes("PNG", (5, 5)))
    assert response.status_code == 409


def test_expired_upload_url_is_refused(media_root: Path, settings) -> None:
    settings.EMDASH = {**settings.EMDASH, "MEDIA_UPLOAD_URL_TTL": -1}
    ticket = ask_upload_url(client_for())
    response = put(ticket["uploadUrl"], image_bytes())
    assert response.status_code == 403
    assert body(response)["error"] == {
        "code": "INVALID_UPLOAD_URL",
        "message": "The upload URL has expired; request a new one",
    }
    assert stored_files(media_root) == []


@pytest.mark.parametrize("how", ["tampered", "other-salt", "garbage"])
def test_forged_upload_url_is_refused(media_root: Path, how: str) -> None:
    ticket = ask_upload_url(client_for())
    token = urlsplit(ticket["uploadUrl"]).path.rsplit("/", 1)[-1]
    if how == "tampered":
        payload = signing.loads(token, salt="emdash.media.upload.v1")
        forged = signing.dumps({**payload, "k": "../escape.png"}, salt="emdash.media.upload.v1")
        token = forged.split(":")[0] + ":" + token.split(":", 1)[1]
    elif how == "other-salt":
        token = signing.dumps({"k": "2026/01/evil.png", "x": 2**40, "m": 10**9}, salt="something.else")
    else:
        token = "not-a-token"
    response = put(f"http://testserver/_emdash/api/media/upload/{token}", image_bytes())
    assert response.status_code == 403, response.content
    assert body(response)["error"]["code"] == "INVALID_UPLOAD_URL"
    assert stored_files(media_root) == []


def test_signed_upload_size_limits(media_root: Path, settings) -> None:
    settings.EMDASH = {**settings.EMDASH, "MEDIA_MAX_UPLOAD_SIZE": 50}
    client = client_for()
    response = client.post(
        f"{API}/upload-url", {"filename": "a.png", "mimeType": "image/png", "size": 51}, content_type="application/json"
    )
    assert response.status_code == 413
    ticket = ask_upload_url(client)
    response = put(ticket["uploadUrl"], b"\x00" * 51)
    assert response.status_code == 413 and body(response)["error"]["code"] == "FILE_TOO_LARGE"
    assert put(ticket["uploadUrl"], b"").status_code == 400
    assert stored_files(media_root) == []


def test_upload_url_checks_type_role_and_arguments() -> None:
    client = client_for()
    response = client.post(
        f"{API}/upload-url",
        {"filename": "a.exe", "mimeType": "application/x-msdownload"},
        content_type="application/json",
    )
    assert response.status_code == 400 and "mimeType" in body(response)["error"]["details"]["fields"]
    response = client.post(
        f"{API}/upload-url", {"filename": "a.png", "mimeType": "image/png", "x": 1}, content_type="application/json"
    )
    assert body(response)["error"]["details"]["fields"] == {"x": "unknown field (accepted: filename, mimeType, size)"}
    response = client_for("contributor").post(
        f"{API}/upload-url", {"filename": "a.png", "mimeType": "image/png"}, content_type="application/json"
    )
    assert response.status_code == 403


def test_confirm_checks_the_bytes_and_the_issued_type(media_root: Path) -> None:
    client = client_for()
    ticket = ask_upload_url(client)
    assert put(ticket["uploadUrl"], image_bytes("JPEG")).status_code == 200
    confirm = {"storageKey": ticket["storageKey"], "filename": "photo.png", "mimeType": "image/png"}
    response = client.post(f"{API}/confirm", confirm, content_type="application/json")
    assert response.status_code == 400
    assert body(response)["error"]["details"]["fields"] == {
        "file": "the content is image/jpeg, not image/png as declared"
    }
    response = client.post(f"{API}/confirm", {**confirm, "mimeType": "image/jpeg"}, content_type="application/json")
    assert response.status_code == 400
    assert "upload URL was issued" in body(response)["error"]["details"]["fields"]["mimeType"]
    response = client.post(
        f"{API}/confirm", {**confirm, "storageKey": "../../etc/passwd"}, content_type="application/json"
    )
    assert response.status_code == 400 and "storageKey" in body(response)["error"]["details"]["fields"]


# --- list / get / edit / delete --------------------------------------------------------------------------


def test_rest_list_get_update_delete(media_root: Path, django_capture_on_commit_callbacks) -> None:
    client = client_for("author")
    items = [body(upload(client, image_bytes()))["item"] for _ in range(3)]
    page = body(client.get(API, {"limit": 2}))
    assert [i["id"] for i in page["items"]] == [items[2]["id"], items[1]["id"]]
    rest = body(client.get(API, {"limit": 2, "cursor": page["nextCursor"]}))
    assert [i["id"] for i in rest["items"]] == [items[0]["id"]] and "nextCursor" not in rest
    assert client.get(API, {"cursor": "bogus"}).status_code == 400
    assert client.get(API, {"limit": "many"}).status_code == 400
    assert body(Client().get(API))["items"], "published media is public"

    target = items[0]["id"]
    response = client.patch(f"{API}/{target}", {"alt": "New alt"}, content_type="application/json")
    assert response.status_code == 200 and body(response)["item"]["alt"] == "New alt"
    response = client.patch(f"{API}/{target}", {"filename": "x"}, content_type="application/json")
    assert response.status_code == 400
    assert client_for("author").delete(f"{API}/{target}").status_code == 403

    with django_capture_on_commit_callbacks(execute=True):
        response = client.delete(f"{API}/{target}")
    assert response.status_code == 200 and body(response) == {"deleted": True}
    assert not (media_root / items[0]["storageKey"]).exists()
    assert client.get(f"{API}/{target}").status_code == 404
    assert client.post(f"{API}/{target}").status_code == 405


def test_large_files_stream_through_both_upload_paths(media_root: Path) -> None:
    """Bigger than Django's in-memory limits (2.5 MiB): the PUT is streamed, the multipart file spills to disk."""
    content = b"ID3\x03" + os.urandom(3 * 1024 * 1024)
    client = client_for()
    ticket = ask_upload_url(client, filename="song.mp3", mimeType="audio/mpeg", size=len(content))
    assert ticket["storageKey"].endswith(".mp3")
    assert put(ticket["uploadUrl"], content).status_code == 200
    confirm = {"storageKey": ticket["storageKey"], "filename": "song.mp3", "mimeType": "audio/mpeg"}
    response = client.post(f"{API}/confirm", confirm, content_type="application/json")
    assert response.status_code == 201, response.content
    assert body(response)["item"]["size"] == len(content)
    response = upload(client, content, name="song.mp3", content_type="audio/mpeg")
    assert response.status_code == 201, response.content
    assert (media_root / body(response)["item"]["storageKey"]).read_bytes() == content
