"""A real server (``python -m config.serve``: daphne with the body-limit hook, DEBUG=0): huge bodies are
refused at once with bounded memory; uploads up to EMDASH_MAX_UPLOAD pass; uploaded media are served."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import orjson
import pytest

from accounts.tokens import token_create
from tests.factories import make_user
from tests.limits.bigbody import RssWatch, send_big
from tests.media.helpers import image_bytes
from tests.servers import serve

pytestmark = pytest.mark.slow
MiB = 1024 * 1024


@dataclass
class Server:
    url: str
    port: int
    pid: int


@pytest.fixture
def server(cms: None, tmp_path: Path) -> Iterator[Server]:
    env = {"CONN_MAX_AGE": "0", "MEDIA_ROOT": str(tmp_path / "media"), "EMDASH_MAX_UPLOAD": "8M"}
    command = [sys.executable, "-m", "config.serve", "-b", "127.0.0.1", "-p", "{port}"]
    with serve(command, env) as (url, process):
        yield Server(url, int(url.rsplit(":", 1)[1]), process.pid)


@pytest.mark.parametrize(
    ("path", "size", "chunked"),
    [
        ("/_emdash/api/mcp", 256 * MiB, False),
        ("/_emdash/api/mcp", 400 * MiB, True),
        ("/_emdash/api/oauth/token", 256 * MiB, False),
        ("/_emdash/api/oauth/token", 400 * MiB, True),
        ("/_emdash/api/media", 256 * MiB, True),
    ],
)
def test_huge_bodies_are_refused_at_once_with_bounded_memory(server: Server, path: str, size: int, chunked: bool):
    with RssWatch(server.pid) as watch:
        out = send_big("127.0.0.1", server.port, path, size, chunked=chunked, timeout=60)
    assert out.status == 413, out.head
    assert out.seconds < 5, out.seconds
    assert out.sent < 64 * MiB, out.sent  # the server answered long before the body was through
    assert watch.growth < 30 * MiB, watch.growth
    body = orjson.loads(out.body)
    if path.endswith("/mcp"):
        assert body["error"]["code"] == -32600
    elif "oauth" in path:
        assert body["error"] == "invalid_request"
    else:
        assert body["error"]["code"] == "FILE_TOO_LARGE"


def test_uploads_up_to_max_upload_pass_and_are_served(server: Server) -> None:
    raw = token_create(user=make_user("author"), name="t", scopes="admin").raw
    auth = {"Authorization": f"Bearer {raw}"}
    bmp = image_bytes("BMP", (1400, 1400))  # ~5.6 MiB: over MAX_BODY (4 MiB), under MAX_UPLOAD (8 MiB)
    assert 4 * MiB < len(bmp) < 8 * MiB
    response = httpx.post(
        server.url + "/_emdash/api/media", files={"file": ("big.bmp", bmp, "image/bmp")}, headers=auth
    )
    assert response.status_code == 201, response.text
    item = response.json()["item"]
    served = httpx.get(server.url + item["url"])
    assert served.status_code == 200
    assert served.content == bmp
    assert served.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert served.headers["x-content-type-options"] == "nosniff"
    ranged = httpx.get(server.url + item["url"], headers={"Range": "bytes=0-1"})
    assert (ranged.status_code, ranged.content) == (206, b"BM")
    cached = httpx.get(server.url + item["url"], headers={"If-None-Match": served.headers["etag"]})
    assert cached.status_code == 304
    over = httpx.post(
        server.url + "/_emdash/api/media",
        files={"file": ("huge.bmp", b"BM" + b"\0" * 9 * MiB, "image/bmp")},
        headers=auth,
    )
    assert over.status_code == 413 and over.json()["error"]["code"] == "FILE_TOO_LARGE"


def test_small_requests_still_work(server: Server) -> None:
    response = httpx.post(
        server.url + "/_emdash/api/oauth/token", data={"grant_type": "nope"}, headers={"Accept": "application/json"}
    )
    assert response.status_code == 400 and response.json()["error"] == "unsupported_grant_type"
