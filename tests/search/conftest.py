"""Collections for the search tests and small helpers around the search selector.

``articles`` has revisions (edits of a published item go to a draft), ``notes`` has none (edits go live at once),
``plain`` does not support search. Schema changes commit, so every fixture builds on ``cms``.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings

from content.entries import services
from content.search.models import SearchDocument
from content.search.selectors import search
from emdash.actor import Actor
from tests.factories import SYSTEM, make_collection
from tests.mcp.conftest import make_mcp, mcp  # noqa: F401  (the MCP client fixtures, for test_tool.py)

ON_SQLITE = settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
sqlite_only = pytest.mark.skipif(not ON_SQLITE, reason="SQLite FTS5 backend")

ARTICLE_FIELDS: list[dict[str, Any]] = [
    {"slug": "title", "label": "Title", "type": "string", "required": True, "searchable": True},
    {"slug": "excerpt", "label": "Excerpt", "type": "text", "searchable": True},
    {"slug": "body", "label": "Body", "type": "portableText", "searchable": True},
    {"slug": "secret", "label": "Internal notes", "type": "text"},
]
NOTE_FIELDS: list[dict[str, Any]] = [
    {"slug": "title", "label": "Title", "type": "string", "searchable": True},
    {"slug": "text", "label": "Text", "type": "text", "searchable": True},
]


@pytest.fixture
def articles(cms: None) -> Any:
    return make_collection("articles", fields=ARTICLE_FIELDS, supports=["drafts", "revisions", "scheduling", "search"])


@pytest.fixture
def notes(cms: None) -> Any:
    return make_collection("notes", fields=NOTE_FIELDS, supports=["search"])


@pytest.fixture
def plain(cms: None) -> Any:
    return make_collection("plain", fields=NOTE_FIELDS, supports=["drafts"])


def blocks(*paragraphs: str) -> list[dict[str, Any]]:
    """Portable Text: one block per paragraph, each split into two spans (one of them bold)."""
    out = []
    for i, text in enumerate(paragraphs):
        half = len(text) // 2
        out.append(
            {
                "_type": "block",
                "_key": f"b{i}",
                "style": "normal",
                "markDefs": [],
                "children": [
                    {"_type": "span", "_key": f"s{i}a", "text": text[:half], "marks": []},
                    {"_type": "span", "_key": f"s{i}b", "text": text[half:], "marks": ["strong"]},
                ],
            }
        )
    return out


def create(collection: str = "articles", *, publish: bool = False, locale: str | None = None, **data: Any) -> str:
    """Create an item (published with ``publish``, else a draft); returns its id."""
    status = "published" if publish else None
    return services.entry_create(actor=SYSTEM, collection=collection, data=data, status=status, locale=locale).id


def find(query: str, *, actor: Actor = SYSTEM, **kwargs: Any) -> list[dict[str, Any]]:
    return [r.to_dict() for r in search(actor=actor, query=query, **kwargs)]


def found_ids(query: str, **kwargs: Any) -> list[str]:
    return [r["id"] for r in find(query, **kwargs)]


def indexed(collection: str | None = None) -> set[str]:
    qs = SearchDocument.objects.all()
    if collection:
        qs = qs.filter(collection=collection)
    return set(qs.values_list("entry_id", flat=True))
