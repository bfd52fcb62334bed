"""The public theme's images (SPEC 11 "Responsive markup"): image fields and inline images render <img srcset sizes
width height loading=lazy decoding=async> with the placeholder colour, from the details the read brought along
(no query per image); og:image is the 1200x630 cover rendition with its real size and alt; a media change moves
the page's ETag."""

from __future__ import annotations

import io
import re
from typing import Any

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from PIL import Image

from content.entries import services
from content.stamps import forget_all
from media import services as media_services
from tests.media.helpers import image_bytes, make_media
from tests.site.conftest import SYSTEM, body


def _cover(size: tuple[int, int], **extra: Any) -> Any:
    return make_media(SYSTEM, content=image_bytes("JPEG", size), mime_type="image/jpeg", **extra)


def _set(entry_id: str, **data: Any) -> None:
    services.entry_update(actor=SYSTEM, collection="posts", id=entry_id, data=data)
    services.entry_publish(actor=SYSTEM, collection="posts", id=entry_id)


def _tag(html: str, name: str) -> str:
    found = re.search(rf'<meta (?:property|name)="{re.escape(name)}" content="([^"]*)">', html)
    assert found, name
    return found.group(1).replace("&amp;", "&")


def _imgs(html: str) -> list[str]:
    return re.findall(r"<img [^>]*>", html)


def test_cover_and_inline_images_render_responsive_markup(site) -> None:
    cover, inline = _cover((2000, 1000), alt="The sea"), _cover((500, 400))
    inline_block = {"_type": "image", "_key": "im", "asset": {"id": inline.id}, "alt": "A jar"}
    _set(site["hello"].id, cover={"id": cover.id}, body=[*body("Intro."), inline_block])
    html = Client().get("/posts/hello-world/").content.decode()
    images = [tag for tag in _imgs(html) if "srcset" in tag]
    assert len(images) == 2, _imgs(html)
    for tag, item, alt in ((images[0], cover, "The sea"), (images[1], inline, "A jar")):
        for part in (
            f'alt="{alt}"',
            f'width="{item.width}" height="{item.height}"',
            'loading="lazy"',
            'decoding="async"',
            f'data-placeholder="{item.dominant_color}"',
            'sizes="',
            f" {item.width}w",
        ):
            assert part in tag, (part, tag)


def test_og_image_is_the_cover_rendition_with_its_size_and_alt(site) -> None:
    cover = _cover((2000, 1000), alt="The sea")
    _set(site["hello"].id, cover={"id": cover.id})
    html = Client().get("/posts/hello-world/").content.decode()
    url = _tag(html, "og:image")
    assert url.startswith("http://testserver/_emdash/media/") and "/1200x630/cover.jpeg?v=" in url
    assert (_tag(html, "og:image:width"), _tag(html, "og:image:height")) == ("1200", "630")
    assert _tag(html, "og:image:alt") == _tag(html, "twitter:image:alt") == "The sea"
    assert _tag(html, "twitter:image") == url


def test_a_small_original_announces_the_size_its_rendition_really_has(site) -> None:
    cover = _cover((800, 600))  # never upscaled: the 1200x630 crop of an 800 px image is 800x420
    _set(site["hello"].id, cover={"id": cover.id})
    html = Client().get("/posts/hello-world/").content.decode()
    announced = (int(_tag(html, "og:image:width")), int(_tag(html, "og:image:height")))
    rendered = Client().get(_tag(html, "og:image").removeprefix("http://testserver"))
    assert rendered.status_code == 200
    assert Image.open(io.BytesIO(b"".join(rendered.streaming_content))).size == announced == (800, 420)
    assert "og:image:alt" not in html  # no alt anywhere: no empty alt tag


def test_the_items_own_seo_image_and_alt_win(site) -> None:
    cover, shared = _cover((2000, 1000), alt="The sea"), _cover((1600, 900))
    _set(site["hello"].id, cover={"id": cover.id})
    services.entry_update(
        actor=SYSTEM, collection="posts", id=site["hello"].id, seo={"image": {"id": shared.id, "alt": "Jars"}}
    )
    services.entry_publish(actor=SYSTEM, collection="posts", id=site["hello"].id)
    html = Client().get("/posts/hello-world/").content.decode()
    assert f"/_emdash/media/{shared.id}/1200x630/cover.jpeg" in _tag(html, "og:image")
    assert _tag(html, "og:image:alt") == "Jars"


def test_a_warm_entry_page_with_images_stays_within_four_queries(site) -> None:
    cover, inline = _cover((2000, 1000)), _cover((500, 400))
    inline_block = {"_type": "image", "_key": "im", "asset": {"id": inline.id}}
    _set(site["hello"].id, cover={"id": cover.id}, body=[*body("Intro."), inline_block])
    client = Client()
    forget_all()
    client.get("/posts/hello-world/")
    with CaptureQueriesContext(connection) as captured:
        response = client.get("/posts/hello-world/")
    assert response.status_code == 200 and len(_imgs(response.content.decode())) == 2
    assert len(captured) <= 4, "\n".join(q["sql"] for q in captured.captured_queries)


def test_a_list_page_reads_every_cover_in_one_query(site, settings) -> None:
    covers = [_cover((640 + i, 360)) for i in range(3)]
    from settings_app import services as settings_services

    settings_services.settings_update(actor=SYSTEM, changes={"postsPerPage": 10})
    for i, cover in enumerate(covers):
        entry = services.entry_create(
            actor=SYSTEM, collection="posts", data={"title": f"Pic {i}", "cover": {"id": cover.id}}
        )
        services.entry_publish(actor=SYSTEM, collection="posts", id=entry.id)
    with CaptureQueriesContext(connection) as captured:
        html = Client().get("/").content.decode()
    assert len([q for q in captured.captured_queries if "media_mediaitem" in q["sql"]]) == 1
    cards = [tag for tag in _imgs(html) if "srcset" in tag]
    assert len(cards) == 3 and all('alt=""' in tag and 'sizes="(max-width: 640px)' in tag for tag in cards)


def test_changing_a_used_image_moves_the_page_etag(site) -> None:
    cover = _cover((2000, 1000), alt="Before")
    _set(site["hello"].id, cover={"id": cover.id})
    client = Client()
    etag = client.get("/posts/hello-world/")["ETag"]
    media_services.media_update(actor=SYSTEM, id=cover.id, alt="After", focal_point={"x": 0.2, "y": 0.5})
    again = client.get("/posts/hello-world/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200 and 'alt="After"' in again.content.decode()
