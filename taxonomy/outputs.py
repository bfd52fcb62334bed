"""What the taxonomy operations return: typed once, as the presenters' return types, from which the JSON Schema
(MCP outputSchema, OpenAPI responses) is generated."""

from __future__ import annotations

from typing import Annotated, Required, TypedDict

from content.entries.outputs import TermRef
from emdash.operations.shapes import shared
from emdash.operations.typed import Schema, schema_of


class Term(TypedDict, total=False):
    id: Required[str]
    taxonomy: str
    slug: Required[str]
    label: Required[str]
    parentId: Required[str | None]
    description: str
    locale: str
    translationGroup: str


# Listed in full by taxonomy_list_terms (its items), pointed to by the term writes.
TERM_SHAPE = schema_of(Term)
TERM = shared(TERM_SHAPE, "taxonomy_list_terms", "items[]")


class Definition(TypedDict):
    name: str
    label: str
    labelSingular: str
    hierarchical: bool
    collections: list[str]


DEFINITION = schema_of(Definition)


class TermOnly(TypedDict):
    term: Annotated[Term, Schema(TERM)]


TERM_ONLY = schema_of(TermOnly)


class Definitions(TypedDict):
    taxonomies: list[Definition]


DEFINITIONS = schema_of(Definitions)


class DefinitionOnly(TypedDict):
    taxonomy: Definition


DEFINITION_ONLY = schema_of(DefinitionOnly)


class TermVariants(TypedDict):
    translationGroup: str
    translations: list[Annotated[Term, Schema(TERM)]]


TERM_VARIANTS = schema_of(TermVariants)


class EntryTerms(TypedDict):
    taxonomy: str
    terms: list[TermRef]


TERM_REF = schema_of(TermRef)
ENTRY_TERMS = schema_of(EntryTerms)
