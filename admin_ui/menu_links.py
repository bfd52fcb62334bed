"""The menu editor in editors' words: what each item links to by title (never an id), and the terms and
collections the add form offers by name."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from admin_ui.display import title_of
from content.entries import selectors as content_selectors
from content.schema import specs as schema
from emdash.actor import Actor
from emdash.errors import EmDashError
from menus.models import MenuItem
from taxonomy import selectors as taxonomy_selectors

_KIND_NAMES = {
    "custom": "A web address",
    "page": "A page or other item",
    "post": "A post",
    "taxonomy": "A category, tag or other term",
    "collection": "A collection's index",
}
KINDS = {t: _KIND_NAMES[t] for t in MenuItem.TYPES}  # the add form's "Links to" choices; a new type needs a name


def _taxonomies(actor: Actor) -> dict[str, Any]:
    try:
        return {t["name"]: t for t in taxonomy_selectors.taxonomy_list(actor=actor)}
    except EmDashError:
        return {}


def _walk(nodes: list[dict[str, Any]], depth: int = 0) -> Iterator[tuple[dict[str, Any], int]]:
    for node in nodes:
        yield node, depth
        yield from _walk(node["children"], depth + 1)


def term_choices(actor: Actor) -> list[dict[str, Any]]:
    """``[{taxonomy, label, terms: [{id, label}]}]``: every term of every taxonomy, nested ones indented."""
    groups = []
    for name, taxonomy in _taxonomies(actor).items():
        terms = [
            {"id": node["id"], "label": "\u2003" * depth + node["label"], "title": node["label"]}
            for node, depth in _walk(taxonomy_selectors.term_tree(actor=actor, taxonomy=name))
        ]
        groups.append({"taxonomy": name, "label": taxonomy["labelSingular"], "terms": terms})
    return groups


def collection_choices() -> list[tuple[str, str]]:
    return sorted(((s.slug, s.label) for s in schema.current().collections.values()), key=lambda c: c[1].lower())


class Describer:
    """Titles for a menu's items, looking each taxonomy up once."""

    def __init__(self, actor: Actor) -> None:
        self.actor = actor
        self.taxonomies = _taxonomies(actor)

    def title(self, item: dict[str, Any]) -> str:
        """The linked thing's own name: the entry's title, the term's label, the collection's label."""
        kind, collection, ref = item["type"], item["referenceCollection"] or "", item["referenceId"] or ""
        try:
            if kind in ("page", "post"):
                entry = content_selectors.entry_get(actor=self.actor, collection=collection, id=ref)
                return title_of(entry.to_dict())
            if kind == "taxonomy":
                return str(taxonomy_selectors.term_get(actor=self.actor, taxonomy=collection, term=ref)["label"])
            if kind == "collection":
                return schema.current().get(collection).label
        except EmDashError:
            return "a missing item"
        return item["customUrl"] or ""

    def kind(self, item: dict[str, Any]) -> str:
        """What sort of thing it is: "Category", "Post", "Pages" (a collection's index), "Link"."""
        kind, collection = item["type"], item["referenceCollection"] or ""
        if kind == "taxonomy":
            return str(self.taxonomies.get(collection, {}).get("labelSingular") or collection)
        if kind in ("page", "post"):
            spec = schema.current().collections.get(collection)
            return spec.label_singular if spec else kind.capitalize()
        return "All items of" if kind == "collection" else "Link"
