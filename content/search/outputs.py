"""What the search operation returns, typed once: the selector's return type and the output JSON Schema."""

from __future__ import annotations

from typing import Annotated, TypedDict

from pydantic import Field

from emdash.operations.shapes import items_of
from emdash.operations.typed import schema_of


class SearchResult(TypedDict):
    collection: str
    id: str
    slug: str
    locale: str
    title: Annotated[str, Field(description="Plain text (not HTML)")]
    snippet: Annotated[str, Field(description="HTML: escaped text with the matches in <mark>")]
    score: Annotated[float, Field(description="Relevance; higher is better (only comparable within a call)")]


RESULT = schema_of(SearchResult)
OUTPUT = items_of(RESULT)
