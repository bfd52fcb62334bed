"""The content operations' input models: one typed schema each (validation, MCP inputSchema, OpenAPI body)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from content import selectors
from content.schema_services import SLUG_MAX_LENGTH
from emdash.operations import Input, WholeNumber

Collection = Annotated[str, Field(description="Collection slug, e.g. posts", min_length=1, max_length=SLUG_MAX_LENGTH)]
Ident = Annotated[str, Field(description="Item ID (ULID) or slug", min_length=1, max_length=200)]
Locale = Annotated[
    str, Field(description="Locale, e.g. en or fr (only meaningful when i18n is enabled)", min_length=1, max_length=16)
]
Cursor = Annotated[
    str, Field(description="Opaque cursor from the previous page's nextCursor", min_length=1, max_length=2048)
]
Slug = Annotated[
    str, Field(description="URL slug: lowercase letters, digits, '-' or '_'", min_length=1, max_length=200)
]
Data = Annotated[dict[str, Any], Field(description="Field values keyed by field slug (see schema_get_collection)")]
TermSlugs = list[Annotated[str, Field(min_length=1, max_length=200)]]
Terms = Annotated[
    dict[str, Annotated[TermSlugs, Field(max_length=100)]],
    Field(
        description='Taxonomy terms by taxonomy name, e.g. {"category": ["news"], "tag": []}; replaces the '
        "item's terms of each taxonomy named (see taxonomy_list and taxonomy_list_terms)",
        max_length=20,
    ),
]
OrderBy = Literal[tuple(sorted(selectors.ORDER_FIELDS))]  # type: ignore[valid-type]


def _limit(default: int, maximum: int) -> Any:
    return Field(default, ge=1, le=maximum, description=f"Maximum number of items (1-{maximum}, default {default})")


class Target(Input):
    collection: Collection
    id: Ident


MARKDOWN = Field(None, description="true: return portableText (rich-text) fields as Markdown strings")


class ListInput(Input):
    collection: Collection
    status: Literal["draft", "published", "scheduled"] | None = Field(None, description="Filter by status")
    limit: WholeNumber = _limit(50, 100)
    cursor: Cursor | None = None
    order_by: OrderBy | None = Field(None, description="Sort field (snake_case or camelCase)")  # type: ignore[valid-type]
    order: Literal["asc", "desc"] | None = Field(None, description="Sort direction (default desc)")
    locale: Locale | None = None
    markdown: bool | None = Field(
        None, description="true: include rich-text fields in the summaries, as Markdown strings"
    )


class GetInput(Target):
    locale: Locale | None = None
    markdown: bool | None = MARKDOWN


class CreateInput(Input):
    collection: Collection
    data: Data
    slug: Slug | None = None
    status: Literal["draft", "published"] | None = Field(None, description="Initial status (default draft)")
    locale: Locale | None = None
    translation_of: str | None = Field(
        None, description="ID of the item this one translates", min_length=1, max_length=200
    )
    terms: Terms | None = None


class UpdateInput(Target):
    data: Data | None = None
    slug: Slug | None = None
    status: Literal["draft", "published"] | None = Field(None, description="New status")
    rev: str | None = Field(
        None, alias="_rev", description="Revision token from content_get", min_length=1, max_length=100
    )
    terms: Terms | None = None


class ScheduleInput(Target):
    scheduled_at: str = Field(
        description="Future ISO 8601 date-time, e.g. 2026-06-01T09:00:00Z", min_length=1, max_length=64
    )


class TrashListInput(Input):
    collection: Collection
    limit: WholeNumber = _limit(50, 100)
    cursor: Cursor | None = None


class RevisionListInput(Target):
    limit: WholeNumber = _limit(20, 50)


class RevisionRestoreInput(Input):
    revision_id: str = Field(description="Revision ID from revision_list", min_length=1, max_length=26)
