"""Menus in several locales (SPEC 10): a name unique per locale, locale on every menu tool, translationOf and
menu_translations, menu_set_items keeping translation links, and the public site's locale fallback."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from menus.models import Menu
from tests.mcp.conftest import MCP

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def two_locales(settings: Any) -> None:
    settings.EMDASH = {**settings.EMDASH, "LOCALES": ["en", "fr"]}


def custom(label: str, **extra: Any) -> dict[str, Any]:
    return {"label": label, "type": "custom", "customUrl": f"/{label.lower()}/", **extra}


def make_pair(mcp: MCP) -> tuple[dict[str, Any], dict[str, Any]]:
    english = mcp.ok("menu_create", {"name": "main", "label": "Main"})
    french = mcp.ok("menu_create", {"name": "main", "label": "Principal", "locale": "fr", "translationOf": "main"})
    return english, french


def test_a_name_is_unique_per_locale_and_variants_share_a_group(mcp: MCP) -> None:
    english, french = make_pair(mcp)
    assert english["locale"] == "en" and french["locale"] == "fr"
    assert french["translationGroup"] == english["translationGroup"] == str(english["id"])
    again = mcp.fails("menu_create", {"name": "main", "label": "Again", "locale": "fr"})
    assert again["_meta"]["code"] == "CONFLICT"
    found = mcp.ok("menu_translations", {"name": "main", "locale": "fr"})
    assert found["translationGroup"] == str(english["id"])
    assert [(m["locale"], m["label"]) for m in found["translations"]] == [("en", "Main"), ("fr", "Principal")]
    side = mcp.ok("menu_create", {"name": "side", "label": "Side"})
    by_id = mcp.ok("menu_create", {"name": "cote", "label": "Cote", "locale": "fr", "translationOf": str(side["id"])})
    assert by_id["translationGroup"] == side["translationGroup"]
    taken = mcp.fails("menu_create", {"name": "x", "label": "X", "locale": "fr", "translationOf": str(side["id"])})
    assert taken["_meta"]["code"] == "CONFLICT"


def test_every_menu_tool_picks_the_locale_and_defaults_to_the_default_one(mcp: MCP) -> None:
    make_pair(mcp)
    mcp.ok("menu_set_items", {"name": "main", "locale": "fr", "items": [custom("Accueil")]})
    assert mcp.ok("menu_get", {"name": "main"})["items"] == []
    assert [i["label"] for i in mcp.ok("menu_get", {"name": "main", "locale": "fr"})["items"]] == ["Accueil"]
    assert mcp.ok("menu_update", {"name": "main", "locale": "fr", "label": "Menu"})["label"] == "Menu"
    assert mcp.ok("menu_get", {"name": "main"})["label"] == "Main"
    assert [m["locale"] for m in mcp.ok("menu_list", {"locale": "fr"})["items"]] == ["fr"]
    assert len(mcp.ok("menu_list", {})["items"]) == 2
    mcp.ok("menu_delete", {"name": "main", "locale": "fr"})
    assert list(Menu.objects.values_list("locale", flat=True)) == ["en"]


def test_an_unknown_menu_lists_the_menus(mcp: MCP) -> None:
    make_pair(mcp)
    text = mcp.fails("menu_get", {"name": "nope"})["content"][0]["text"]
    assert "not found in locale 'en' (known: main;" in text and "menu_create adds one" in text


def test_set_items_keeps_the_menus_links_and_an_items_id_and_group(mcp: MCP) -> None:
    english, _ = make_pair(mcp)
    mcp.ok("menu_set_items", {"name": "main", "items": [custom("Home"), custom("About")]})
    first = mcp.ok("menu_get", {"name": "main"})["items"]
    sent = [{"id": first[1]["id"], "label": "About us", "type": "custom", "customUrl": "/about/"}, custom("New")]
    mcp.ok("menu_set_items", {"name": "main", "items": sent})
    after = mcp.ok("menu_get", {"name": "main"})
    assert after["items"][0]["id"] == first[1]["id"]
    assert after["items"][0]["translationGroup"] == first[1]["translationGroup"]
    assert after["items"][1]["id"] not in {i["id"] for i in first}
    assert after["translationGroup"] == english["translationGroup"]
    assert len(mcp.ok("menu_translations", {"name": "main"})["translations"]) == 2


def test_an_id_from_another_menu_is_refused_and_nothing_changes(mcp: MCP) -> None:
    make_pair(mcp)
    mcp.ok("menu_set_items", {"name": "main", "locale": "fr", "items": [custom("Accueil")]})
    foreign = mcp.ok("menu_get", {"name": "main", "locale": "fr"})["items"][0]["id"]
    bad = mcp.fails("menu_set_items", {"name": "main", "items": [custom("X", id=foreign)]})
    assert bad["_meta"]["code"] == "VALIDATION_ERROR" and "items.0.id" in bad["content"][0]["text"]
    assert mcp.ok("menu_get", {"name": "main"})["items"] == []


def test_the_public_site_picks_the_locales_menu_with_the_default_fallback(posts: Any, mcp: MCP) -> None:
    mcp.ok("menu_create", {"name": "primary", "label": "Primary"})
    mcp.ok("menu_set_items", {"name": "primary", "items": [custom("English")]})
    post = {"collection": "posts", "status": "published"}
    en = mcp.ok("content_create", {**post, "data": {"title": "Hello"}})["item"]
    mcp.ok("content_create", {**post, "data": {"title": "Bonjour"}, "locale": "fr", "translationOf": en["id"]})
    assert "English" in Client().get("/posts/bonjour/").content.decode()  # no French menu yet: the default one
    mcp.ok("menu_create", {"name": "primary", "label": "Principal", "locale": "fr", "translationOf": "primary"})
    mcp.ok("menu_set_items", {"name": "primary", "locale": "fr", "items": [custom("Francais")]})
    french = Client().get("/posts/bonjour/").content.decode()
    assert "Francais" in french and "English" not in french
    assert "English" in Client().get("/posts/hello/").content.decode()
