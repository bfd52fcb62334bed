"""Uploaded files are served with DEBUG=0 (SPEC 2): validators, conditionals, ranges, caching, safe
dispositions, X-Accel-Redirect, and no way out of the media root."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client, override_settings
from django.utils.http import http_date

from emdash.actor import Actor
from media import services
from media.models import MediaItem
from tests.media.helpers import PDF, image_bytes, make_media, place

SYSTEM = Actor.system()
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("production")]


@pytest.fixture
def production(settings) -> None:
    settings.DEBUG = False


def uploaded_png(size: tuple[int, int] = (64, 32)) -> MediaItem:
    """A file stored the way uploads store it: under a generated, write-once key."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    data = image_bytes("PNG", size)
    return services.media_upload(
        actor=SYSTEM, file=SimpleUploadedFile("photo.png", data, content_type="image/png"), filename="photo.png"
    )


def url(item: MediaItem) -> str:
    return f"/media/{item.storage_key}"


def full(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def test_an_uploaded_image_is_served_inline_with_every_header() -> None:
    item = uploaded_png()
    response = Client().get(url(item))
    assert response.status_code == 200
    body = full(response)
    assert body == image_bytes("PNG", (64, 32))
    assert response["Content-Type"] == "image/png"
    assert response["Content-Length"] == str(len(body))
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Content-Disposition"].startswith("inline")
    assert response["Accept-Ranges"] == "bytes"
    assert response["ETag"].startswith('"') and not response["ETag"].startswith("W/")
    assert response["Last-Modified"].endswith("GMT")
    assert response["Content-Security-Policy"] == "sandbox"


def test_head_sends_the_headers_without_the_body() -> None:
    item = uploaded_png()
    response = Client().head(url(item))
    assert response.status_code == 200
    assert response.content == b""
    assert response["Content-Length"] == str(item.size)
    assert response["ETag"]


def test_conditional_get_answers_304() -> None:
    item = uploaded_png()
    first = Client().get(url(item))
    etag, modified = first["ETag"], first["Last-Modified"]
    assert Client().get(url(item), headers={"If-None-Match": etag}).status_code == 304
    assert Client().get(url(item), headers={"If-None-Match": f'"other", W/{etag}'}).status_code == 304
    assert Client().get(url(item), headers={"If-None-Match": "*"}).status_code == 304
    assert Client().get(url(item), headers={"If-Modified-Since": modified}).status_code == 304
    not_modified = Client().get(url(item), headers={"If-None-Match": etag})
    assert not_modified["ETag"] == etag and not_modified.content == b""
    # If-None-Match wins over If-Modified-Since; a changed file has a new ETag.
    assert Client().get(url(item), headers={"If-None-Match": '"x"', "If-Modified-Since": modified}).status_code == 200
    assert Client().get(url(item), headers={"If-Modified-Since": http_date(0)}).status_code == 200


@pytest.mark.parametrize(
    ("header", "span"),
    [("bytes=0-9", (0, 9)), ("bytes=10-", (10, None)), ("bytes=-5", (-5, None)), ("bytes=5-999999", (5, None))],
)
def test_single_byte_ranges_answer_206(header: str, span: tuple[int, int | None]) -> None:
    item = uploaded_png()
    data = image_bytes("PNG", (64, 32))
    start, end = span
    expected = data[start:] if end is None else data[start : end + 1]
    response = Client().get(url(item), headers={"Range": header})
    assert response.status_code == 206
    assert full(response) == expected
    first = start if start >= 0 else len(data) + start
    assert response["Content-Range"] == f"bytes {first}-{first + len(expected) - 1}/{len(data)}"
    assert response["Content-Length"] == str(len(expected))


def test_unsatisfiable_ranges_answer_416() -> None:
    item = uploaded_png()
    for header in (f"bytes={item.size}-", f"bytes={item.size + 100}-{item.size + 200}", "bytes=-0"):
        response = Client().get(url(item), headers={"Range": header})
        assert response.status_code == 416, header
        assert response["Content-Range"] == f"bytes */{item.size}"


@pytest.mark.parametrize("header", ["bytes=0-1,5-6", "bytes=9-3", "items=0-1", "bytes=abc", "bytes=-"])
def test_multi_range_and_invalid_ranges_get_the_whole_file(header: str) -> None:
    item = uploaded_png()
    response = Client().get(url(item), headers={"Range": header})
    assert response.status_code == 200
    assert full(response) == image_bytes("PNG", (64, 32))


def test_if_range_that_no_longer_matches_gets_the_whole_file() -> None:
    item = uploaded_png()
    etag = Client().get(url(item))["ETag"]
    assert Client().get(url(item), headers={"Range": "bytes=0-3", "If-Range": etag}).status_code == 206
    assert Client().get(url(item), headers={"Range": "bytes=0-3", "If-Range": '"stale"'}).status_code == 200


def test_non_images_are_attachments_and_keys_not_generated_cache_briefly() -> None:
    pdf = make_media(SYSTEM, content=PDF, mime_type="application/pdf", filename="report.pdf")
    response = Client().get(url(pdf))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'attachment; filename="report.pdf"'
    assert response["Cache-Control"] == "public, max-age=3600"  # incoming/file-N.pdf may be replaced
    assert full(response) == PDF


@override_settings(EMDASH={"MEDIA_ALLOWED_TYPES": ["image/*", "image/svg+xml"]})
def test_svg_is_never_inline() -> None:
    svg = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
    item = make_media(SYSTEM, content=svg, mime_type="image/svg+xml", filename="logo.svg")
    response = Client().get(url(item))
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment")
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Content-Security-Policy"] == "sandbox"


def test_an_unexpected_stored_type_is_sent_as_bytes() -> None:
    item = uploaded_png()
    MediaItem.objects.filter(id=item.id).update(mime_type="text/html")
    response = Client().get(url(item))
    assert response["Content-Type"] == "application/octet-stream"
    assert response["Content-Disposition"].startswith("attachment")


@override_settings(EMDASH={"MEDIA_ACCEL_PREFIX": "/_protected_media/"})
def test_accel_redirect_hands_the_bytes_to_nginx() -> None:
    item = uploaded_png()
    response = Client().get(url(item))
    assert response.status_code == 200
    assert response["X-Accel-Redirect"] == f"/_protected_media/{item.storage_key}"
    assert response.content == b""
    assert response["Content-Type"] == "image/png"
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"
    assert response["X-Content-Type-Options"] == "nosniff"


def test_missing_and_unregistered_files_are_404(media_root: Path) -> None:
    item = uploaded_png()
    (media_root / item.storage_key).unlink()
    assert Client().get(url(item)).status_code == 404
    key = place(image_bytes())  # stored but never registered (an unconfirmed signed upload)
    assert Client().get(f"/media/{key}").status_code == 404
    assert Client().get("/media/2026/01/nothing.png").status_code == 404


@pytest.mark.parametrize(
    "path",
    [
        "/media/../secret.txt",
        "/media/%2e%2e/secret.txt",
        "/media/2026/../../secret.txt",
        "/media//etc/passwd",
        "/media/%2Fetc%2Fpasswd",
        "/media/a%00.png",
        "/media/a\\..\\secret.txt",
        "/media/./x.png",
    ],
)
def test_traversal_attempts_are_404(path: str, media_root: Path) -> None:
    secret = media_root.parent / "secret.txt"
    secret.write_text("top secret")
    response = Client().get(path)
    # A NUL in the path is refused as bad input (400) before any view runs (SPEC 2); the rest are 404.
    assert response.status_code == (400 if "%00" in path else 404)
    assert b"top secret" not in response.content


def test_a_symlink_out_of_the_root_is_refused(media_root: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.png"
    outside.write_bytes(image_bytes())
    item = uploaded_png()
    target = media_root / item.storage_key
    target.unlink()
    target.symlink_to(outside)
    assert Client().get(url(item)).status_code == 404


def test_only_get_and_head() -> None:
    item = uploaded_png()
    assert Client().post(url(item)).status_code == 405


def test_media_get_url_resolves_with_debug_off(mcp) -> None:
    from tests.media.test_tools import structured

    item = uploaded_png()
    got = structured(mcp, "media_get", {"id": item.id})["item"]
    response = Client().get(got["url"])
    assert response.status_code == 200
    assert full(response) == image_bytes("PNG", (64, 32))


def test_the_public_sites_image_url_resolves_with_debug_off(cms) -> None:
    import re

    from content.entries import services as content_services
    from tests.factories import make_collection

    make_collection(
        "posts",
        fields=[
            {"slug": "title", "label": "Title", "type": "string", "required": True},
            {"slug": "body", "label": "Body", "type": "portableText"},
        ],
    )
    item = uploaded_png()
    block = {"_type": "image", "_key": "i1", "asset": {"id": item.id}}
    entry = content_services.entry_create(actor=SYSTEM, collection="posts", data={"title": "Pics", "body": [block]})
    content_services.entry_publish(actor=SYSTEM, collection="posts", id=entry.id)
    page = Client().get("/posts/pics/")
    assert page.status_code == 200
    src = re.search(r'<img src="([^"]+)"', page.content.decode()).group(1)
    assert src == f"/media/{item.storage_key}"
    response = Client().get(src)
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
