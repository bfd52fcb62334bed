"""The taxonomy operations: 8 MCP tools (terms, and the definitions: list, create, update, delete) plus
REST-only ones for a single definition, a single term and an item's terms of one taxonomy.

Defining taxonomies is an MCP tool too (SPEC 10; EmDash's users asked for it, emdash-cms/emdash#2798): without
it an assistant cannot attach a taxonomy to the collection it has just built. It stays an editor's call
(taxonomies:manage, editor and up), as it is in the admin.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from emdash.operations import (
    NULLABLE,
    READ,
    Cursor,
    Endpoint,
    Input,
    NoInput,
    WholeNumber,
    audit_as,
    family,
    limit,
    reference,
    under,
)
from emdash.operations.shapes import page_of
from emdash.permissions import Perm
from taxonomy import definitions, outputs, presenters, selectors, services

API = "_emdash/api/taxonomies"
Taxonomy = Annotated[str, reference("Taxonomy name, e.g. tag", 63)]
TermSlug = Annotated[str, reference("Term id, or slug (the default locale's first)", 200)]
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
    locale: Annotated[str, reference("Only this locale's terms (default: all)", 16)] | None = None
    limit: WholeNumber = limit(50, 100)
    cursor: Cursor | None = None


class CreateTermInput(Input):
    taxonomy: Taxonomy
    slug: Annotated[Slug, Field(description="URL slug (a-z, 0-9, - and _); default: made from the label")] | None = None
    label: Label
    parent_id: Annotated[str, reference("Parent term id", 200)] | None = None
    description: Description | None = None
    locale: Annotated[str, reference("Locale, e.g. fr (default: the default locale)", 16)] | None = None
    translation_of: Annotated[str, reference("Id or slug of this term in another locale", 200)] | None = None


class TermVariantsInput(Input):
    taxonomy: Taxonomy
    term: Annotated[str, reference("Term slug or id", 200)] | None = Field(None, alias="termSlug")
    id: Annotated[str, reference("Term id or translation group (instead of termSlug)", 26)] | None = None


class TermTarget(Input):
    taxonomy: Taxonomy
    term: TermSlug = Field(alias="termSlug")  # the services' keyword; the wire name stays termSlug


class GetTermInput(TermTarget):
    locale: Annotated[str, reference("Read the slug in this locale first; answer its variant there", 16)] | None = None


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


def _term_target(args: Any, payload: dict[str, Any]) -> str:
    return f"taxonomies/{args.taxonomy}/{payload.get('term', {}).get('slug') or args.term}"


def _entry_terms(*, actor: Any, collection: str, id: str, taxonomy: str) -> dict[str, Any]:
    terms = selectors.entry_terms(actor=actor, collection=collection, id=id)
    selectors.taxonomy_get(actor=actor, name=taxonomy)  # NOT_FOUND for unknown names
    return {"taxonomy": taxonomy, "terms": terms.get(taxonomy, [])}


def _set_entry_terms(*, actor: Any, collection: str, id: str, taxonomy: str, terms: list[str]) -> dict[str, Any]:
    services.entry_terms_set(actor=actor, collection=collection, id=id, taxonomy=taxonomy, terms=terms)
    return _entry_terms(actor=actor, collection=collection, id=id, taxonomy=taxonomy)


TAXONOMIES = Endpoint(API, "api-taxonomies")
ONE_TAXONOMY = Endpoint(f"{API}/<str:name>", "api-taxonomy")
TERMS = Endpoint(f"{API}/<str:taxonomy>/terms", "api-terms")
ONE_TERM = Endpoint(f"{API}/<str:taxonomy>/terms/<str:term>", "api-term")
ITEM_TERMS = Endpoint("_emdash/api/content/<str:collection>/<str:id>/terms/<str:taxonomy>", "api-content-terms")
read = family("taxonomy", Perm.TAXONOMY_READ, **READ)
rest_read = read.but(mcp=False)  # REST and admin only
term_write = family("taxonomy", Perm.TAXONOMY_MANAGE, present=_term, output=outputs.TERM_ONLY, target=_term_target)
definition_write = family(
    "taxonomy",
    Perm.TAXONOMY_MANAGE,
    present=_definition,
    output=outputs.DEFINITION_ONLY,
    target=audit_as("taxonomies/{name}"),
)
item_terms = family("content", output=outputs.ENTRY_TERMS, idempotent=True, mcp=False)

# --- the MCP tools -----------------------------------------------------------------------------------------------

read(
    "taxonomy_list",
    "List taxonomies",
    NoInput,
    selectors.taxonomy_list,
    TAXONOMIES.get(),
    present=under("taxonomies"),
    output=outputs.DEFINITIONS,
).describe("List the taxonomies (e.g. category, tag), whether their terms nest and the collections they apply to.")
read(
    "taxonomy_list_terms",
    "List taxonomy terms",
    ListTermsInput,
    selectors.term_list,
    TERMS.get("query"),
    output=page_of(outputs.TERM),
).describe("List a taxonomy's terms by label; parentId links a term to its parent.")
term_write(
    "taxonomy_create_term", "Create taxonomy term", CreateTermInput, services.term_create, TERMS.post(status=201)
).describe(
    "Create a term in a taxonomy (slugs unique per taxonomy and locale). In a hierarchical one parentId nests it "
    "under another term (at most 100 ancestors)."
)
term_write(
    "taxonomy_update_term", "Update taxonomy term", UpdateTermInput, services.term_update, ONE_TERM.put()
).describe("Change a term's slug, label, description or parent; a term cannot move under itself or its descendants.")
read(
    "taxonomy_term_translations",
    "List term translations",
    TermVariantsInput,
    selectors.term_translations,
    Endpoint(f"{API}/<str:taxonomy>/terms/<str:term>/translations", "api-term-translations").get(),
    present=lambda result, args: result,
    output=outputs.TERM_VARIANTS,
).describe("A term's locale variants (its translation group); taxonomy_create_term translationOf adds one.")
term_write.gone(
    "taxonomy_delete_term", "Delete taxonomy term", TermTarget, services.term_delete, ONE_TERM.delete()
).describe("Delete a term and remove it from every item. A term with children is refused: delete or move them first.")

# --- the definitions (MCP tools too, SPEC 10) ------------------------------------------------------------------

definition_write(
    "taxonomy_create",
    "Create taxonomy",
    CreateDefinitionInput,
    definitions.taxonomy_create,
    TAXONOMIES.post(status=201),
).describe("Define a taxonomy and the collections it applies to; archives appear at /<name>/<term>/.")
definition_write(
    "taxonomy_update",
    "Update taxonomy",
    UpdateDefinitionInput,
    definitions.taxonomy_update,
    ONE_TAXONOMY.patch(),
    idempotent=True,
).describe(
    "Change a taxonomy's labels, nesting or collections (the full new list: add a collection here before "
    "giving its items terms). Detaching one removes its items' terms."
)
definition_write.gone(
    "taxonomy_delete", "Delete taxonomy", NameInput, definitions.taxonomy_delete, ONE_TAXONOMY.delete()
).describe("Irreversibly delete a taxonomy with all its terms and their assignments.")

# --- REST and admin only -----------------------------------------------------------------------------------------

rest_read(
    "taxonomy_get_term",
    "Get taxonomy term",
    GetTermInput,
    selectors.term_get,
    ONE_TERM.get("query"),
    present=under("term"),
    output=outputs.TERM_ONLY,
).describe("One term of a taxonomy, by slug or ID.")
rest_read(
    "taxonomy_get",
    "Get taxonomy",
    NameInput,
    selectors.taxonomy_get,
    ONE_TAXONOMY.get(),
    present=under("taxonomy"),
    output=outputs.DEFINITION_ONLY,
).describe("One taxonomy definition.")
# --- an item's terms of one taxonomy (content routes) ------------------------------------------------------------

item_terms(
    "content_terms_get",
    "Get an item's terms",
    EntryTermsInput,
    _entry_terms,
    ITEM_TERMS.get(),
    perm=Perm.CONTENT_READ,
    read_only=True,
).describe("An item's terms in one taxonomy.")
item_terms(
    "content_terms_set",
    "Set an item's terms",
    SetEntryTermsInput,
    _set_entry_terms,
    ITEM_TERMS.put(),
    perm=Perm.CONTENT_EDIT_OWN,
    target=audit_as("{collection}/{id}"),
).describe("Replace an item's terms in one taxonomy ({terms: [slug or ID, ...]}).")
