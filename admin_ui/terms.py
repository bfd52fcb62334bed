"""Taxonomy terms on the entry form: checkboxes per taxonomy attached to the collection."""

from __future__ import annotations

from typing import Any

from django.http import QueryDict

from content.schema import CollectionSpec
from emdash.actor import Actor
from taxonomy import selectors

TAXONOMIES_KEY = "terms_taxonomies"


def flatten(nodes: list[dict[str, Any]], depth: int = 0) -> list[dict[str, Any]]:
    """A term tree as a list in display order, each node with its ``depth``."""
    out: list[dict[str, Any]] = []
    for node in nodes:
        out.append({**node, "depth": depth})
        out += flatten(node.get("children") or [], depth + 1)
    return out


def groups(actor: Actor, spec: CollectionSpec, entry_id: str) -> list[dict[str, Any]]:
    attached = [t for t in selectors.taxonomy_list(actor=actor) if spec.slug in t["collections"]]
    if not attached:
        return []
    assigned = selectors.entry_terms(actor=actor, collection=spec.slug, id=entry_id)
    result = []
    for taxonomy in attached:
        chosen = {t["slug"] for t in assigned.get(taxonomy["name"], [])}
        terms = flatten(selectors.term_tree(actor=actor, taxonomy=taxonomy["name"]))
        result.append({"taxonomy": taxonomy, "terms": terms, "chosen": chosen})
    return result


def posted(spec: CollectionSpec, post: QueryDict) -> dict[str, list[str]] | None:
    """``{taxonomy: [term slug]}`` for the taxonomies the form showed, or None when it showed none."""
    names = [n for n in post.get(TAXONOMIES_KEY, "").split(",") if n]
    if not names:
        return None
    return {name: post.getlist(f"terms_{name}") for name in names}
