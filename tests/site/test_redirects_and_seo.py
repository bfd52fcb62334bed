"""The public site: moved URLs answer 301, per-item SEO in the <head>, noindex out of the sitemap, publishedAt shown."""

from __future__ import annotations

from django.test import Client

from content.entries import services
from content.redirects import services as redirects
from media import presenters as media_presenters
from tests.media.helpers import make_media
from tests.site.conftest import SYSTEM


def get(path: str, **extra: str):
    return Client().get(path, **extra)


def move(entry_id: str, slug: str) -> None:
    services.entry_update(actor=SYSTEM, collection="posts", id=entry_id, slug=slug)


def test_the_old_url_stays_live_until_publish_then_answers_301(site) -> None:
    hello = site["hello"]
    move(hello.id, "hello-again")
    assert get("/posts/hello-world/").status_code == 200  # the draft's slug is not live yet
    assert get("/posts/hello-again/").status_code == 404
    services.entry_publish(actor=SYSTEM, collection="posts", id=hello.id)
    old = get("/posts/hello-world/?utm=x")
    assert old.status_code == 301 and old["Location"] == "/posts/hello-again/?utm=x"
    assert get("/posts/hello-again/").status_code == 200
    assert Client().head("/posts/hello-world/").status_code == 301
    assert Client().post("/posts/hello-world/").status_code != 301  # only GET and HEAD are redirected


def test_a_live_page_wins_over_a_redirect_and_admin_paths_never_redirect(site) -> None:
    redirects.redirect_create(actor=SYSTEM, source="/posts/second-post/", target="/pages/about-us/")
    assert get("/posts/second-post/").status_code == 200  # live: served, the redirect is ignored
    redirects.redirect_create(actor=SYSTEM, source="/old-shop.html", target="/pages/about-us/")
    answer = get("/old-shop.html")
    assert answer.status_code == 301 and answer["Location"] == "/pages/about-us/"
    assert get("/never-was/").status_code == 404
    assert get("/_emdash/api/nothing-here").status_code == 404


def test_a_redirect_row_pointing_off_site_is_not_followed(site) -> None:
    from content.models import Redirect
    from emdash.ids import new_id

    Redirect.objects.create(id=new_id(), source="/sneaky/", target="//evil.example/")  # written around the service
    assert get("/sneaky/").status_code == 404


def test_entry_seo_fills_the_head(site) -> None:
    image = make_media(SYSTEM)
    seo = {
        "title": "Jam, explained",
        "description": "Everything about marmalade",
        "image": {"id": image.id},
        "canonical": "https://canonical.example/jam/",
    }
    services.entry_update(actor=SYSTEM, collection="posts", id=site["hello"].id, seo=seo)
    services.entry_publish(actor=SYSTEM, collection="posts", id=site["hello"].id)
    html = get("/posts/hello-world/").content.decode()
    assert "<title>Jam, explained · Marmalade Times</title>" in html
    assert '<meta name="description" content="Everything about marmalade">' in html
    assert '<meta property="og:title" content="Jam, explained">' in html
    assert '<meta name="twitter:title" content="Jam, explained">' in html
    assert '<meta property="og:description" content="Everything about marmalade">' in html
    assert '<link rel="canonical" href="https://canonical.example/jam/">' in html
    url = media_presenters.item(image)["url"]
    assert (
        f'<meta property="og:image" content="{url if url.startswith("http") else "http://testserver" + url}">' in html
    )
    assert '<meta name="twitter:card" content="summary_large_image">' in html
    assert 'name="robots"' not in html


def test_pending_seo_waits_for_publish(site) -> None:
    services.entry_update(actor=SYSTEM, collection="posts", id=site["hello"].id, seo={"title": "Not yet"})
    assert "Not yet" not in get("/posts/hello-world/").content.decode()
    services.entry_publish(actor=SYSTEM, collection="posts", id=site["hello"].id)
    assert "<title>Not yet · Marmalade Times</title>" in get("/posts/hello-world/").content.decode()


def test_noindex_sets_robots_and_leaves_the_sitemap(site) -> None:
    services.entry_update(
        actor=SYSTEM, collection="posts", id=site["hello"].id, seo={"noindex": True, "canonical": "/pages/about-us/"}
    )
    services.entry_publish(actor=SYSTEM, collection="posts", id=site["hello"].id)
    html = get("/posts/hello-world/").content.decode()
    assert '<meta name="robots" content="noindex">' in html
    assert '<link rel="canonical" href="http://testserver/pages/about-us/">' in html  # a site path made absolute
    sitemap = get("/sitemap.xml").content.decode()
    assert "/posts/hello-world/" not in sitemap and "/posts/second-post/" in sitemap


def test_published_at_shows_on_the_page_in_rss_and_the_sitemap_keeps_the_item(site) -> None:
    entry = services.entry_create(actor=SYSTEM, collection="posts", data={"title": "From the archive"})
    services.entry_publish(actor=SYSTEM, collection="posts", id=entry.id, published_at="2015-03-04T10:00:00Z")
    html = get("/posts/from-the-archive/").content.decode()
    assert '<meta property="article:published_time" content="2015-03-04T10:00:00Z">' in html
    assert 'datetime="2015-03-04T10:00:00Z"' in html
    feed = get("/feed.xml").content.decode()
    assert "<pubDate>Wed, 04 Mar 2015 10:00:00 +0000</pubDate>" in feed
    assert "/posts/from-the-archive/" in get("/sitemap.xml").content.decode()
