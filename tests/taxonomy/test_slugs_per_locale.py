"""Term slugs are unique per taxonomy and locale (SPEC 10, as EmDash keys them): a French "news" beside an English
"news" is two terms. A slug alone means the wanted locale's term (the item's, the menu's, the page's), else the
default locale's, else the only one; several in other locales is a VALIDATION_ERROR naming their ids. An id names
one term. Every door: MCP, REST, the public site, menus, content assignments."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from django.test import Client

from menus.models import MenuItem
from taxonomy.models import Term, TermAssignment
from tests.mcp.conftest import MCP

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def three_locales(settings: Any) -> None:
    settings.EMDASH = {**settings.EMDASH, "LOCALES": ["en", "fr", "de"]}


def create(mcp: MCP, slug: str, label: str, **extra: Any) -> dict[str, Any]:
    return mcp.ok("taxonomy_create_term", {"taxonomy": "category", "slug": slug, "label": label, **extra})["term"]


def rest(mcp: MCP) -> Client:
    return Client(headers={"Authorization": f"Bearer {mcp.token}"})


@pytest.fixture
def news(mcp: MCP) -> dict[str, dict[str, Any]]:
    """An English "news" and a French "news" (a different term), plus an English-only "sport"."""
    return {
        "en": create(mcp, "news", "News"),
        "fr": create(mcp, "news", "Nouvelles", locale="fr"),
        "sport": create(mcp, "sport", "Sport"),
    }


def terms_of(item: dict[str, Any]) -> list[str]:
    return [t["id"] for t in item["terms"].get("category", [])]


def test_one_slug_in_two_locales_is_two_terms_and_a_third_in_one_locale_is_refused(mcp: MCP, news: Any) -> None:
    assert news["en"]["id"] != news["fr"]["id"] and news["fr"]["locale"] == "fr"
    again = mcp.fails("taxonomy_create_term", {"taxonomy": "category", "slug": "news", "label": "X", "locale": "fr"})
    assert again["_meta"]["code"] == "SLUG_CONFLICT" and "locale 'fr'" in again["content"][0]["text"]
    answer = rest(mcp).post(
        "/_emdash/api/taxonomies/category/terms", {"slug": "news", "label": "Y"}, content_type="application/json"
    )
    assert answer.status_code == 409 and orjson.loads(answer.content)["error"]["code"] == "SLUG_CONFLICT"
    assert Term.objects.filter(slug="news").count() == 2


def test_a_slug_alone_means_the_default_locales_term_and_an_id_names_any(mcp: MCP, news: Any) -> None:
    updated = mcp.ok("taxonomy_update_term", {"taxonomy": "category", "termSlug": "news", "label": "Headlines"})
    assert updated["term"]["id"] == news["en"]["id"]
    by_id = mcp.ok("taxonomy_update_term", {"taxonomy": "category", "termSlug": news["fr"]["id"], "label": "Infos"})
    assert by_id["term"]["id"] == news["fr"]["id"]
    assert {t.locale: t.label for t in Term.objects.filter(slug="news")} == {"en": "Headlines", "fr": "Infos"}
    mcp.ok("taxonomy_delete_term", {"taxonomy": "category", "termSlug": "news"})
    assert list(Term.objects.filter(slug="news").values_list("locale", flat=True)) == ["fr"]
    # Now the only "news" is French: the slug alone finds it.
    found = rest(mcp).get("/_emdash/api/taxonomies/category/terms/news")
    assert found.status_code == 200 and found.json()["term"]["id"] == news["fr"]["id"]


def test_the_rest_read_takes_a_locale(mcp: MCP, news: Any) -> None:
    client = rest(mcp)
    assert client.get("/_emdash/api/taxonomies/category/terms/news").json()["term"]["label"] == "News"
    assert client.get("/_emdash/api/taxonomies/category/terms/news?locale=fr").json()["term"]["label"] == "Nouvelles"
    assert client.get("/_emdash/api/taxonomies/category/terms/news?locale=xx").status_code == 400


def test_a_slug_is_renamed_within_its_own_locale(mcp: MCP, news: Any) -> None:
    fr = news["fr"]["id"]
    mcp.ok("taxonomy_update_term", {"taxonomy": "category", "termSlug": fr, "slug": "sport"})  # English has one
    taken = mcp.fails("taxonomy_update_term", {"taxonomy": "category", "termSlug": "sport", "slug": "news"})
    assert taken["_meta"]["code"] == "SLUG_CONFLICT"  # the English "sport" to the English "news"
    assert Term.objects.get(pk=news["sport"]["id"]).slug == "sport"
    assert Term.objects.get(pk=fr).slug == "sport"


def test_a_slug_only_other_locales_use_is_ambiguous_and_changes_nothing(mcp: MCP, posts: Any) -> None:
    fr = create(mcp, "presse", "Presse", locale="fr")
    de = create(mcp, "presse", "Presse DE", locale="de")
    refused = mcp.fails("taxonomy_update_term", {"taxonomy": "category", "termSlug": "presse", "label": "Z"})
    text = refused["content"][0]["text"]
    assert refused["_meta"]["code"] == "VALIDATION_ERROR" and fr["id"] in text and de["id"] in text
    assert not Term.objects.filter(label="Z").exists()
    item = {"collection": "posts", "data": {"title": "T"}, "terms": {"category": ["presse"]}}
    ambiguous = mcp.fails("content_create", item)
    assert ambiguous["_meta"]["code"] == "VALIDATION_ERROR" and "terms.category" in ambiguous["content"][0]["text"]
    assert not TermAssignment.objects.exists()
    assert terms_of(mcp.ok("content_create", {**item, "locale": "de"})["item"]) == [de["id"]]


def test_an_items_term_slugs_are_read_in_its_locale(mcp: MCP, posts: Any, news: Any) -> None:
    terms = {"category": ["news", "sport"]}
    english = mcp.ok("content_create", {"collection": "posts", "data": {"title": "E"}, "terms": terms})["item"]
    assert terms_of(english) == [news["en"]["id"], news["sport"]["id"]]
    french = mcp.ok("content_create", {"collection": "posts", "data": {"title": "F"}, "terms": terms, "locale": "fr"})
    # No French "sport": the default locale's.
    assert terms_of(french["item"]) == [news["fr"]["id"], news["sport"]["id"]]
    answer = rest(mcp).put(
        f"/_emdash/api/content/posts/{french['item']['id']}/terms/category",
        {"terms": ["news"]},
        content_type="application/json",
    )
    assert answer.status_code == 200 and [t["id"] for t in answer.json()["terms"]] == [news["fr"]["id"]]


def test_a_menus_term_slug_is_read_in_the_menus_locale(mcp: MCP, news: Any) -> None:
    mcp.ok("menu_create", {"name": "main", "label": "Main"})
    mcp.ok("menu_create", {"name": "main", "label": "Principal", "locale": "fr", "translationOf": "main"})
    link = {"label": "News", "type": "taxonomy", "referenceCollection": "category", "referenceId": "news"}
    for locale in ("en", "fr"):
        mcp.ok("menu_set_items", {"name": "main", "locale": locale, "items": [link]})
    chosen = dict(MenuItem.objects.values_list("menu__locale", "reference_id"))
    assert chosen == {"en": news["en"]["id"], "fr": news["fr"]["id"]}


def test_the_public_archive_and_links_name_the_locale(mcp: MCP, posts: Any, news: Any) -> None:
    args = {"collection": "posts", "status": "published", "terms": {"category": ["news"]}}
    mcp.ok("content_create", {**args, "data": {"title": "Hello"}})
    mcp.ok("content_create", {**args, "data": {"title": "Bonjour"}, "locale": "fr"})
    english = Client().get("/category/news/").content.decode()
    assert "Category: News" in english and "Hello" in english and "Bonjour" not in english
    french = Client().get("/category/news/?locale=fr").content.decode()
    assert "Category: Nouvelles" in french and "Bonjour" in french and "Hello" not in french
    page = Client().get("/posts/bonjour/").content.decode()
    assert 'href="/category/news/?locale=fr"' in page
