"""Taxonomies and terms as the outside world sees them (MCP, REST and templates share these shapes)."""

from __future__ import annotations

from content.entries.outputs import TermRef
from taxonomy.models import TaxonomyDefinition
from taxonomy.models import Term as TermRow
from taxonomy.outputs import Definition, Term


def definition(row: TaxonomyDefinition, existing: set[str] | None = None) -> Definition:
    """``existing``: the collections that exist; a definition names only those (SPEC 6.5)."""
    attached = list(row.collections or [])
    return {
        "name": row.name,
        "label": row.label,
        "labelSingular": row.label_singular or row.label,
        "hierarchical": row.hierarchical,
        "collections": attached if existing is None else [c for c in attached if c in existing],
    }


def term(row: TermRow, taxonomy: str) -> Term:
    return {
        "id": row.id,
        "taxonomy": taxonomy,
        "slug": row.slug,
        "label": row.label,
        "parentId": row.parent_id,
        "description": row.description,
        "locale": row.locale,
        "translationGroup": row.translation_group or row.id,
    }


def term_ref(row: TermRow) -> TermRef:
    """A term as it appears on an entry."""
    return term_ref_of(row.id, row.slug, row.label)


def term_ref_of(term_id: str, slug: str, label: str) -> TermRef:
    return {"id": term_id, "slug": slug, "label": label}
