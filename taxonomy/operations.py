"""The taxonomy operations: 5 MCP tools (terms, the definition list) plus REST-only ones for taxonomy
definitions, single terms and an item's terms of one taxonomy.

Defining taxonomies is REST and admin only (``mcp=False``): SPEC 7 lists the reference's five taxonomy tools,
and a schema-like change (new archive URLs, new term pickers in every attached collection) is an editor's
decision rather than an assistant's.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from content.outputs import DELETED
from emdash.operations import NULLABLE, Input, NoInput, Route, WholeNumber, declare
from emdash.permissions import Perm
from taxonomy import definitions, outputs, presenters, selectors, services

API = "_emdash/api/taxonomies"
Taxonomy = Annotated[
    str, Field(description="Taxonomy name, e.g. category or tag (see taxonomy_list)", min_length=1, max_length=63)
]
TermSlug = Annotated[str, Field(description="Slug of the term (its ID is accepted too)", min_length=1, max_length=200)]
Slug = Annotated[
    str, Field(description="URL slug: lowercase letters, digits, '-' or '_'", min_length=1, max_length=200)
]
Label = Annotated[str, Field(description="Display name", min_length=1, max_length=services.LABEL_MAX_LENGTH)]
Description = Annotated[str, Field(description="Description of the term", max_length=services.DESCRIPTION_MAX_LENGTH)]
Collections = Annotated[
    list[Annotated[str, Field(min_length=1, max_length=63)]],
    Field(
        description="Slugs of the collections whose items can carry the terms", max_length=definitions.MAX_COLLECTIONS
    ),
]


class ListTermsInput(Input):
    taxonomy: Taxonomy
    limit: WholeNumber = Field(50, ge=1, le=100, description="Maximum number of items (1-100, default 50)")
    cursor: str | None = Field(
        None, description="Opaque cursor from the previous page's nextCursor", min_length=1, max_length=2048
    )


class CreateTermInput(Input):
    taxonomy: Taxonomy
    slug: Slug
    label: Label
    parent_id: str | None = Field(
        None, description="ID of the parent term (hierarchical taxonomies only)", min_length=1, max_length=200
    )
    description: Description | None = None


class TermTarget(Input):
    taxonomy: Taxonomy
    term: TermSlug = Field(alias="termSlug")  # the services' keyword; the wire name stays termSlug


class UpdateTermInput(TermTarget):
    slug: Slug | None = None
    label: Label | None = None
    parent_id: Annotated[str | None, NULLABLE] = Field(
        None, description="ID of the new parent term, or null to make the term top-level", min_length=1, max_length=200
    )
    description: Description | None = None


class NameInput(Input):
    name: Taxonomy


class DefinitionInput(Input):
    label_singular: str | None = Field(None, description="Singular display name, e.g. Genre", max_length=200)
    hierarchical: bool | None = Field(None, description="Whether terms can nest (like categories); default false")
    collections: Collections | None = None


class CreateDefinitionInput(DefinitionInput):
    label: Annotated[str, Field(description="Plural display name, e.g. Genres", min_length=1, max_length=200)]
    name: str = Field(
        description="Name, also the archive URL prefix (/<name>/<term>/): lowercase letters, digits or '_'",
        min_length=1,
        max_length=definitions.NAME_MAX_LENGTH,
    )


class UpdateDefinitionInput(DefinitionInput):
    name: Taxonomy
    label: Annotated[str, Field(description="Plural display name", min_length=1, max_length=200)] | None = None


class EntryTermsInput(Input):
    collection: Annotated[str, Field(description="Collection slug, e.g. posts", min_length=1, max_length=63)]
    id: Annotated[str, Field(description="Item ID (ULID) or slug", min_length=1, max_length=200)]
    taxonomy: Taxonomy


class SetEntryTermsInput(EntryTermsInput):
    terms: list[Annotated[str, Field(min_length=1, max_length=200)]] = Field(
        description="Term slugs or IDs; replaces the item's terms of this taxonomy",
        max_length=services.MAX_TERMS_PER_ENTRY,
    )


def _term(row: Any, args: Any) -> dict[str, Any]:
    return {"term": presenters.term(row, args.taxonomy)}


def _definition(row: Any, args: Any) -> dict[str, Any]:
    return {"taxonomy": presenters.definition(row, definitions.existing_collections())}


def _deleted(result: None, args: Any) -> dict[str, Any]:
    return {"deleted": True}


def _term_target(args: Any, payload: dict[str, Any]) -> str:
    return f"taxonomies/{args.taxonomy}/{payload.get('term', {}).get('slug') or args.term}"


def _entry_terms(*, actor: Any, collection: str, id: str, taxonomy: str) -> dict[str, Any]:
    terms = selectors.entry_terms(actor=actor, collection=collection, id=id)
    selectors.taxonomy_get(actor=actor, name=taxonomy)  # NOT_FOUND for unknown names
    return {"taxonomy": taxonomy, "terms": terms.get(taxonomy, [])}


def _set_entry_terms(*, actor: Any, collection: str, id: str, taxonomy: str, terms: list[str]) -> dict[str, Any]:
    services.entry_terms_set(actor=actor, collection=collection, id=id, taxonomy=taxonomy, terms=terms)
    return _entry_terms(actor=actor, collection=collection, id=id, taxonomy=taxonomy)


def _taxonomy(name: str, **fields: Any) -> None:
    declare(name=name, category=fields.pop("category", "taxonomy"), **fields)


READ = {"perm": Perm.TAXONOMY_READ, "read_only": True, "idempotent": True}

# --- the MCP tools -----------------------------------------------------------------------------------------------

_taxonomy(
    "taxonomy_list",
    title="List taxonomies",
    description="List the taxonomy definitions (e.g. category, tag): name, labels, whether terms can nest "
    "(hierarchical) and which collections they apply to.",
    input=NoInput,
    service=selectors.taxonomy_list,
    present=lambda rows, args: {"taxonomies": rows},
    output_schema=outputs.DEFINITIONS,
    routes=(Route("GET", API, name="api-taxonomies"),),
    **READ,
)
_taxonomy(
    "taxonomy_list_terms",
    title="List taxonomy terms",
    description="List the terms of a taxonomy by label (a stable order), with cursor pagination. parentId links "
    "a term to its parent in hierarchical taxonomies.",
    input=ListTermsInput,
    service=selectors.term_list,
    present=lambda page, args: page.to_dict(),
    output_schema={
        "type": "object",
        "properties": {"items": {"type": "array", "items": outputs.TERM}, "nextCursor": {"type": "string"}},
        "required": ["items"],
    },
    routes=(Route("GET", f"{API}/<str:taxonomy>/terms", args="query", name="api-terms"),),
    **READ,
)
_taxonomy(
    "taxonomy_create_term",
    title="Create taxonomy term",
    perm=Perm.TAXONOMY_MANAGE,
    description="Create a term in a taxonomy. In hierarchical taxonomies (category) parentId nests it under "
    "another term of the same taxonomy; a term may have at most 100 ancestors. Slugs are unique per taxonomy.",
    input=CreateTermInput,
    service=services.term_create,
    present=_term,
    output_schema=outputs.TERM_ONLY,
    target=_term_target,
    routes=(Route("POST", f"{API}/<str:taxonomy>/terms", args="body", status=201, name="api-terms"),),
)
_taxonomy(
    "taxonomy_update_term",
    title="Update taxonomy term",
    perm=Perm.TAXONOMY_MANAGE,
    description="Change a term's slug, label, description or parent. parentId null detaches the term (it becomes "
    "top-level); a term cannot move under itself or one of its descendants.",
    input=UpdateTermInput,
    service=services.term_update,
    present=_term,
    output_schema=outputs.TERM_ONLY,
    target=_term_target,
    routes=(Route("PUT", f"{API}/<str:taxonomy>/terms/<str:term>", args="body", name="api-term"),),
)
_taxonomy(
    "taxonomy_delete_term",
    title="Delete taxonomy term",
    perm=Perm.TAXONOMY_MANAGE,
    destructive=True,
    description="Delete a term and remove it from every item that carries it. A term with child terms cannot be "
    "deleted: delete or move the children first.",
    input=TermTarget,
    service=services.term_delete,
    present=_deleted,
    output_schema=DELETED,
    target=_term_target,
    routes=(Route("DELETE", f"{API}/<str:taxonomy>/terms/<str:term>", name="api-term"),),
)

# --- REST and admin only -----------------------------------------------------------------------------------------

_taxonomy(
    "taxonomy_get_term",
    title="Get taxonomy term",
    description="One term of a taxonomy, by slug or ID.",
    input=TermTarget,
    service=selectors.term_get,
    present=lambda term, args: {"term": term},
    output_schema=outputs.TERM_ONLY,
    routes=(Route("GET", f"{API}/<str:taxonomy>/terms/<str:term>", name="api-term"),),
    mcp=False,
    **READ,
)
_taxonomy(
    "taxonomy_get",
    title="Get taxonomy",
    description="One taxonomy definition.",
    input=NameInput,
    service=selectors.taxonomy_get,
    present=lambda row, args: {"taxonomy": row},
    output_schema=outputs.DEFINITION_ONLY,
    routes=(Route("GET", f"{API}/<str:name>", name="api-taxonomy"),),
    mcp=False,
    **READ,
)
_taxonomy(
    "taxonomy_create",
    title="Create taxonomy",
    perm=Perm.TAXONOMY_MANAGE,
    description="Define a taxonomy and attach it to collections; its archives appear at /<name>/<term>/.",
    input=CreateDefinitionInput,
    service=definitions.taxonomy_create,
    present=_definition,
    output_schema=outputs.DEFINITION_ONLY,
    target=lambda args, payload: f"taxonomies/{args.name}",
    routes=(Route("POST", API, args="body", status=201, name="api-taxonomies"),),
    mcp=False,
)
_taxonomy(
    "taxonomy_update",
    title="Update taxonomy",
    perm=Perm.TAXONOMY_MANAGE,
    description="Change a taxonomy's labels, nesting or collections. Detaching a collection removes the "
    "taxonomy's terms from its items; making a taxonomy flat is refused while terms are nested.",
    input=UpdateDefinitionInput,
    service=definitions.taxonomy_update,
    present=_definition,
    output_schema=outputs.DEFINITION_ONLY,
    target=lambda args, payload: f"taxonomies/{args.name}",
    routes=(Route("PATCH", f"{API}/<str:name>", args="body", name="api-taxonomy"),),
    mcp=False,
)
_taxonomy(
    "taxonomy_delete",
    title="Delete taxonomy",
    perm=Perm.TAXONOMY_MANAGE,
    destructive=True,
    description="Delete a taxonomy with all its terms and their assignments.",
    input=NameInput,
    service=definitions.taxonomy_delete,
    present=_deleted,
    output_schema=DELETED,
    target=lambda args, payload: f"taxonomies/{args.name}",
    routes=(Route("DELETE", f"{API}/<str:name>", name="api-taxonomy"),),
    mcp=False,
)

# --- an item's terms of one taxonomy (content routes) ------------------------------------------------------------

ITEM_TERMS = "_emdash/api/content/<str:collection>/<str:id>/terms/<str:taxonomy>"
_taxonomy(
    "content_terms_get",
    category="content",
    title="Get an item's terms",
    description="An item's terms in one taxonomy.",
    input=EntryTermsInput,
    service=_entry_terms,
    present=lambda payload, args: payload,
    output_schema=outputs.ENTRY_TERMS,
    routes=(Route("GET", ITEM_TERMS, name="api-content-terms"),),
    mcp=False,
    perm=Perm.CONTENT_READ,
    read_only=True,
    idempotent=True,
)
_taxonomy(
    "content_terms_set",
    category="content",
    title="Set an item's terms",
    description="Replace an item's terms in one taxonomy ({terms: [slug or ID, ...]}).",
    input=SetEntryTermsInput,
    service=_set_entry_terms,
    present=lambda payload, args: payload,
    output_schema=outputs.ENTRY_TERMS,
    target=lambda args, payload: f"{args.collection}/{args.id}",
    routes=(Route("PUT", ITEM_TERMS, args="body", name="api-content-terms"),),
    mcp=False,
    perm=Perm.CONTENT_EDIT_OWN,
    idempotent=True,
)
