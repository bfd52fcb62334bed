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
from emdash.operations import NULLABLE, Cursor, Input, NoInput, Route, WholeNumber, family, limit, reference
from emdash.permissions import Perm
from taxonomy import definitions, outputs, presenters, selectors, services

API = "_emdash/api/taxonomies"
Taxonomy = Annotated[str, reference("Taxonomy name, e.g. tag", 63)]
TermSlug = Annotated[str, reference("Term slug or id", 200)]
Slug = Annotated[str, Field(description="URL slug (a-z, 0-9, - and _)", min_length=1, max_length=200)]
Label = Annotated[str, Field(description="Display name", min_length=1, max_length=services.LABEL_MAX_LENGTH)]
Description = Annotated[str, Field(description="What the term covers", max_length=services.DESCRIPTION_MAX_LENGTH)]
Collections = Annotated[
    list[Annotated[str, Field(min_length=1, max_length=63)]],
    Field(
        description="Slugs of the collections whose items can carry the terms", max_length=definitions.MAX_COLLECTIONS
    ),
]


class ListTermsInput(Input):
    taxonomy: Taxonomy
    limit: WholeNumber = limit(50, 100)
    cursor: Cursor | None = None


class CreateTermInput(Input):
    taxonomy: Taxonomy
    slug: Slug
    label: Label
    parent_id: Annotated[str, reference("Parent term id", 200)] | None = None
    description: Description | None = None


class TermTarget(Input):
    taxonomy: Taxonomy
    term: TermSlug = Field(alias="termSlug")  # the services' keyword; the wire name stays termSlug


class UpdateTermInput(TermTarget):
    slug: Slug | None = None
    label: Label | None = None
    parent_id: Annotated[
        Annotated[str, reference("New parent term id; null makes the term top-level", 200)] | None, NULLABLE
    ] = None
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


def _definition_target(args: Any, payload: dict[str, Any]) -> str:
    return f"taxonomies/{args.name}"


GONE = {"present": _deleted, "output_schema": DELETED}
TERMS = f"{API}/<str:taxonomy>/terms"
ONE_TERM = f"{TERMS}/<str:term>"
MANAGE = {"category": "taxonomy", "perm": Perm.TAXONOMY_MANAGE}
read = family(category="taxonomy", perm=Perm.TAXONOMY_READ, read_only=True, idempotent=True)
term_write = family(**MANAGE, present=_term, output_schema=outputs.TERM_ONLY, target=_term_target)
# Defining taxonomies is REST and admin only (see the module docstring).
definition_write = family(
    **MANAGE, present=_definition, output_schema=outputs.DEFINITION_ONLY, target=_definition_target, mcp=False
)
item_terms = family(category="content", output_schema=outputs.ENTRY_TERMS, idempotent=True, mcp=False)

# --- the MCP tools -----------------------------------------------------------------------------------------------

read(
    "taxonomy_list",
    title="List taxonomies",
    description="List the taxonomies (e.g. category, tag), whether their terms nest and the collections they apply to.",
    input=NoInput,
    service=selectors.taxonomy_list,
    present=lambda rows, args: {"taxonomies": rows},
    output_schema=outputs.DEFINITIONS,
    routes=(Route("GET", API, name="api-taxonomies"),),
)
read(
    "taxonomy_list_terms",
    title="List taxonomy terms",
    description="List a taxonomy's terms by label; parentId links a term to its parent.",
    input=ListTermsInput,
    service=selectors.term_list,
    present=lambda page, args: page.to_dict(),
    output_schema={
        "type": "object",
        "properties": {"items": {"type": "array", "items": outputs.TERM}, "nextCursor": {"type": "string"}},
        "required": ["items"],
    },
    routes=(Route("GET", TERMS, args="query", name="api-terms"),),
)
term_write(
    "taxonomy_create_term",
    title="Create taxonomy term",
    description="Create a term in a taxonomy (slugs unique per taxonomy). In a hierarchical one parentId nests it "
    "under another term (at most 100 ancestors).",
    input=CreateTermInput,
    service=services.term_create,
    routes=(Route("POST", TERMS, args="body", status=201, name="api-terms"),),
)
term_write(
    "taxonomy_update_term",
    title="Update taxonomy term",
    description="Change a term's slug, label, description or parent; a term cannot move under itself or its "
    "descendants.",
    input=UpdateTermInput,
    service=services.term_update,
    routes=(Route("PUT", ONE_TERM, args="body", name="api-term"),),
)
term_write(
    "taxonomy_delete_term",
    title="Delete taxonomy term",
    destructive=True,
    description="Delete a term and remove it from every item. A term with children is refused: delete or move "
    "them first.",
    input=TermTarget,
    service=services.term_delete,
    **GONE,
    routes=(Route("DELETE", ONE_TERM, name="api-term"),),
)

