"""What the content operations return: typed once, as the presenters' return types, from which the JSON Schema
(MCP outputSchema, OpenAPI responses) is generated."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Required, TypedDict

from pydantic import Field

from emdash.operations.shapes import shared
from emdash.operations.typed import Copied, Schema, Shared, schema_of


def field_values(description: str, *, nullable: bool = False) -> dict[str, Any]:
    """An item's field values: keyed by the collection's field slugs, so open by design (schema_get_collection
    gives each field's type)."""
    return {
        "type": ["object", "null"] if nullable else "object",
        "additionalProperties": True,
        "description": description,
    }


DATA = (
    "Field values keyed by field slug (the draft's, when one is pending and may be read); image and file values"
    " and inline images' asset add their media's url, mimeType, width, height, alt, renditions and srcset"
)
Status = Literal["draft", "published", "scheduled"]
Timestamp = str | None  # ISO 8601 UTC; said once on the item rather than on each of its five dates


class SeoImage(TypedDict, total=False):
    id: str
    alt: str


class Seo(TypedDict, total=False):
    title: str
    description: str
    image: SeoImage
    canonical: str
    noindex: bool


class TermRef(TypedDict):
    """A term as it appears on an entry."""

    id: str
    slug: str
    label: str


Terms = dict[str, list[TermRef]]  # by taxonomy name


class BylineSummary(TypedDict):
    """A byline (a credit's name, bio, avatar and site), as byline_get and content items show it."""

    id: str
    slug: str
    displayName: str
    bio: str | None
    avatarMediaId: str | None
    websiteUrl: str | None
    userId: int | None
    isGuest: bool
    locale: str
    translationGroup: str
    createdAt: str
    updatedAt: str


class BylineCredit(TypedDict):
    """One credit on an item: the byline, its order, an optional role ("Photographer") and whether it was
    assigned or inferred from the item's author."""

    byline: Annotated[BylineSummary, Copied("byline_get", "result", "The credited byline")]
    sortOrder: int
    roleLabel: str | None
    source: Literal["explicit", "inferred"]


class CreditRef(TypedDict):
    """A credit as a revision keeps it: which byline, and its role."""

    bylineId: str
    roleLabel: str | None


class Credits(TypedDict):
    bylines: list[BylineCredit]
    byline: BylineSummary | None


class ItemMeta(TypedDict, total=False):
    """An item's system fields: everything but its values, SEO and terms."""

    id: Required[str]
    collection: Required[str]
    slug: Required[str]
    status: Required[Status]
    locale: Required[str]
    translationGroup: str
    authorId: int | None
    createdAt: Timestamp
    updatedAt: Timestamp
    publishedAt: Timestamp
    scheduledAt: Timestamp
    deletedAt: Timestamp


class Item(ItemMeta, total=False):
    """A content item as MCP, REST and templates see it (content_get's item; a list's summaries)."""

    hasDraft: bool
    data: Required[Annotated[dict[str, Any], Schema(field_values(DATA))]]
    liveData: Annotated[dict[str, Any], Schema(field_values("The published values, when a draft is pending"))]
    draftSlug: Annotated[str, Field(description="A new slug waiting for publish (slug is the live one)")]
    seo: Annotated[
        Seo, Field(description="Per-item SEO (the draft's when one is pending)"), Shared("content_get", "item.seo")
    ]
    liveSeo: Annotated[Seo, Copied("content_get", "item.seo", "The live SEO, when the draft changes it")]
    terms: Annotated[Terms, Field(description="Taxonomy terms by taxonomy name (content_get)")]
    bylines: Annotated[list[BylineCredit], Field(description="Credits in order, the first is primary")]
    byline: Annotated[BylineSummary | None, Copied("byline_get", "result", "The primary credit's byline, or null")]


ITEM_SHAPE = schema_of(Item, "A content item; dates in ISO 8601 UTC")
ITEM = shared(ITEM_SHAPE, "content_get", "item")
SUMMARY = shared(ITEM_SHAPE, "content_get", "item", "data without long text and rich-text fields")
ListedItem = Annotated[Item, Schema(ITEM)]


class ItemOnly(TypedDict):
    item: ListedItem


ITEM_ONLY = schema_of(ItemOnly)


class ItemWithRev(TypedDict):
    item: ListedItem
    _rev: str  # its use is said once, by content_update's input


ITEM_WITH_REV = schema_of(ItemWithRev)


class DroppedMedia(TypedDict):
    field: str
    mediaId: str


class RevisionRestored(TypedDict, total=False):
    item: Required[ListedItem]
    _rev: Required[str]
    droppedMedia: Annotated[
        list[DroppedMedia], Field(description="Media items the revision named that were deleted since: left out")
    ]
    note: Annotated[str, Field(description="What the restore left out, in a sentence (with droppedMedia)")]


REVISION_RESTORED = schema_of(RevisionRestored)


class Restored(TypedDict):
    restored: bool
    item: ListedItem


RESTORED = schema_of(Restored)


class Compare(TypedDict, total=False):
    hasChanges: Required[bool]
    live: Required[
        Annotated[
            dict[str, Any] | None,
            Schema(field_values("The published values; null if the item was never published", nullable=True)),
        ]
    ]
    draft: Required[Annotated[dict[str, Any], Schema(field_values("The draft's values"))]]
    liveSlug: str | None
    draftSlug: str
    liveSeo: Annotated[Seo | None, Copied("content_get", "item.seo", "The live SEO; null if never published")]
    draftSeo: Annotated[Seo, Copied("content_get", "item.seo", "The draft's SEO")]


COMPARE = schema_of(Compare)


class Translation(TypedDict, total=False):
    id: Required[str]
    locale: Required[str]
    slug: Required[str]
    status: Required[str]
    updatedAt: str | None


class Translations(TypedDict):
    translationGroup: str
    translations: list[Translation]


TRANSLATIONS = schema_of(Translations)


class Via(TypedDict):
    """How a revision was made (SPEC 9.3)."""

    door: Annotated[str | None, Field(description="mcp, rest, admin, cli, worker, import")]
    client: Annotated[str | None, Field(description="Calling program")]
    token: Annotated[str | None, Field(description="Token or OAuth client name")]


class SavedRevision(TypedDict, total=False):
    id: Required[str]
    kind: str
    createdAt: Required[str]
    authorId: int | None
    via: Via
    data: Required[Annotated[dict[str, Any], Schema(field_values("The field values this revision saved"))]]
    bylines: Annotated[list[CreditRef], Field(description="The credits when it was saved, in order")]


class Revisions(TypedDict):
    items: list[SavedRevision]
    total: int


REVISIONS = schema_of(Revisions)
