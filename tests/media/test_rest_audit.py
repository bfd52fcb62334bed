"""Media and settings over REST: every write (generated routes and the hand-written upload routes) writes one
audit row with source "rest"; the OpenAPI entries of these routes are typed."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import orjson
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from accounts.tokens import token_create
from audit.models import AuditLog
from tests.factories import make_user
from tests.media.helpers import image_bytes

pytestmark = pytest.mark.django_db
API = "/_emdash/api"


def client_for(role: str) -> Client:
    issued = token_create(user=make_user(role), name="rest", scopes="admin")
    return Client(headers={"Authorization": f"Bearer {issued.raw}"})


def rows() -> list[tuple[str, str, str]]:
    return [(r.source, r.action, r.outcome) for r in AuditLog.objects.order_by("id")]


def json(client: Client, method: str, path: str, data: Any = None) -> Any:
    response = client.generic(method, path, orjson.dumps(data) if data is not None else b"", "application/json")
    assert response.status_code < 300, (response.status_code, response.content[:300])
    return orjson.loads(response.content)


def test_every_media_write_is_audited_once_with_source_rest() -> None:
    client = client_for("editor")
    upload = SimpleUploadedFile("a.png", image_bytes(), content_type="image/png")
    response = client.post(f"{API}/media", {"file": upload})
    assert response.status_code == 201
    item = orjson.loads(response.content)["item"]
    json(client, "PATCH", f"{API}/media/{item['id']}", {"alt": "New"})
    json(client, "PUT", f"{API}/media/{item['id']}", {"caption": "C"})
    json(client, "GET", f"{API}/media/{item['id']}")
    json(client, "GET", f"{API}/media")
    ticket = json(client, "POST", f"{API}/media/upload-url", {"filename": "b.png", "mimeType": "image/png"})
    content = image_bytes(colour=(5, 6, 7))
    put = Client().generic("PUT", urlsplit(ticket["uploadUrl"]).path, content, "image/png")
    assert put.status_code == 200
    confirmed = json(
        client,
        "POST",
        f"{API}/media/confirm",
        {"storageKey": ticket["storageKey"], "filename": "b.png", "mimeType": "image/png"},
    )
    json(client, "DELETE", f"{API}/media/{confirmed['item']['id']}")
    assert rows() == [
        ("rest", "media_upload", "ok"),
        ("rest", "media_update", "ok"),
        ("rest", "media_update", "ok"),
        ("rest", "media_upload_url", "ok"),
        ("rest", "media_upload_put", "ok"),
        ("rest", "media_confirm", "ok"),
        ("rest", "media_delete", "ok"),
    ]
    assert AuditLog.objects.get(action="media_upload").target == f"media/{item['id']}"


def test_a_refused_multipart_upload_writes_no_row_and_no_item() -> None:
    upload = SimpleUploadedFile("a.html", b"<html><script>1</script></html>", content_type="text/html")
    assert client_for("editor").post(f"{API}/media", {"file": upload}).status_code == 400
    assert rows() == []


def test_settings_update_over_rest_is_audited() -> None:
    client = client_for("admin")
    assert json(client, "PUT", f"{API}/settings", {"title": "Site", "social": {"github": "me"}}) == {
        "title": "Site",
        "social": {"github": "me"},
    }
    assert json(client, "GET", f"{API}/settings")["title"] == "Site"
    assert rows() == [("rest", "settings_update", "ok")]


def test_openapi_types_the_media_settings_and_search_routes() -> None:
    doc = orjson.loads(Client().get(f"{API}/openapi.json").content)
    paths = doc["paths"]
    checks = {
        ("/_emdash/api/media", "get"): None,
        ("/_emdash/api/media", "post"): "multipart/form-data",
        ("/_emdash/api/media/upload", "post"): "application/json",
        ("/_emdash/api/media/upload-url", "post"): "application/json",
        ("/_emdash/api/media/confirm", "post"): "application/json",
        ("/_emdash/api/media/{id}", "get"): None,
        ("/_emdash/api/media/{id}", "patch"): "application/json",
        ("/_emdash/api/media/{id}", "delete"): None,
        ("/_emdash/api/settings", "get"): None,
        ("/_emdash/api/settings", "put"): "application/json",
        ("/_emdash/api/search", "get"): None,
    }
    for (path, method), media_type in checks.items():
        operation = paths[path][method]
        ok = next(v for k, v in operation["responses"].items() if k.startswith("2"))
        schema = ok["content"]["application/json"]["schema"]
        assert schema.get("properties"), (path, method, schema)
        if media_type is not None:
            body = operation["requestBody"]["content"][media_type]["schema"]
            assert body.get("properties"), (path, method, body)