# --- REST and admin only -----------------------------------------------------------------------------------------

read(
    "taxonomy_get_term",
    title="Get taxonomy term",
    description="One term of a taxonomy, by slug or ID.",
    input=TermTarget,
    service=selectors.term_get,
    present=lambda term, args: {"term": term},
    output_schema=outputs.TERM_ONLY,
    routes=(Route("GET", ONE_TERM, name="api-term"),),
    mcp=False,
)
read(
    "taxonomy_get",
    mcp=False,
    title="Get taxonomy",
    description="One taxonomy definition.",
    input=NameInput,
    service=selectors.taxonomy_get,
    present=lambda row, args: {"taxonomy": row},
    output_schema=outputs.DEFINITION_ONLY,
    routes=(Route("GET", f"{API}/<str:name>", name="api-taxonomy"),),
)
definition_write(
    "taxonomy_create",
    title="Create taxonomy",
    description="Define a taxonomy and attach it to collections; its archives appear at /<name>/<term>/.",
    input=CreateDefinitionInput,
    service=definitions.taxonomy_create,
    routes=(Route("POST", API, args="body", status=201, name="api-taxonomies"),),
)
definition_write(
    "taxonomy_update",
    title="Update taxonomy",
    description="Change a taxonomy's labels, nesting or collections. Detaching a collection removes the "
    "taxonomy's terms from its items; making a taxonomy flat is refused while terms are nested.",
    input=UpdateDefinitionInput,
    service=definitions.taxonomy_update,
    routes=(Route("PATCH", f"{API}/<str:name>", args="body", name="api-taxonomy"),),
)
definition_write(
    "taxonomy_delete",
    title="Delete taxonomy",
    destructive=True,
    description="Delete a taxonomy with all its terms and their assignments.",
    input=NameInput,
    service=definitions.taxonomy_delete,
    **GONE,
    routes=(Route("DELETE", f"{API}/<str:name>", name="api-taxonomy"),),
)

# --- an item's terms of one taxonomy (content routes) ------------------------------------------------------------

ITEM_TERMS = "_emdash/api/content/<str:collection>/<str:id>/terms/<str:taxonomy>"
item_terms(
    "content_terms_get",
    title="Get an item's terms",
    description="An item's terms in one taxonomy.",
    perm=Perm.CONTENT_READ,
    read_only=True,
    input=EntryTermsInput,
    service=_entry_terms,
    routes=(Route("GET", ITEM_TERMS, name="api-content-terms"),),
)
item_terms(
    "content_terms_set",
    title="Set an item's terms",
    description="Replace an item's terms in one taxonomy ({terms: [slug or ID, ...]}).",
    perm=Perm.CONTENT_EDIT_OWN,
    input=SetEntryTermsInput,
    service=_set_entry_terms,
    target=lambda args, payload: f"{args.collection}/{args.id}",
    routes=(Route("PUT", ITEM_TERMS, args="body", name="api-content-terms"),),
)
