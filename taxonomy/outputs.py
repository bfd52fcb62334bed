"""JSON Schema of what the taxonomy operations return (MCP outputSchema, OpenAPI responses)."""

from __future__ import annotations

from emdash.operations.shapes import BOOLEAN, NULLABLE_STRING, STRING, array, obj, shared

# Listed in full by taxonomy_list_terms (its items), pointed to by the term writes.
TERM_SHAPE = obj(
    {
        "id": STRING,
        "taxonomy": STRING,
        "slug": STRING,
        "label": STRING,
        "parentId": NULLABLE_STRING,
        "description": STRING,
    },
    ["id", "slug", "label", "parentId"],
)
TERM = shared(TERM_SHAPE, "taxonomy_list_terms", "items[]")
TERM_ONLY = obj({"term": TERM}, ["term"])
TERM_REF = obj({"id": STRING, "slug": STRING, "label": STRING}, ["id", "slug", "label"])
DEFINITION = obj(
    {"name": STRING, "label": STRING, "labelSingular": STRING, "hierarchical": BOOLEAN, "collections": array(STRING)},
    ["name", "label", "labelSingular", "hierarchical", "collections"],
)
DEFINITIONS = obj({"taxonomies": array(DEFINITION)}, ["taxonomies"])
DEFINITION_ONLY = obj({"taxonomy": DEFINITION}, ["taxonomy"])
ENTRY_TERMS = obj({"taxonomy": STRING, "terms": array(TERM_REF)}, ["taxonomy", "terms"])
