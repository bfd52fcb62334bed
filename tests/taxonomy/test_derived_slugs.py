"""taxonomy_create_term without ``slug`` (as EmDash's): the slug is made from the label with content's rules (SPEC
6.2: lowercase, accents stripped, other characters to ``-``, at most 80 characters, ``untitled`` when nothing is
left) and is free in the taxonomy and locale (``-2``, ``-3``, ...). A given slug is still checked and never
changed."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from django.test import Client

from taxonomy.models import Term
from tests.mcp.conftest import MCP

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def two_locales(settings: Any) -> None:
    settings.EMDASH = {**settings.EMDASH, "LOCALES": ["en", "fr"]}


def made(mcp: MCP, label: str, **extra: Any) -> str:
    return str(mcp.ok("taxonomy_create_term", {"taxonomy": "category", "label": label, **extra})["term"]["slug"])


def test_the_slug_comes_from_the_label_and_is_free_in_its_locale(mcp: MCP) -> None:
    assert made(mcp, "Café Culture") == "cafe-culture"
    assert made(mcp, "Cafe culture!") == "cafe-culture-2"
    assert made(mcp, "Café Culture", locale="fr") == "cafe-culture"  # another locale: free again
    assert made(mcp, "???") == "untitled"
    assert len(made(mcp, "word " * 40)) <= 80


def test_a_given_slug_is_kept_or_refused_never_changed(mcp: MCP) -> None:
    assert made(mcp, "News", slug="headlines") == "headlines"
    taken = mcp.fails("taxonomy_create_term", {"taxonomy": "category", "label": "H", "slug": "headlines"})
    assert taken["_meta"]["code"] == "SLUG_CONFLICT"
    bad = mcp.fails("taxonomy_create_term", {"taxonomy": "category", "label": "H", "slug": "Not A Slug"})
    assert bad["_meta"]["code"] == "INVALID_SLUG"
    assert list(Term.objects.values_list("slug", flat=True)) == ["headlines"]


def test_a_missing_or_blank_label_is_refused_and_nothing_is_made(mcp: MCP) -> None:
    for args in ({}, {"label": "   "}, {"label": ""}):
        refused = mcp.fails("taxonomy_create_term", {"taxonomy": "category", **args})
        assert refused["_meta"]["code"] == "VALIDATION_ERROR" and "label" in refused["content"][0]["text"]
    assert not Term.objects.exists()


def test_the_rest_door_makes_the_slug_too(mcp: MCP) -> None:
    client = Client(headers={"Authorization": f"Bearer {mcp.token}"})
    answer = client.post("/_emdash/api/taxonomies/tag/terms", {"label": "Road Trips"}, content_type="application/json")
    assert answer.status_code == 201 and answer.json()["term"]["slug"] == "road-trips"
    bad = client.post("/_emdash/api/taxonomies/tag/terms", {"label": 5}, content_type="application/json")
    assert bad.status_code == 400 and orjson.loads(bad.content)["error"]["code"] == "VALIDATION_ERROR"
    assert Term.objects.count() == 1


def test_the_tool_says_the_slug_is_optional(mcp: MCP) -> None:
    tools = mcp.result("tools/list")["tools"]
    schema = next(t for t in tools if t["name"] == "taxonomy_create_term")["inputSchema"]
    assert schema["required"] == ["taxonomy", "label"] and "label" in schema["properties"]["slug"]["description"]
