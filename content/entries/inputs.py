"""The content operations' input models: one typed schema each (validation, MCP inputSchema, OpenAPI body)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, WithJsonSchema

from content.entries import selectors
from content.schema.checks import SLUG_MAX_LENGTH
from emdash.operations import NULLABLE, WHOLE, Cursor, Input, WholeNumber, limit, reference

Collection = Annotated[str, reference("Collection slug", SLUG_MAX_LENGTH)]
Ident = Annotated[str, reference("Item id or slug", 200)]
Locale = Annotated[str, reference("Locale, e.g. fr (multilingual sites)", 16)]
Slug = Annotated[str, Field(description="URL slug (a-z, 0-9, - and _)", min_length=1, max_length=200)]
Data = Annotated[dict[str, Any], Field(description="Field values keyed by field slug")]
TermSlugs = list[Annotated[str, Field(min_length=1, max_length=200)]]
Terms = Annotated[
    dict[str, Annotated[TermSlugs, Field(max_length=100)]],
    Field(
        description='Term slugs by taxonomy, e.g. {"tag": ["news"]}; replaces the item\'s terms in each taxonomy given',
        max_length=20,
    ),
]
# Both spellings are accepted; only camelCase (the wire's) is advertised, so the enum does not list each twice.
OrderBy = Annotated[  # type: ignore[valid-type]
    Literal[tuple(sorted(selectors.ORDER_FIELDS))],
    WithJsonSchema({"type": "string", "enum": sorted(k for k in selectors.ORDER_FIELDS if "_" not in k)}),
]


class Target(Input):
    collection: Collection
    id: Ident


MARKDOWN = Field(None, description="true: rich-text fields as Markdown")
FieldNames = Annotated[
    list[Annotated[str, Field(min_length=1, max_length=SLUG_MAX_LENGTH)]],
    Field(description="Only these data fields (system fields always come)", min_length=1, max_length=100),
]


# One compact schema for "a JSON scalar" (pydantic would spell out four anyOf branches per use).
SCALAR = {"type": ["string", "number", "boolean"]}
Instant = str  # parsed (and its length checked) by the FilterSet
_SLUGS = {"type": ["array", "string"], "items": {"type": "string"}, "maxItems": 100}


# A field filter: a value (equals), or operators. content/entries/filters.py checks it against the field's type, so a
# mistake is reported with the field's own words (pydantic's union errors would list every branch).
FIELD_FILTER = {
    "anyOf": [
        SCALAR,
        {
            "type": "object",
            "properties": {op: SCALAR for op in ("eq", "gte", "lte")} | {"in": _SLUGS},
            "additionalProperties": False,
        },
    ]
}


class ListFilter(Input):
    """The filters of content_list beyond status and locale (content/entries/filters.py applies them)."""

    author: Annotated[int, Field(ge=1), WHOLE] | None = Field(None, description="Author's user id")
    created_after: Instant | None = Field(None, description="Created at or after")
    created_before: Instant | None = Field(None, description="Created at or before")
    updated_after: Instant | None = Field(None, description="Updated at or after")
    updated_before: Instant | None = Field(None, description="Updated at or before")
    published_after: Instant | None = Field(None, description="Published at or after")
    published_before: Instant | None = Field(None, description="Published at or before")
    terms: Annotated[dict[str, Annotated[Any, WithJsonSchema(_SLUGS)]], Field(max_length=20)] | None = Field(
        None, description='Term slugs by taxonomy (any of), e.g. {"category": "news"}'
    )
    fields: Annotated[dict[str, Annotated[Any, WithJsonSchema(FIELD_FILTER)]], Field(max_length=50)] | None = Field(
        None, description='By field slug: a value, or {in, gte, lte}, e.g. {"price": {"gte": 10}}'
    )


class ListInput(Input):
    collection: Collection
    status: Literal["draft", "published", "scheduled"] | None = Field(None, description="Only items with this status")
    limit: WholeNumber = limit(50, 100)
    cursor: Cursor | None = None
    order_by: OrderBy | None = Field(None, description="Sort field")  # type: ignore[valid-type]
    order: Literal["asc", "desc"] | None = Field(None, description="Sort direction (default desc)")
    locale: Locale | None = None
    markdown: bool | None = Field(None, description="true: add the rich-text fields, as Markdown")
    filter: ListFilter | None = Field(None, description="*After/*Before: ISO date or date-time, inclusive")
    fields: FieldNames | None = None


class GetInput(Target):
    locale: Locale | None = None
    markdown: bool | None = MARKDOWN
    fields: FieldNames | None = None


class MediaRef(Input):
    id: Annotated[str, reference("Media item id (media_upload, media_list)", 64)]
    alt: str | None = Field(None, description="Alt text", max_length=500)


class CreditInput(Input):
    # One credit: a byline (byline_list, byline_create) and an optional role. (A comment, not a docstring:
    # a docstring would be listed in every content write's inputSchema.)
    byline_id: Annotated[str, reference("Byline id", 26)]
    role_label: Annotated[str | None, NULLABLE] = Field(None, description="Role, e.g. Photos", max_length=100)


Bylines = Annotated[
    list[CreditInput],
    Field(description="Credits in order (first = primary); replaces the item's", max_length=20),
]


class SeoInput(Input):
    """Per-item SEO; on update only the keys sent change, and null clears one."""

    title: Annotated[str | None, NULLABLE] = Field(None, description="Page title for search engines", max_length=200)
    description: Annotated[str | None, NULLABLE] = Field(None, description="Meta description", max_length=500)
    image: Annotated[MediaRef | None, NULLABLE] = Field(None, description="Social sharing image")
    canonical: Annotated[str | None, NULLABLE] = Field(
        None, description="Canonical URL: https://... or a site path", max_length=2048
    )
    noindex: bool | None = Field(None, description="true: ask search engines not to index; left out of the sitemap")


SEO = Field(None, description="Per-item SEO; on update only the keys sent change, null clears one")


class CreateInput(Input):
    collection: Collection
    data: Data
    slug: Slug | None = None
    status: Literal["draft", "published"] | None = Field(None, description="Initial status (default draft)")
    locale: Locale | None = None
    translation_of: Annotated[str, reference("Id of the item this one translates", 200)] | None = None
    terms: Terms | None = None
    bylines: Bylines | None = None
    seo: SeoInput | None = SEO


class UpdateInput(Target):
    data: Data | None = None
    slug: Slug | None = None
    status: Literal["draft", "published"] | None = Field(None, description="New status")
    rev: (
        Annotated[str, reference("_rev of the last read or write: refuses the write if the item changed since", 100)]
        | None
    ) = Field(None, alias="_rev")
    terms: Terms | None = None
    bylines: Bylines | None = None
    autosave: bool | None = Field(
        None,
        description="true: a background save; consecutive autosaves by one user update one revision instead of "
        "adding more",
    )
    seo: SeoInput | None = SEO


class ScheduleInput(Target):
    scheduled_at: str = Field(
        description="Future ISO 8601 date-time, e.g. 2026-06-01T09:00:00Z", min_length=1, max_length=64
    )


class PublishInput(Target):
    published_at: str | None = Field(
        None,
        description="Publication date to show, ISO 8601 with zone (migrations; past allowed)",
        min_length=1,
        max_length=64,
    )


class TrashListInput(Input):
    collection: Collection
    limit: WholeNumber = limit(50, 100)
    cursor: Cursor | None = None


class RevisionListInput(Target):
    limit: WholeNumber = limit(20, 50)


class RevisionRestoreInput(Input):
    revision_id: Annotated[str, reference("Revision id from revision_list", 26)]
