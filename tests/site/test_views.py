"""The public theme: pages, archives, search, SEO tags, robots/sitemap/RSS, 404 — published content only."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from settings_app import services as settings_services
from tests.site.conftest import SYSTEM


def get(path: str, client: Client | None = None):
    return (client or Client()).get(path)


def test_home_lists_posts_per_page_with_pagination_menu_and_settings(site) -> None:
    html = get("/").content.decode()
    assert "Marmalade Times" in html and "All about jam" in html
    assert "Second post" in html and "Hello world" not in html  # postsPerPage = 1, newest first
    assert 'href="?page=2"' in html
    assert 'href="/category/news/"' in html and 'href="/pages/about-us/"' in html
    page2 = get("/?page=2").content.decode()
    assert "Hello world" in page2
    assert get("/?page=3").status_code == 404
    assert get("/?page=x").status_code == 404


def test_entry_page_renders_portable_text_terms_and_seo(site) -> None:
    response = get("/posts/hello-world/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "<p>Welcome to the marmalade blog.</p>" in html
    assert "<title>Hello world · Marmalade Times</title>" in html
    assert '<meta property="og:title" content="Hello world">' in html
    assert '<meta property="og:type" content="article">' in html
    assert '<meta name="description" content="The first post">' in html
    assert '<link rel="canonical" href="http://testserver/posts/hello-world/">' in html
    assert 'href="/category/news/"' in html
    assert get("/pages/about-us/").status_code == 200


def test_drafts_are_never_visible_anonymously(site) -> None:
    for path in (f"/posts/{site['draft'].id}/", "/posts/secret-plans/"):
        response = get(path)
        assert response.status_code == 404 and "Secret plans" not in response.content.decode()
    for path in ("/", "/?page=2", "/posts/", "/category/news/", "/search/?q=secret", "/sitemap.xml", "/feed.xml"):
        assert "Secret plans" not in get(path).content.decode(), path


def test_category_archive_and_collection_index(site) -> None:
    html = get("/category/news/").content.decode()
    assert "Category: News" in html and "Hello world" in html and "Second post" not in html
    assert get("/category/nothing/").status_code == 404
    assert "Second post" in get("/posts/").content.decode()
    assert get("/nothing/").status_code == 404


def test_search_page(site) -> None:
    html = get("/search/?q=marmalade").content.decode()
    assert 'href="/posts/hello-world/"' in html and 'href="/pages/about-us/"' in html
    assert "<mark>" in html
    assert get("/search/?q=" + "(" * 50).status_code == 200
    assert 'role="status"' not in get("/search/").content.decode()  # no query, no result count


def test_robots_txt_comes_from_settings(site) -> None:
    default = get("/robots.txt")
    assert default["Content-Type"].startswith("text/plain")
    assert "Sitemap: http://testserver/sitemap.xml" in default.content.decode()
    settings_services.settings_update(actor=SYSTEM, changes={"seo": {"robotsTxt": "User-agent: *\nDisallow: /"}})
    assert get("/robots.txt").content.decode() == "User-agent: *\nDisallow: /\n"


def test_sitemap_and_rss(site) -> None:
    sitemap = get("/sitemap.xml").content.decode()
    assert "<loc>http://testserver/posts/hello-world/</loc>" in sitemap
    assert "<loc>http://testserver/pages/about-us/</loc>" in sitemap
    assert "<loc>http://testserver/category/news/</loc>" in sitemap
    feed = get("/feed.xml")
    assert feed["Content-Type"].startswith("application/rss+xml")
    text = feed.content.decode()
    assert "<title>Marmalade Times</title>" in text and "http://testserver/posts/hello-world/" in text
    assert "<language>en</language>" in text


def test_the_rss_language_is_the_sites_default_locale(site) -> None:
    with override_settings(EMDASH={"LOCALES": ["fr", "en"]}):
        text = get("/feed.xml").content.decode()
    assert "<language>fr</language>" in text and "<language>en</language>" not in text


def test_not_found_page_uses_the_theme(site, settings) -> None:
    settings.DEBUG = False
    response = get("/posts/no-such-thing/")
    assert response.status_code == 404
    assert "Page not found" in response.content.decode() and "Marmalade Times" in response.content.decode()
    assert get("/a/b/c/d/").status_code == 404


@pytest.mark.parametrize("path", ["/", "/search/", "/robots.txt", "/sitemap.xml", "/feed.xml"])
def test_the_site_works_on_an_empty_install(cms, path) -> None:
    assert get(path).status_code == 200
