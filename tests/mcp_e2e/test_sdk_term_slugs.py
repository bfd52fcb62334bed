"""End to end with the official ``mcp`` SDK client: term slugs per locale, slugs made from labels, and the shapes
where our byline tools meet EmDash's (``items`` beside ``translations``). Every payload is checked against
structuredContent where the version has it (Session.ok). The database is touched only outside the event loop."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from emdash.roles import Role
from taxonomy.models import Term
from tests.mcp_e2e.conftest import new_user, token_for
from tests.mcp_e2e.test_sdk_client import MODES, Session, connect


async def assistant_run(url: str, token: str, mode: str, version: str) -> dict[str, Any]:
    async with connect(url, token, mode) as client:
        s = Session(client, version)
        en = (await s.ok("taxonomy_create_term", {"taxonomy": "category", "label": "Café News"}))["term"]
        fr = await s.ok("taxonomy_create_term", {"taxonomy": "category", "label": "Café News", "locale": "fr"})
        second = (await s.ok("taxonomy_create_term", {"taxonomy": "category", "label": "Cafe news"}))["term"]
        code, text = await s.tool_error(
            "taxonomy_create_term", {"taxonomy": "category", "slug": "cafe-news", "label": "X", "locale": "fr"}
        )
        assert code == "SLUG_CONFLICT" and "locale 'fr'" in text
        code, _ = await s.tool_error("taxonomy_create_term", {"taxonomy": "category", "label": ""})
        assert code == "VALIDATION_ERROR"
        item = await s.ok(
            "content_create",
            {"collection": "posts", "data": {"title": "Bonjour"}, "locale": "fr", "terms": {"category": ["cafe-news"]}},
        )
        updated = await s.ok("taxonomy_update_term", {"taxonomy": "category", "termSlug": "cafe-news", "label": "N"})
        source = await s.ok("byline_create", {"slug": "ana", "displayName": "Ana"})
        await s.ok("byline_create", {"slug": "ana-fr", "displayName": "Ana", "locale": "fr", "translationOf": "ana"})
        variants = await s.ok("byline_translations", {"id": source["id"]})
        return {
            "slugs": [en["slug"], fr["term"]["slug"], second["slug"]],
            "ids": (en["id"], fr["term"]["id"]),
            "item_terms": [t["id"] for t in item["item"]["terms"]["category"]],
            "updated": updated["term"]["id"],
            "variants": variants,
        }


@pytest.mark.parametrize(("mode", "version"), MODES)
def test_term_slugs_per_locale_and_byline_shapes_through_the_sdk(posts, mcp_url, settings, mode, version):
    settings.EMDASH = {**settings.EMDASH, "LOCALES": ["en", "fr"]}
    token = token_for(new_user(Role.EDITOR), ["content:read", "content:write", "taxonomies:manage"])
    seen = asyncio.run(assistant_run(mcp_url, token, mode, version))
    english, french = seen["ids"]
    assert seen["slugs"] == ["cafe-news", "cafe-news", "cafe-news-2"]
    assert seen["item_terms"] == [french], "a French item's slug is the French term"
    assert seen["updated"] == english, "a slug alone is the default locale's term"
    assert Term.objects.get(pk=english).label == "N" and Term.objects.get(pk=french).label == "Café News"
    variants = seen["variants"]
    assert variants["items"] == variants["translations"] and len(variants["items"]) == 2
    assert Term.objects.filter(label="X").count() == 0
