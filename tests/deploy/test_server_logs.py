"""Issue 21.9 (SPEC 13): one log format from every server, a closing websocket is no error, and streamed
responses under ASGI are iterated without Django's "must consume synchronous iterators" warning.

Each documented server is started as written (granian and uvicorn with ``--log-config config/logging.json``),
with Redis as the channel layer (where the closing-socket errors came from); admin websockets are opened and
closed normally, a media file is streamed whole and by range; then every line the server wrote must be in the
one format: time, level, logger, ``[trace <id or ->]``."""

from __future__ import annotations

import io
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from PIL import Image

from emdash.actor import Actor
from media import services
from tests.mcp.conftest import fast_user
from tests.servers import ROOT, serve

BIN = Path(sys.executable).parent
LOG_CONFIG = "config/logging.json"  # servers run in the project directory
HOST_PORT = ("--host", "127.0.0.1", "--port", "{port}")
APP = "config.asgi:application"


def documented_granian() -> list[str]:
    """docs/production.md's granian command line, as written, on a free port."""
    text = (ROOT / "docs" / "production.md").read_text()
    match = re.search(r"^granian (--interface asgi .*config\.asgi:application)$", text, re.MULTILINE)
    assert match, "docs/production.md lost its granian command"
    argv = [str(BIN / "granian"), *match.group(1).split()]
    argv[argv.index("--port") + 1] = "{port}"
    assert argv[argv.index("--log-config") + 1] == LOG_CONFIG
    return argv


SERVERS = {
    "granian": documented_granian(),
    "uvicorn": [sys.executable, "-m", "uvicorn", *HOST_PORT, "--log-config", LOG_CONFIG, APP],
    "daphne": [sys.executable, "-m", "config.serve", "-b", "127.0.0.1", "-p", "{port}"],
}
LINE = re.compile(
    r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (DEBUG|INFO|WARNING|ERROR|CRITICAL) [\w.]+ \[trace ([0-9a-f]{24}|-)\] "
)
REDIS = "redis://127.0.0.1:6379/9"


def _redis_up() -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(REDIS, socket_timeout=1).ping())
    except Exception:
        return False


def _jpeg() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (600, 400), (30, 90, 160)).save(buffer, "JPEG")
    return buffer.getvalue()


@pytest.mark.parametrize("server", sorted(SERVERS))
def test_every_line_has_one_format_and_closing_sockets_and_streams_log_no_error(
    cms, settings, tmp_path, server: str
) -> None:
    connect = pytest.importorskip("websockets.sync.client").connect
    if not _redis_up():
        pytest.skip("needs Redis on 127.0.0.1:6379")
    media_root = tmp_path / "media"
    settings.MEDIA_ROOT = str(media_root)
    try:
        item = services.media_upload(
            actor=Actor.system(), file=SimpleUploadedFile("p.jpg", _jpeg(), content_type="image/jpeg"), filename="p.jpg"
        )
        stored = (media_root / item.storage_key).read_bytes()
        admin = fast_user()
        browser = Client()
        browser.force_login(admin)
        cookie = f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}"
        env = {
            "EMDASH_VAR_DIR": str(tmp_path),
            "MEDIA_ROOT": str(media_root),
            "EMDASH_RATE_LIMITS": "off",
            "SECRET_KEY": settings.SECRET_KEY,
            "REDIS_URL": REDIS,
        }
        with serve(SERVERS[server], env) as (base, process):
            socket_url = base.replace("http://", "ws://") + "/_emdash/admin/ws/changes/"
            opened = {"additional_headers": {"Cookie": cookie, "Origin": base}, "open_timeout": 10}
            for _ in range(3):  # each closed by the client with 1000 (normal closure) on leaving the block
                with connect(socket_url, **opened) as ws, pytest.raises(TimeoutError):
                    ws.recv(timeout=0.3)  # nothing changed; the socket is open and idle
            whole = httpx.get(f"{base}/media/{item.storage_key}", timeout=10)
            part = httpx.get(f"{base}/media/{item.storage_key}", headers={"Range": "bytes=10-4009"}, timeout=10)
            missing = httpx.get(f"{base}/_emdash/api/no-such-route/", timeout=10)  # a logged 404 warning
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pytest.fail(f"{server} did not stop within 30 s of SIGTERM")
            output = process.stderr.read().decode(errors="replace") if process.stderr else ""
    finally:
        shutil.rmtree(media_root, ignore_errors=True)
    assert (whole.status_code, whole.content) == (200, stored)
    assert (part.status_code, part.content) == (206, stored[10:4010])
    assert missing.status_code == 404
    lines = [line for line in output.splitlines() if line.strip()]
    assert lines, f"{server} logged nothing"
    strays = [line for line in lines if not LINE.match(line)]
    assert not strays, f"{server} lines outside the one format:\n" + "\n".join(strays[:20])
    assert "StreamingHttpResponse must consume" not in output
    errors = [line for line in lines if " ERROR " in line or " CRITICAL " in line]
    assert not errors, "\n".join(errors)
    # The 404 warning carries its request's trace id; the server's own lines carry "-".
    assert any("WARNING django.request" in line and "[trace -]" not in line for line in lines), output
