"""Media results carry renditions, a srcset and the focal point (SPEC 11) over MCP and REST; media_update sets the
focal point and refuses one out of range; S3 media URLs are stable (no expiring signature)."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client

from emdash.actor import Actor
from media import presenters
from media.storage import url_for
from tests.mcp.conftest import MCP
from tests.media.helpers import PDF, image_bytes, make_media
from tests.media.storages import use_s3
from tests.media.test_tools import structured

pytestmark = pytest.mark.django_db
SYSTEM = Actor.system()


def test_mcp_media_get_has_renditions_srcset_and_focal_point(mcp: MCP) -> None:
    item = make_media(SYSTEM, content=image_bytes("JPEG", (1000, 500)), mime_type="image/jpeg")
    got = structured(mcp, "media_get", {"id": item.id})["item"]
    assert got["focalPoint"] == {"x": 0.5, "y": 0.5}
    assert set(got["renditions"]) == {"thumbnail", "medium", "large", "openGraph"}
    assert "/1200x630/cover.jpeg?v=" in got["renditions"]["openGraph"]
    widths = [part.rsplit(" ", 1)[1] for part in got["srcset"].split(", ")]
    assert widths == ["160w", "320w", "640w", "960w", "1000w"]  # the last: the original's own width
    for candidate in got["srcset"].split(", "):
        assert Client().get(candidate.split(" ")[0], HTTP_ACCEPT="image/webp").status_code == 200
    assert got["blurhash"] and got["dominantColor"]


def test_mcp_media_update_sets_the_focal_point_and_refuses_out_of_range(mcp: MCP) -> None:
    item = make_media(SYSTEM, content=image_bytes("PNG", (400, 300)))
    updated = structured(mcp, "media_update", {"id": item.id, "focalPoint": {"x": 0.25, "y": 1}})["item"]
    assert updated["focalPoint"] == {"x": 0.25, "y": 1.0}
    refused = mcp.call("media_update", {"id": item.id, "focalPoint": {"x": 1.5, "y": 0}})
    assert refused["isError"] is True and "focalPoint.x: must be at most 1" in refused["content"][0]["text"]
    item.refresh_from_db()
    assert (item.focal_x, item.focal_y) == (0.25, 1.0)


def test_rest_media_list_carries_renditions_and_files_have_none(mcp: MCP) -> None:
    make_media(SYSTEM, content=PDF, mime_type="application/pdf")
    make_media(SYSTEM, content=image_bytes("PNG", (200, 100)))
    client = Client(HTTP_AUTHORIZATION=f"Bearer {mcp.token}")
    items = client.get("/_emdash/api/media").json()["items"]
    by_type = {i["mimeType"]: i for i in items}
    assert by_type["application/pdf"]["renditions"] is None and by_type["application/pdf"]["srcset"] is None
    assert by_type["image/png"]["srcset"].endswith(" 200w")


def test_s3_urls_are_stable_without_signatures(settings: Any, s3_endpoint: str) -> None:
    bucket = use_s3(settings, s3_endpoint)
    item = make_media(SYSTEM, content=image_bytes("PNG", (40, 20)))
    url = presenters.item(item)["url"]
    assert url == f"{s3_endpoint}/{bucket}/{item.storage_key}"
    assert not parse_qs(urlsplit(url).query)  # no X-Amz-Signature / Expires: the same URL tomorrow
    assert url_for(item.storage_key) == url


def test_signed_urls_are_an_explicit_choice(settings: Any, s3_endpoint: str) -> None:
    use_s3(settings, s3_endpoint, querystring_auth=True, querystring_expire=600)
    item = make_media(SYSTEM, content=image_bytes("PNG", (40, 20)))
    query = parse_qs(urlsplit(presenters.item(item)["url"]).query)
    assert "X-Amz-Signature" in query or "Signature" in query


def test_the_template_tag_renders_responsive_markup() -> None:
    from django.template import Context, Template

    item = presenters.item(make_media(SYSTEM, content=image_bytes("JPEG", (700, 350)), mime_type="image/jpeg"))
    html = Template('{% load emdash_site %}{% media_img item sizes="50vw" %}').render(Context({"item": item}))
    assert html.startswith(f'<img src="{item["renditions"]["medium"].replace("&", "&amp;")}" alt=""')
    for part in ('sizes="50vw"', 'width="700" height="350"', 'loading="lazy"', 'decoding="async"', "srcset="):
        assert part in html
    assert f'data-placeholder="{item["dominantColor"]}"' in html
