"""Taxonomy terms on the entry form: checkboxes per taxonomy attached to the collection."""

from __future__ import annotations

from typing import Any

from django.http import QueryDict

from content.schema.specs import CollectionSpec
from emdash.actor import Actor
from taxonomy import selectors
from taxonomy.outputs import Definition

TAXONOMIES_KEY = "terms_taxonomies"


def flatten(nodes: list[dict[str, Any]], depth: int = 0) -> list[dict[str, Any]]:
    """A term tree as a list in display order, each node with its ``depth``."""
    out: list[dict[str, Any]] = []
    for node in nodes:
        out.append({**node, "depth": depth})
        out += flatten(node.get("children") or [], depth + 1)
    return out


def attached(actor: Actor, spec: CollectionSpec) -> list[Definition]:
    """The taxonomy definitions whose terms the collection's items can carry."""
    return [t for t in selectors.taxonomy_list(actor=actor) if spec.slug in t["collections"]]


def choices(actor: Actor, spec: CollectionSpec) -> list[dict[str, Any]]:
    """``[{taxonomy, terms}]`` for the bulk "assign term" picker: the attached taxonomies' terms in tree order."""
    out = []
    for taxonomy in attached(actor, spec):
        terms = flatten(selectors.term_tree(actor=actor, taxonomy=taxonomy["name"]))
        if terms:  # a taxonomy without terms has nothing to assign
            out.append(
                {"taxonomy": taxonomy, "terms": [{**t, "shown": "\u2013 " * t["depth"] + t["label"]} for t in terms]}
            )
    return out


def groups(
    actor: Actor, spec: CollectionSpec, entry_id: str | None, chosen: dict[str, list[str]] | None = None
) -> list[dict[str, Any]]:
    """One group per attached taxonomy with its terms and the ticked term ids: ``chosen`` (the posted form, kept
    after an error) or else the entry's assignments (none for a new entry). Ids, as a slug may name terms of
    several locales."""
    taxonomies = attached(actor, spec)
    if not taxonomies:
        return []
    if chosen is None:
        assigned = selectors.entry_terms(actor=actor, collection=spec.slug, id=entry_id) if entry_id else {}
        chosen = {name: [t["id"] for t in terms] for name, terms in assigned.items()}
    result = []
    for taxonomy in taxonomies:
        terms = flatten(selectors.term_tree(actor=actor, taxonomy=taxonomy["name"]))
        given = set(chosen.get(taxonomy["name"], []))  # ids; a form posted by hand may name slugs
        ticked = {t["id"] for t in terms if t["id"] in given or t["slug"] in given}
        result.append({"taxonomy": taxonomy, "terms": terms, "chosen": ticked})
    return result


def posted(spec: CollectionSpec, post: QueryDict) -> dict[str, list[str]] | None:
    """``{taxonomy: [term id]}`` for the taxonomies the form showed, or None when it showed none."""
    names = [n for n in post.get(TAXONOMIES_KEY, "").split(",") if n]
    if not names:
        return None
    return {name: post.getlist(f"terms_{name}") for name in names}
