"""The search operation: one record, served by MCP, REST (``GET /_emdash/api/search``) and the public site."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, field_validator
from pydantic_core import PydanticCustomError

from content.schema.checks import SLUG_MAX_LENGTH
from content.search import selectors
from emdash.operations import READ, Input, WholeNumber, family, limit, reference
from emdash.operations.shapes import STRING, items_of, obj
from emdash.permissions import Perm

RESULT = obj(
    {
        "collection": STRING,
        "id": STRING,
        "slug": STRING,
        "locale": STRING,
        "title": {"type": "string", "description": "Plain text (not HTML)"},
        "snippet": {"type": "string", "description": "HTML: escaped text with the matches in <mark>"},
        "score": {"type": "number", "description": "Relevance; higher is better (only comparable within a call)"},
    },
    ["collection", "id", "slug", "locale", "title", "snippet", "score"],
)
OUTPUT = items_of(RESULT)
Collection = Annotated[str, reference("Collection slug", SLUG_MAX_LENGTH)]


class SearchInput(Input):
    query: str = Field(
        description=f"Words to look for (at most {selectors.MAX_TERMS} words)", max_length=selectors.MAX_QUERY_LENGTH
    )
    collections: list[Collection] | None = Field(
        None,
        description="Only these collections (default: every searchable one)",
        min_length=1,
        max_length=selectors.MAX_COLLECTIONS,
        json_schema_extra={"uniqueItems": True},
    )
    locale: Annotated[str, reference("Locale, e.g. fr (multilingual sites)", 16)] | None = None
    limit: WholeNumber = limit(20, selectors.MAX_LIMIT, "Most results to return")

    @field_validator("collections")
    @classmethod
    def _unique(cls, value: list[str] | None) -> list[str] | None:
        # JSON Schema's uniqueItems, which pydantic does not check itself.
        if value is not None and len(set(value)) != len(value):
            raise PydanticCustomError("unique_items", "must not name a collection twice")
        return value


def _items(results: list[selectors.SearchResult], args: Any) -> dict[str, Any]:
    return {"items": [result.to_dict() for result in results]}


family("search", Perm.SEARCH, **READ)(
    "search", "Search content", SearchInput, selectors.search, present=_items, output=OUTPUT
).describe(
    "Full-text search of published items, most relevant first, in the searchable fields of "
    "collections supporting search. Every word must match (case, accents and word endings ignored; operators are "
    "plain words). content_list lists by field order instead."
)
