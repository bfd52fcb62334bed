"""JSON Schema of what the taxonomy operations return (MCP outputSchema, OpenAPI responses)."""

from __future__ import annotations

from typing import Any

from emdash.operations.shapes import shared

# Listed in full by taxonomy_list_terms (its items), pointed to by the term writes.
TERM_SHAPE: dict[str, Any] = {
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
TERM = shared(TERM_SHAPE, "taxonomy_list_terms", "items[]")
TERM_ONLY = {"type": "object", "properties": {"term": TERM}, "required": ["term"]}
TERM_REF = {
    "type": "object",
    "properties": {"id": {"type": "string"}, "slug": {"type": "string"}, "label": {"type": "string"}},
    "required": ["id", "slug", "label"],
}
DEFINITION: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "label": {"type": "string"},
        "labelSingular": {"type": "string"},
        "hierarchical": {"type": "boolean"},
        "collections": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["name", "label", "labelSingular", "hierarchical", "collections"],
}
DEFINITIONS = {
    "type": "object",
    "properties": {"taxonomies": {"type": "array", "items": DEFINITION}},
    "required": ["taxonomies"],
}
DEFINITION_ONLY = {"type": "object", "properties": {"taxonomy": DEFINITION}, "required": ["taxonomy"]}
ENTRY_TERMS = {
    "type": "object",
    "properties": {"taxonomy": {"type": "string"}, "terms": {"type": "array", "items": TERM_REF}},
    "required": ["taxonomy", "terms"],
}
