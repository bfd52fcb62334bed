"""The 5 taxonomy tools: thin adapters over taxonomy.services and taxonomy.selectors."""

from __future__ import annotations

from typing import Any

from emdash.actor import Actor
from emdash.permissions import Perm
from mcp_endpoint.registry import tool
from mcp_endpoint.schemas import CURSOR, DELETED, SLUG, limit, obj, page_of, string
from taxonomy import presenters, selectors, services

TAXONOMY = string("Taxonomy name, e.g. category or tag (see taxonomy_list)", minLength=1, maxLength=63)
TERM_SLUG = string("Slug of the term (its ID is accepted too)", minLength=1, maxLength=200)
LABEL = string("Display name", minLength=1, maxLength=services.LABEL_MAX_LENGTH)
DESCRIPTION = string("Description of the term", maxLength=services.DESCRIPTION_MAX_LENGTH)
TERM = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "taxonomy": {"type": "string"},
        "slug": {"type": "string"},
        "label": {"type": "string"},
        "parentId": {"type": ["string", "null"]},
        "description": {"type": "string"},
    },
    "required": ["id", "slug", "label", "parentId"],
}
TERM_ONLY = {"type": "object", "properties": {"term": TERM}, "required": ["term"]}


@tool(
    "taxonomy_list",
    title="List taxonomies",
    category="taxonomy",
    perm=Perm.TAXONOMY_READ,
    read_only=True,
    idempotent=True,
    description="List the taxonomy definitions (e.g. category, tag): name, labels, whether terms can nest "
    "(hierarchical) and which collections they apply to.",
    input=obj({}),
    output={
        "type": "object",
        "properties": {
            "taxonomies": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "label": {"type": "string"},
                        "labelSingular": {"type": "string"},
                        "hierarchical": {"type": "boolean"},
                        "collections": {"type": "array", "items": {"type": "string"}},
                    },
                    "required": ["name", "label", "labelSingular", "hierarchical", "collections"],
                },
            }
        },
        "required": ["taxonomies"],
    },
)
def taxonomy_list(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    return {"taxonomies": selectors.taxonomy_list(actor=actor)}


@tool(
    "taxonomy_list_terms",
    title="List taxonomy terms",
    category="taxonomy",
    perm=Perm.TAXONOMY_READ,
    read_only=True,
    idempotent=True,
    description="List the terms of a taxonomy by label (a stable order), with cursor pagination. parentId links "
    "a term to its parent in hierarchical taxonomies.",
    input=obj({"taxonomy": TAXONOMY, "limit": limit(50, 100), "cursor": CURSOR}, ("taxonomy",)),
    output=page_of(TERM),
)
def taxonomy_list_terms(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    return selectors.term_list(
        actor=actor, taxonomy=a["taxonomy"], limit=a.get("limit", 50), cursor=a.get("cursor")
    ).to_dict()


@tool(
    "taxonomy_create_term",
    title="Create taxonomy term",
    category="taxonomy",
    perm=Perm.TAXONOMY_MANAGE,
    description="Create a term in a taxonomy. In hierarchical taxonomies (category) parentId nests it under "
    "another term of the same taxonomy; a term may have at most 100 ancestors. Slugs are unique per taxonomy.",
    input=obj(
        {
            "taxonomy": TAXONOMY,
            "slug": SLUG,
            "label": LABEL,
            "parentId": string("ID of the parent term (hierarchical taxonomies only)", minLength=1, maxLength=200),
            "description": DESCRIPTION,
        },
        ("taxonomy", "slug", "label"),
    ),
    output=TERM_ONLY,
)
def taxonomy_create_term(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    term = services.term_create(
        actor=actor,
        taxonomy=a["taxonomy"],
        slug=a["slug"],
        label=a["label"],
        parent_id=a.get("parentId"),
        description=a.get("description"),
    )
    return {"term": presenters.term(term, a["taxonomy"])}


@tool(
    "taxonomy_update_term",
    title="Update taxonomy term",
    category="taxonomy",
    perm=Perm.TAXONOMY_MANAGE,
    description="Change a term's slug, label, description or parent. parentId null detaches the term (it becomes "
    "top-level); a term cannot move under itself or one of its descendants.",
    input=obj(
        {
            "taxonomy": TAXONOMY,
            "termSlug": TERM_SLUG,
            "slug": SLUG,
            "label": LABEL,
            "parentId": {
                "type": ["string", "null"],
                "minLength": 1,
                "maxLength": 200,
                "description": "ID of the new parent term, or null to make the term top-level",
            },
            "description": DESCRIPTION,
        },
        ("taxonomy", "termSlug"),
    ),
    output=TERM_ONLY,
)
def taxonomy_update_term(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    term = services.term_update(
        actor=actor,
        taxonomy=a["taxonomy"],
        term=a["termSlug"],
        slug=a.get("slug"),
        label=a.get("label"),
        parent_id=a.get("parentId", services.UNSET),
        description=a.get("description"),
    )
    return {"term": presenters.term(term, a["taxonomy"])}


@tool(
    "taxonomy_delete_term",
    title="Delete taxonomy term",
    category="taxonomy",
    perm=Perm.TAXONOMY_MANAGE,
    destructive=True,
    description="Delete a term and remove it from every item that carries it. A term with child terms cannot be "
    "deleted: delete or move the children first.",
    input=obj({"taxonomy": TAXONOMY, "termSlug": TERM_SLUG}, ("taxonomy", "termSlug")),
    output=DELETED,
)
def taxonomy_delete_term(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    services.term_delete(actor=actor, taxonomy=a["taxonomy"], term=a["termSlug"])
    return {"deleted": True}
