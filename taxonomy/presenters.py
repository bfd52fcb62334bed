"""Taxonomies and terms as the outside world sees them (MCP, REST and templates share these shapes)."""

from __future__ import annotations

from typing import Any

from taxonomy.models import TaxonomyDefinition, Term


def definition(row: TaxonomyDefinition) -> dict[str, Any]:
    return {
        "name": row.name,
        "label": row.label,
        "labelSingular": row.label_singular or row.label,
        "hierarchical": row.hierarchical,
        "collections": list(row.collections or []),
    }


def term(row: Term, taxonomy: str) -> dict[str, Any]:
    return {
        "id": row.id,
        "taxonomy": taxonomy,
        "slug": row.slug,
        "label": row.label,
        "parentId": row.parent_id,
        "description": row.description,
    }


def term_ref(row: Term) -> dict[str, Any]:
    """A term as it appears on an entry."""
    return {"id": row.id, "slug": row.slug, "label": row.label}
