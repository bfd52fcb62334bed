"""SPEC 10 on the public site: terms in the page's locale, falling back to the default locale's.

An entry page labels and links each term as its own locale's variant (chosen inside the entry's one read, so a
warm page stays at four queries); a term archive is in one locale (the term's, or a configured ``?locale=``),
shows that locale's variant and lists that locale's items carrying any variant; the RSS feed's categories and
the template query API follow the same rule."""

from __future__ import annotations

from typing import Any
from xml.etree import ElementTree

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from public_site import query
from tests.mcp.conftest import MCP

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def two_locales(settings: Any) -> None:
    settings.EMDASH = {**settings.EMDASH, "LOCALES": ["en", "fr"]}


def term(admin: MCP, slug: str, label: str, **extra: Any) -> None:
    admin.ok("taxonomy_create_term", {"taxonomy": "category", "slug": slug, "label": label, **extra})


def post(admin: MCP, title: str, categories: list[str], **extra: Any) -> dict[str, Any]:
    args = {"collection": "posts", "status": "published", "data": {"title": title}, "terms": {"category": categories}}
    return admin.ok("content_create", {**args, **extra})["item"]


@pytest.fixture
def bilingual(posts: Any, mcp: MCP) -> dict[str, Any]:
    term(mcp, "news", "News")
    term(mcp, "actualites", "Actualites", locale="fr", translationOf="news")
    term(mcp, "sport", "Sport")  # no French variant: French pages fall back to it
    hello = post(mcp, "Hello", ["news", "sport"])
    # The French item carries the English term: its page still shows the French variant.
    bonjour = post(mcp, "Bonjour", ["news", "sport"], locale="fr", translationOf=hello["id"])
    tagged_fr = post(mcp, "Salut", ["actualites"], locale="fr")
    return {"hello": hello, "bonjour": bonjour, "salut": tagged_fr}


def links(page: str) -> list[str]:
    start = page.index('<ul class="terms"')
    return [part.split('"')[0] for part in page[start:].split('href="')[1:] if "/category/" in part.split('"')[0]]


def test_an_entry_page_shows_its_locales_term_with_the_default_fallback(bilingual: dict[str, Any]) -> None:
    english = Client().get("/posts/hello/").content.decode()
    assert ">News</a>" in english and ">Sport</a>" in english and "Actualites" not in english
    assert links(english) == ["/category/news/", "/category/sport/"]
    french = Client().get("/posts/bonjour/").content.decode()
    assert ">Actualites</a>" in french and ">News</a>" not in french
    # Sport has no French variant: the English term, its archive asked in French. A French term's link names its
    # locale: slugs are unique per locale, and the slug alone means the default locale's term.
    assert links(french) == ["/category/actualites/?locale=fr", "/category/sport/?locale=fr"]


def test_a_warm_entry_page_reads_the_localized_terms_with_the_entry(bilingual: dict[str, Any]) -> None:
    client = Client()
    client.get("/posts/bonjour/")
    with CaptureQueriesContext(connection) as captured:
        page = client.get("/posts/bonjour/").content.decode()
    assert ">Actualites</a>" in page
    assert len(captured) <= 4, "\n".join(q["sql"] for q in captured.captured_queries)


def test_an_archive_lists_its_locales_items_under_its_locales_label(bilingual: dict[str, Any]) -> None:
    french = Client().get("/category/actualites/").content.decode()
    assert "Category: Actualites" in french
    assert "Bonjour" in french and "Salut" in french and "Hello" not in french
    english = Client().get("/category/news/").content.decode()
    assert "Category: News" in english and "Hello" in english and "Bonjour" not in english
    # The English term's archive asked in French: the French variant's label, the French items.
    asked = Client().get("/category/news/?locale=fr").content.decode()
    assert "Category: Actualites" in asked and "Bonjour" in asked and "Hello" not in asked
    fallback = Client().get("/category/sport/?locale=fr").content.decode()
    assert "Category: Sport" in fallback and "Bonjour" in fallback and "Hello" not in fallback
    # An unconfigured ?locale= is ignored (the term's own locale), as it is for menus.
    assert "Hello" in Client().get("/category/sport/?locale=de").content.decode()


def test_the_feed_names_each_items_categories_in_its_locale(bilingual: dict[str, Any]) -> None:
    feed = ElementTree.fromstring(Client().get("/feed.xml").content)
    categories = {i.findtext("title"): [c.text or "" for c in i.findall("category")] for i in feed.iter("item")}
    assert sorted(categories["Hello"]) == ["News", "Sport"]
    assert sorted(categories["Bonjour"]) == ["Actualites", "Sport"]
    assert categories["Salut"] == ["Actualites"]


def test_the_template_query_api_takes_a_locale(bilingual: dict[str, Any]) -> None:
    every = {node["slug"] for node in query.terms("category")}
    assert every == {"news", "actualites", "sport"}
    french = {node["slug"]: node["label"] for node in query.terms("category", locale="fr")}
    assert french == {"actualites": "Actualites", "sport": "Sport"}
    shown = query.term("category", "news", locale="fr")
    assert shown is not None and shown["slug"] == "actualites"
    entry = query.entry("posts", "bonjour", locale="fr")
    assert entry is not None and [t["label"] for t in entry["terms"]["category"]] == ["Actualites", "Sport"]
    page = query.term_archive("category", "news", ["posts"], locale="fr")
    assert sorted(i["data"]["title"] for i in page.items) == ["Bonjour", "Salut"]
