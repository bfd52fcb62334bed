"""Where our byline tools meet EmDash's (docs/content-model.md, "Bylines"): byline_translations answers
``translations`` (as content_translations does) and ``items`` (EmDash's name, the same list); ``userId`` is the
integer id our users have everywhere, and a string is refused clearly; ``translationOf`` without ``locale`` makes
the default locale's variant (SPEC's default), and when that locale is taken the CONFLICT says to pass ``locale``."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from django.test import Client

from bylines.models import Byline
from tests.mcp.conftest import MCP

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def two_locales(settings: Any) -> None:
    settings.EMDASH = {**settings.EMDASH, "LOCALES": ["en", "fr"]}


def byline(mcp: MCP, slug: str, **extra: Any) -> dict[str, Any]:
    return dict(mcp.ok("byline_create", {"slug": slug, "displayName": slug.title(), **extra}))


def test_translations_come_as_translations_and_as_items(mcp: MCP) -> None:
    source = byline(mcp, "ana")
    variant = byline(mcp, "ana-fr", locale="fr", translationOf=source["id"])
    found = mcp.ok("byline_translations", {"id": source["id"]})
    assert found["items"] == found["translations"]
    assert [b["id"] for b in found["items"]] == [source["id"], variant["id"]]
    rest = Client(headers={"Authorization": f"Bearer {mcp.token}"})
    answer = rest.get(f"/_emdash/api/bylines/{variant['id']}/translations")
    assert answer.status_code == 200 and answer.json()["items"] == answer.json()["translations"]


def test_user_id_is_an_integer_and_a_string_is_refused(mcp: MCP) -> None:
    assert mcp.user is not None
    linked = byline(mcp, "own", userId=mcp.user.pk)
    assert linked["userId"] == mcp.user.pk and linked["isGuest"] is False
    refused = mcp.fails("byline_create", {"slug": "str", "displayName": "S", "userId": str(mcp.user.pk)})
    assert refused["_meta"]["code"] == "VALIDATION_ERROR" and "userId" in refused["content"][0]["text"]
    listed = mcp.fails("byline_list", {"userId": "1"})
    assert listed["_meta"]["code"] == "VALIDATION_ERROR"
    assert not Byline.objects.filter(slug="str").exists()


def test_translation_of_without_locale_is_the_default_locales_variant(mcp: MCP) -> None:
    french = byline(mcp, "luc-fr", locale="fr")
    english = byline(mcp, "luc", translationOf=french["id"])
    assert english["locale"] == "en" and english["translationGroup"] == french["translationGroup"]
    taken = mcp.fails("byline_create", {"slug": "luc-2", "displayName": "L", "translationOf": "luc"})
    assert taken["_meta"]["code"] == "CONFLICT" and "pass locale" in taken["content"][0]["text"]
    rest = Client(headers={"Authorization": f"Bearer {mcp.token}"})
    answer = rest.post("/_emdash/api/bylines", {"slug": "luc-3", "displayName": "L", "translationOf": "luc"},
                       content_type="application/json")  # fmt: skip
    assert answer.status_code == 409 and orjson.loads(answer.content)["error"]["code"] == "CONFLICT"
    assert Byline.objects.count() == 2


def test_a_terms_translation_of_without_locale_says_the_same(mcp: MCP) -> None:
    mcp.ok("taxonomy_create_term", {"taxonomy": "tag", "slug": "jam", "label": "Jam"})
    taken = mcp.fails("taxonomy_create_term", {"taxonomy": "tag", "label": "Confiture", "translationOf": "jam"})
    assert taken["_meta"]["code"] == "CONFLICT" and "pass locale" in taken["content"][0]["text"]
    made = mcp.ok("taxonomy_create_term", {"taxonomy": "tag", "label": "Confiture", "translationOf": "jam",
                                           "locale": "fr"})  # fmt: skip
    assert made["term"]["slug"] == "confiture" and made["term"]["locale"] == "fr"
