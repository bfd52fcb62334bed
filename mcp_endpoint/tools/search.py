"""The search tool: a thin adapter over content.search.selectors.search."""

from __future__ import annotations

from typing import Any

from content.search import selectors
from emdash.actor import Actor
from emdash.permissions import Perm
from mcp_endpoint.registry import tool
from mcp_endpoint.schemas import COLLECTION, LOCALE, limit, obj, string

RESULT = {
    "type": "object",
    "properties": {
        "collection": {"type": "string"},
        "id": {"type": "string"},
        "slug": {"type": "string"},
        "locale": {"type": "string"},
        "title": {"type": "string", "description": "Plain text (not HTML)"},
        "snippet": {"type": "string", "description": "HTML: escaped text with the matches in <mark>"},
        "score": {"type": "number", "description": "Relevance; higher is better (only comparable within a call)"},
    },
    "required": ["collection", "id", "slug", "locale", "title", "snippet", "score"],
}


@tool(
    "search",
    title="Search content",
    category="search",
    perm=Perm.SEARCH,
    read_only=True,
    idempotent=True,
    description="Full-text search across published items, most relevant first. Covers the fields marked searchable "
    "in collections whose supports include 'search'. Every word must match (case, accents and word endings are "
    "ignored); quotes and operators are read as plain words. snippet is HTML with the matches in <mark>.",
    input=obj(
        {
            "query": string(
                f"Words to look for (at most {selectors.MAX_TERMS} words)", maxLength=selectors.MAX_QUERY_LENGTH
            ),
            "collections": {
                "type": "array",
                "items": COLLECTION,
                "minItems": 1,
                "maxItems": selectors.MAX_COLLECTIONS,
                "uniqueItems": True,
                "description": "Only search these collections (slugs); default: every searchable collection",
            },
            "locale": LOCALE,
            "limit": limit(20, selectors.MAX_LIMIT),
        },
        ("query",),
    ),
    output={
        "type": "object",
        "properties": {"items": {"type": "array", "items": RESULT}},
        "required": ["items"],
    },
)
def search(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    results = selectors.search(
        actor=actor,
        query=a["query"],
        collections=a.get("collections"),
        locale=a.get("locale"),
        limit=a.get("limit", 20),
    )
    return {"items": [r.to_dict() for r in results]}
