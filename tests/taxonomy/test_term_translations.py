"""Terms in several locales (SPEC 10): locale and translationGroup, translationOf on create and
taxonomy_term_translations, answered as content_translations answers an item's variants."""

from __future__ import annotations

from typing import Any

import pytest

from taxonomy.models import Term
from tests.mcp.conftest import MCP

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def two_locales(settings: Any) -> None:
    settings.EMDASH = {**settings.EMDASH, "LOCALES": ["en", "fr"]}


def create(mcp: MCP, slug: str, **extra: Any) -> dict[str, Any]:
    args = {"taxonomy": "category", "slug": slug, "label": slug.title(), **extra}
    return mcp.ok("taxonomy_create_term", args)["term"]


def test_a_new_term_is_in_the_default_locale_and_its_own_group(mcp: MCP) -> None:
    news = create(mcp, "news")
    assert news["locale"] == "en" and news["translationGroup"] == news["id"]


def test_translation_of_joins_the_group_by_slug_or_id(mcp: MCP) -> None:
    news = create(mcp, "news")
    french = create(mcp, "actualites", locale="fr", translationOf="news")
    assert french["locale"] == "fr" and french["translationGroup"] == news["id"]
    for ident in ({"termSlug": "actualites"}, {"termSlug": news["id"]}, {"id": french["id"]}):
        found = mcp.ok("taxonomy_term_translations", {"taxonomy": "category", **ident})
        assert found["translationGroup"] == news["id"]
        assert [(t["slug"], t["locale"]) for t in found["translations"]] == [("news", "en"), ("actualites", "fr")]


def test_a_second_variant_in_one_locale_or_an_unknown_source_is_refused(mcp: MCP) -> None:
    create(mcp, "news")
    create(mcp, "actualites", locale="fr", translationOf="news")
    taken = mcp.fails(
        "taxonomy_create_term",
        {"taxonomy": "category", "slug": "infos", "label": "Infos", "locale": "fr", "translationOf": "news"},
    )
    assert taken["_meta"]["code"] == "CONFLICT" and "taxonomy_term_translations" in taken["content"][0]["text"]
    unknown = mcp.fails(
        "taxonomy_create_term",
        {"taxonomy": "category", "slug": "x", "label": "X", "locale": "fr", "translationOf": "nope"},
    )
    assert unknown["_meta"]["code"] == "VALIDATION_ERROR" and "translationOf" in unknown["content"][0]["text"]
    bad_locale = mcp.fails("taxonomy_create_term", {"taxonomy": "category", "slug": "y", "label": "Y", "locale": "de"})
    assert bad_locale["_meta"]["code"] == "VALIDATION_ERROR"
    assert Term.objects.filter(taxonomy__name="category").count() == 2


def test_a_parent_in_another_locale_is_refused_on_create_and_move(mcp: MCP) -> None:
    """A term's parent is in its own locale (the reference keys hierarchy by locale too); nothing changes."""
    news = create(mcp, "news")
    french = create(mcp, "actualites", locale="fr", translationOf="news")
    wrong = mcp.fails(
        "taxonomy_create_term",
        {"taxonomy": "category", "slug": "sport", "label": "Sport", "locale": "fr", "parentId": news["id"]},
    )
    assert wrong["_meta"]["code"] == "VALIDATION_ERROR" and "parentId" in wrong["content"][0]["text"]
    assert not Term.objects.filter(slug="sport").exists()
    child = create(mcp, "sport", locale="fr", parentId=french["id"])
    assert child["parentId"] == french["id"]
    moved = mcp.fails("taxonomy_update_term", {"taxonomy": "category", "termSlug": "sport", "parentId": news["id"]})
    assert moved["_meta"]["code"] == "VALIDATION_ERROR" and "locale 'en'" in moved["content"][0]["text"]
    assert Term.objects.get(slug="sport").parent_id == french["id"]


def test_the_translations_tool_needs_a_term(mcp: MCP) -> None:
    assert mcp.fails("taxonomy_term_translations", {"taxonomy": "category"})["_meta"]["code"] == "VALIDATION_ERROR"
    missing = mcp.fails("taxonomy_term_translations", {"taxonomy": "category", "termSlug": "nope"})
    assert missing["_meta"]["code"] == "NOT_FOUND"


def test_the_rest_route(client: Any, mcp: MCP) -> None:
    create(mcp, "news")
    answer = client.get("/_emdash/api/taxonomies/category/terms/news/translations")
    assert answer.status_code == 200 and answer.json()["translations"][0]["slug"] == "news"


def test_list_terms_takes_a_locale_as_emdash_does(mcp: MCP, client: Any) -> None:
    """Omitted: every locale's terms; given: that locale's only; a cursor belongs to its locale's listing."""
    create(mcp, "news")
    create(mcp, "sport")
    create(mcp, "actualites", locale="fr", translationOf="news")
    every = mcp.ok("taxonomy_list_terms", {"taxonomy": "category"})["items"]
    assert {t["slug"] for t in every} == {"news", "sport", "actualites"}
    french = mcp.ok("taxonomy_list_terms", {"taxonomy": "category", "locale": "fr"})["items"]
    assert [(t["slug"], t["locale"]) for t in french] == [("actualites", "fr")]
    first = mcp.ok("taxonomy_list_terms", {"taxonomy": "category", "locale": "en", "limit": 1})
    assert [t["slug"] for t in first["items"]] == ["news"]
    second = mcp.ok("taxonomy_list_terms", {"taxonomy": "category", "locale": "en", "cursor": first["nextCursor"]})
    assert [t["slug"] for t in second["items"]] == ["sport"] and "nextCursor" not in second
    other = mcp.fails("taxonomy_list_terms", {"taxonomy": "category", "locale": "fr", "cursor": first["nextCursor"]})
    assert other["_meta"]["code"] == "INVALID_CURSOR"
    bad = mcp.fails("taxonomy_list_terms", {"taxonomy": "category", "locale": "de"})
    assert bad["_meta"]["code"] == "VALIDATION_ERROR" and "locale" in bad["content"][0]["text"]
    rest = client.get("/_emdash/api/taxonomies/category/terms?locale=fr")
    assert rest.status_code == 200 and [t["slug"] for t in rest.json()["items"]] == ["actualites"]
    assert client.get("/_emdash/api/taxonomies/category/terms?locale=de").status_code == 400


def test_an_id_may_name_the_translation_group_as_emdash_allows(mcp: MCP) -> None:
    """The group keeps the first variant's id after that variant is deleted; the id still finds the others."""
    news = create(mcp, "news")
    create(mcp, "actualites", locale="fr", translationOf="news")
    mcp.ok("taxonomy_delete_term", {"taxonomy": "category", "termSlug": "news"})
    found = mcp.ok("taxonomy_term_translations", {"taxonomy": "category", "id": news["id"]})
    assert found["translationGroup"] == news["id"] and [t["slug"] for t in found["translations"]] == ["actualites"]
