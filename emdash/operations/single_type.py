"""One type per schema: type arrays (``{"type": ["string", "null"]}``) become ``anyOf`` of single-type branches.

Single-type function-calling dialects (Gemini, OpenAI strict) and Ajv's strict mode refuse type arrays, so every
schema we publish (tools/list, OpenAPI) is rewritten once, where it is declared. The rewrite keeps validation
identical: a keyword that only constrains one type (``minLength`` for strings, ``items`` for arrays) moves into
that type's branch, where it applied anyway; the others (``description``, ``enum``, ``default``) stay on the parent.
"""

from __future__ import annotations

from typing import Any

# The keywords that only say something about values of one JSON type (JSON Schema 2020-12 and draft-07).
_NUMERIC = frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"})
_BY_TYPE: dict[str, frozenset[str]] = {
    "string": frozenset({"minLength", "maxLength", "pattern", "format", "contentEncoding", "contentMediaType"}),
    "number": _NUMERIC,
    "integer": _NUMERIC,
    "array": frozenset(
        {"items", "prefixItems", "additionalItems", "minItems", "maxItems", "uniqueItems", "contains"}
        | {"minContains", "maxContains", "unevaluatedItems"}
    ),
    "object": frozenset(
        {"properties", "required", "additionalProperties", "patternProperties", "minProperties", "maxProperties"}
        | {"propertyNames", "dependentRequired", "dependentSchemas", "dependencies", "unevaluatedProperties"}
    ),
}
_TYPED = frozenset().union(*_BY_TYPE.values())


def _split(node: dict[str, Any], types: list[str]) -> dict[str, Any]:
    """``node`` (already converted inside) with its type array turned into ``anyOf`` branches."""
    if len(types) == 1:
        return {**node, "type": types[0]}
    parent = {key: value for key, value in node.items() if key != "type" and key not in _TYPED}
    branches = []
    for kind in types:
        branch: dict[str, Any] = {"type": kind}
        branch.update((key, value) for key, value in node.items() if key in _BY_TYPE.get(kind, ()))
        branches.append(branch)
    if "anyOf" in parent:  # both constraints hold: the node's own anyOf and the one of its types
        parent["allOf"] = [*parent.get("allOf", []), {"anyOf": parent.pop("anyOf")}, {"anyOf": branches}]
    else:
        parent["anyOf"] = branches
    return parent


# Keys whose values are maps of names to schemas (not schemas themselves).
_MAPS = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"})
# Keys whose values are data, never schemas.
_DATA = frozenset({"enum", "const", "default", "examples", "required", "example"})


def single_type(schema: Any) -> Any:
    """A copy of ``schema`` with one ``type`` per schema object, everywhere inside it."""
    if isinstance(schema, list):
        return [single_type(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _DATA:
            out[key] = value
        elif key in _MAPS and isinstance(value, dict):
            out[key] = {name: single_type(sub) for name, sub in value.items()}
        else:
            out[key] = single_type(value)
    kind = out.get("type")
    return _split(out, kind) if isinstance(kind, list) else out


def type_arrays(schema: Any, where: str = "") -> list[str]:
    """The paths inside ``schema`` that still hold a type array (empty when it is single-typed)."""
    found: list[str] = []
    if isinstance(schema, dict):
        if isinstance(schema.get("type"), list):
            found.append(where or "(root)")
        for key, value in schema.items():
            if key not in _DATA:
                found += type_arrays(value, f"{where}.{key}" if where else key)
    elif isinstance(schema, list):
        for i, item in enumerate(schema):
            found += type_arrays(item, f"{where}[{i}]")
    return found
