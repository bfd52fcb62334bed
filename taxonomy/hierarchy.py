"""The shape of a taxonomy's tree (SPEC 6.5): where a term may be placed under a parent.

A parent is in the term's locale, no term is its own ancestor, and a term has at most ``MAX_DEPTH`` ancestors.
The callers (taxonomy.services) hold the taxonomy's definition row locked while they check and write.
"""

from __future__ import annotations

from taxonomy.models import TaxonomyDefinition, Term

MAX_DEPTH = 100  # ancestors a term may have: a chain root -> ... -> term holds at most 101 terms


def _parent_map(definition: TaxonomyDefinition) -> dict[str, str | None]:
    """Every term of the taxonomy -> its parent, in one query (hierarchies are small next to their posts)."""
    return dict(Term.objects.filter(taxonomy=definition).values_list("id", "parent_id"))


def _ancestors(parents: dict[str, str | None], term_id: str, *, stop: int) -> list[str]:
    """The ancestor IDs of ``term_id``, nearest first; stops after ``stop`` of them (the caller only needs to
    know the chain is too long) or when the chain loops (which the checks here never let happen)."""
    chain: list[str] = []
    current = parents.get(term_id)
    while current is not None and len(chain) < stop and current not in chain:
        chain.append(current)
        current = parents.get(current)
    return chain


def _subtree_height(parents: dict[str, str | None], term_id: str) -> int:
    """How many levels hang below ``term_id`` (0 for a leaf)."""
    children: dict[str, list[str]] = {}
    for child, parent in parents.items():
        if parent is not None:
            children.setdefault(parent, []).append(child)
    height, level, seen = 0, [term_id], {term_id}
    while True:
        level = [c for t in level for c in children.get(t, ()) if c not in seen]
        if not level:
            return height
        seen.update(level)
        height += 1


def check_placement(
    definition: TaxonomyDefinition,
    parent: Term,
    problems: dict[str, str],
    *,
    locale: str,
    moving: Term | None = None,
) -> None:
    """A parent for a new term (``moving`` None) or for an existing one: in the term's ``locale`` (a French
    term sits below the French variant of its parent), no self-parent, no cycle, depth cap."""
    if moving is not None and parent.pk == moving.pk:
        problems["parentId"] = "a term cannot be its own parent"
        return
    if parent.locale != locale:
        problems["parentId"] = (
            f"the parent '{parent.slug}' is in locale '{parent.locale}', this term in '{locale}': "
            "pick the parent's variant in this locale (taxonomy_term_translations lists them)"
        )
        return
    parents = _parent_map(definition)
    above = _ancestors(parents, parent.pk, stop=MAX_DEPTH + 1)
    if moving is not None and moving.pk in above:
        problems["parentId"] = f"'{parent.slug}' is below '{moving.slug}': the move would create a cycle"
        return
    below = _subtree_height(parents, moving.pk) if moving is not None else 0
    depth = len(above) + 1 + below  # ancestors of the deepest term the write would place
    if depth > MAX_DEPTH:
        problems["parentId"] = f"too deep: a term may have at most {MAX_DEPTH} ancestors (this would make {depth})"
