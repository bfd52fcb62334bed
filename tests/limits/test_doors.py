"""Oversized bodies get a 413 in each door's shape (SPEC 2 limits), from the Django layer and from the
ASGI/WSGI wrappers; Django's own size check (RequestDataTooBig) is a 413 too, never a 500."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import orjson
import pytest
from django.test import Client, override_settings

from accounts.tokens import token_create
from emdash.edge import limits
from tests.factories import make_user

pytestmark = pytest.mark.django_db
SMALL = {"MAX_BODY": 1000, "MAX_UPLOAD": 5000}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-06-18"}


def bearer(role: str = "admin") -> Client:
    raw = token_create(user=make_user(role), name="t", scopes="admin").raw
    return Client(headers={"Authorization": f"Bearer {raw}"})


def big_json(size: int) -> bytes:
    return orjson.dumps({"name": "m", "label": "x" * size})


@override_settings(EMDASH=SMALL)
def test_mcp_413_is_a_json_rpc_error() -> None:
    response = Client().post("/_emdash/api/mcp", big_json(2000), content_type="application/json", headers=MCP_HEADERS)
    assert response.status_code == 413
    assert orjson.loads(response.content) == {
        "jsonrpc": "2.0",
        "id": None,
        "error": {"code": -32600, "message": "Request body too large (limit 1000 bytes)"},
    }


@override_settings(EMDASH=SMALL)
def test_rest_413_is_payload_too_large() -> None:
    response = bearer().post("/_emdash/api/menus", big_json(2000), content_type="application/json")
    assert response.status_code == 413
    error = orjson.loads(response.content)["error"]
    assert error["code"] == "PAYLOAD_TOO_LARGE" and error["details"] == {"maxSize": 1000}


@override_settings(EMDASH=SMALL)
@pytest.mark.parametrize("path", ["token", "register", "token/revoke", "device/code"])
def test_oauth_413_is_invalid_request(path: str) -> None:
    response = Client().post(f"/_emdash/api/oauth/{path}", {"client_id": "x" * 2000})
    assert response.status_code == 413
    assert orjson.loads(response.content) == {
        "error": "invalid_request",
        "error_description": "Request body too large (limit 1000 bytes)",
    }


@override_settings(EMDASH=SMALL)
def test_other_routes_get_a_plain_413() -> None:
    response = Client().post("/_emdash/admin/login/", {"email": "x" * 2000})
    assert response.status_code == 413
    assert response["Content-Type"].startswith("text/plain")


@override_settings(EMDASH=SMALL)
def test_upload_routes_take_max_upload() -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tests.media.helpers import image_bytes

    client = bearer()
    png = image_bytes("BMP", (30, 30))  # uncompressed: ~2.7 KB
    assert 1000 < len(png) < 5000
    response = client.post("/_emdash/api/media", {"file": SimpleUploadedFile("a.bmp", png, content_type="image/bmp")})
    assert response.status_code == 201, response.content
    too_big = limits.limit_for("/_emdash/api/media") + 1
    response = client.generic("PUT", "/_emdash/api/media/upload/sometoken", b"x" * too_big)
    assert response.status_code == 413
    assert orjson.loads(response.content)["error"]["code"] == "FILE_TOO_LARGE"


# --- Django's own check (DATA_UPLOAD_MAX_MEMORY_SIZE) below our limit: 413, not 500 ------------------------


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=100)
def test_request_data_too_big_on_rest_is_413() -> None:
    response = bearer().post("/_emdash/api/menus", big_json(300), content_type="application/json")
    assert response.status_code == 413
    assert orjson.loads(response.content)["error"]["code"] == "PAYLOAD_TOO_LARGE"


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=100)
@pytest.mark.parametrize("path", ["token", "register", "token/revoke", "device/code"])
def test_request_data_too_big_on_oauth_is_413(path: str) -> None:
    response = Client().post(f"/_emdash/api/oauth/{path}", {"client_id": "x" * 300})
    assert response.status_code == 413
    assert orjson.loads(response.content)["error"] == "invalid_request"


def test_data_upload_max_memory_size_follows_max_body(settings) -> None:
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == settings.EMDASH["MAX_BODY"] == 4 * 1024 * 1024
    assert settings.EMDASH["MAX_UPLOAD"] == 50 * 1024 * 1024


def test_env_sizes_accept_suffixes(monkeypatch) -> None:
    from config.settings import env_size

    for raw, expected in [("123", 123), ("4M", 4 << 20), ("4MiB", 4 << 20), ("64k", 64 << 10), ("1G", 1 << 30)]:
        monkeypatch.setenv("EMDASH_X", raw)
        assert env_size("EMDASH_X", 7) == expected
    monkeypatch.delenv("EMDASH_X")
    assert env_size("EMDASH_X", 7) == 7


# --- the ASGI and WSGI wrappers ------------------------------------------------------------------------


class FakeApp:
    """Reads the whole body like Django does, then answers 200; records what it saw."""

    def __init__(self) -> None:
        self.body = b""
        self.disconnected = False
        self.called = False

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        self.called = True
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                self.disconnected = True
                return
            self.body += message.get("body", b"")
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


def run_asgi(path: str, chunks: list[bytes], headers: list[tuple[bytes, bytes]]) -> tuple[FakeApp, list[dict], int]:
    app = FakeApp()
    sent: list[dict] = []
    queue = [{"type": "http.request", "body": c, "more_body": i < len(chunks) - 1} for i, c in enumerate(chunks)]
    pulled = 0

    async def receive() -> dict:
        nonlocal pulled
        pulled += 1
        return queue.pop(0) if queue else {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {"type": "http", "path": path, "headers": headers, "method": "POST"}
    asyncio.run(limits.BodyLimitASGI(app)(scope, receive, send))
    return app, sent, pulled


@override_settings(EMDASH=SMALL)
def test_asgi_refuses_from_content_length_without_reading() -> None:
    app, sent, pulled = run_asgi("/_emdash/api/mcp", [b"x" * 10], [(b"content-length", b"5000")])
    assert not app.called and pulled == 0
    assert sent[0]["status"] == 413 and b"jsonrpc" in sent[1]["body"]


@override_settings(EMDASH=SMALL)
def test_asgi_refuses_a_streamed_body_as_soon_as_it_passes_the_limit() -> None:
    app, sent, pulled = run_asgi("/_emdash/api/oauth/token", [b"x" * 600] * 50, [])
    assert app.disconnected and pulled == 2  # stopped after the chunk that crossed 1000 bytes
    assert [m.get("status") for m in sent if m["type"] == "http.response.start"] == [413]
    assert orjson.loads(sent[1]["body"])["error"] == "invalid_request"


@override_settings(EMDASH=SMALL)
def test_asgi_passes_bodies_within_the_limit() -> None:
    app, sent, _ = run_asgi("/_emdash/api/menus", [b"x" * 500, b"y" * 500], [(b"content-length", b"1000")])
    assert app.body == b"x" * 500 + b"y" * 500 and sent[0]["status"] == 200


def wsgi_app(seen: dict) -> Any:
    def app(environ: dict, start_response: Any) -> list[bytes]:
        seen["body"] = environ["wsgi.input"].read()
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"ok"]

    return app


@override_settings(EMDASH=SMALL)
@pytest.mark.parametrize(
    ("length", "body", "status"),
    [("5000", b"x" * 10, "413"), ("", b"x" * 5000, "413"), ("1000", b"x" * 1000, "200"), ("", b"x" * 999, "200")],
)
def test_wsgi_wrapper(length: str, body: bytes, status: str) -> None:
    seen: dict = {}
    answered: list[str] = []
    environ = {"PATH_INFO": "/_emdash/api/menus", "CONTENT_LENGTH": length, "wsgi.input": io.BytesIO(body)}
    result = limits.BodyLimitWSGI(wsgi_app(seen))(environ, lambda s, h, e=None: answered.append(s))
    assert answered[0].startswith(status)
    if status == "413":
        assert orjson.loads(b"".join(result))["error"]["code"] == "PAYLOAD_TOO_LARGE"
        assert len(seen.get("body", b"")) <= 1000
    else:
        assert b"".join(result) == b"ok" and seen["body"] == body


def test_emdash_serve_defaults_the_application() -> None:
    from config.serve import APPLICATION, arguments

    assert arguments(["-b", "0.0.0.0", "-p", "8000"]) == ["-b", "0.0.0.0", "-p", "8000", APPLICATION]
    assert arguments(["-p", "8000", "other.asgi:app"]) == ["-p", "8000", "other.asgi:app"]
    assert arguments(["-e", "tcp:8000"]) == ["-e", "tcp:8000", APPLICATION]
    assert arguments([]) == [APPLICATION]
