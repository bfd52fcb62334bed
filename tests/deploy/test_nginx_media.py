"""The documented nginx set-up for media (docs/production.md, "nginx sends the bytes") keeps the media security
headers on X-Accel-Redirect answers (SPEC 11): the block is run as written against a live app server when nginx is
installed, and its text and the app's own headers are checked everywhere."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from emdash.actor import Actor
from media import presenters, services
from tests.servers import DAPHNE, ROOT, free_port, serve

SECURITY = {
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "sandbox",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}


def documented_block() -> str:
    text = (ROOT / "docs" / "production.md").read_text()
    match = re.search(r"<!-- nginx-media -->\n```nginx\n(.*?)```", text, re.S)
    assert match, "docs/production.md lost its nginx media block"
    return match.group(1)


def internal_location(block: str) -> str:
    match = re.search(r"location /_protected_media/ \{(.*?)\}", block, re.S)
    assert match
    return match.group(1)


def test_the_documented_internal_location_adds_every_security_header_always() -> None:
    location = internal_location(documented_block())
    assert "internal;" in location
    for name, value in SECURITY.items():
        assert re.search(rf'add_header {re.escape(name)} "{re.escape(value)}" always;', location), name


@pytest.mark.django_db
def test_the_app_sends_the_same_headers_on_its_accel_answers(settings: Any, tmp_path: Path) -> None:
    from django.test import Client

    settings.MEDIA_ROOT = str(tmp_path)
    settings.EMDASH = {**settings.EMDASH, "MEDIA_ACCEL_PREFIX": "/_protected_media/"}
    item = _upload()
    for url in (f"/media/{item.storage_key}", presenters.item(item)["renditions"]["thumbnail"]):
        response = Client().get(url)
        assert response["X-Accel-Redirect"].startswith("/_protected_media/")
        for name, value in SECURITY.items():
            assert response[name] == value, (url, name)


def _upload() -> Any:
    buffer = io.BytesIO()
    Image.new("RGB", (900, 600), (30, 90, 160)).save(buffer, "JPEG")
    upload = SimpleUploadedFile("p.jpg", buffer.getvalue(), content_type="image/jpeg")
    return services.media_upload(actor=Actor.system(), file=upload, filename="p.jpg")


def _nginx_conf(block: str, app_port: int, nginx_port: int, media_root: Path, work: Path) -> str:
    server = block.replace("listen 80;", f"listen 127.0.0.1:{nginx_port};")
    server = server.replace("proxy_pass http://127.0.0.1:8000;", f"proxy_pass http://127.0.0.1:{app_port};")
    server = server.replace("alias /srv/emdash/var/media/;", f"alias {media_root}/;")
    temp = "\n".join(
        f"    {kind}_temp_path {work}/{kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        f"user root;\nworker_processes 1;\ndaemon off;\npid {work}/nginx.pid;\nerror_log {work}/error.log;\n"
        "events { worker_connections 64; }\n"
        f"http {{\n    access_log off;\n{temp}\n    types {{ image/jpeg jpg; image/webp webp; }}\n{server}\n}}\n"
    )


@pytest.mark.django_db(transaction=True)
def test_nginx_keeps_the_media_headers_with_the_documented_config(settings: Any, tmp_path: Path) -> None:
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if nginx is None:
        pytest.skip("NGINX IS NOT INSTALLED: the documented X-Accel set-up was NOT run (apt-get install nginx-light)")
    media_root = tmp_path / "media"
    media_root.mkdir()
    settings.MEDIA_ROOT = str(media_root)
    item = _upload()
    thumbnail = presenters.item(item)["renditions"]["thumbnail"]
    work = tmp_path / "nginx"
    work.mkdir()
    env = {
        "MEDIA_ROOT": str(media_root),
        "EMDASH_MEDIA_ACCEL_PREFIX": "/_protected_media/",
        "EMDASH_VAR_DIR": str(tmp_path),
        "EMDASH_RATE_LIMITS": "off",
    }
    with serve(DAPHNE, env) as (app, _):
        port = free_port()
        conf = work / "nginx.conf"
        conf.write_text(_nginx_conf(documented_block(), int(app.rsplit(":", 1)[1]), port, media_root, work))
        proc = subprocess.Popen([nginx, "-c", str(conf), "-p", str(work)], stderr=subprocess.PIPE)
        try:
            base = f"http://127.0.0.1:{port}"
            _wait(base, proc)
            original = (media_root / item.storage_key).read_bytes()
            for url, mime in ((f"/media/{item.storage_key}", "image/jpeg"), (thumbnail, "image/webp")):
                response = httpx.get(base + url, headers={"Accept": "image/webp"})
                assert response.status_code == 200, (url, response.text, (work / "error.log").read_text())
                assert response.headers["content-type"] == mime
                for name, value in SECURITY.items():
                    assert response.headers.get(name) == value, (url, name, dict(response.headers))
                assert response.headers["cache-control"] == "public, max-age=31536000, immutable"
                if mime == "image/jpeg":
                    assert response.content == original  # nginx sent the file itself
                else:
                    assert Image.open(io.BytesIO(response.content)).size == (320, 320)
                again = httpx.get(base + url, headers={"If-None-Match": response.headers["etag"]})
                assert again.status_code == 304
                for name, value in SECURITY.items():
                    assert again.headers.get(name) == value, (url, "304", name)
        finally:
            proc.terminate()
            proc.wait(timeout=10)


def _wait(base: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"nginx exited: {proc.stderr.read().decode() if proc.stderr else ''}")
        try:
            httpx.get(base + "/_emdash/health", timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise AssertionError("nginx did not answer")
