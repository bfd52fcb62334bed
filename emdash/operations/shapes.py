"""Output shapes shared by several operations, listed in full once.

MCP tool schemas must stay inline (no ``$ref``), so a shape such as "a content item" would be repeated in
every tool that returns one: eleven copies of the same kilobyte in ``tools/list``. Instead a shared shape
names its *home*, the read tool that returns it (``content_get``); tools/list shows it in full there and,
everywhere else, as ``{"type": "object", "description": "Shape of content_get's item"}``. Results
still validate against every listed schema (the reference only loosens it), and OpenAPI keeps full shapes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

HOME = "x-emdash-home"  # marker key, never published

# The JSON Schema vocabulary output shapes are written in.
STRING = {"type": "string"}
INTEGER = {"type": "integer"}
NUMBER = {"type": "number"}
BOOLEAN = {"type": "boolean"}
NULLABLE_STRING = {"type": ["string", "null"]}
NULLABLE_INTEGER = {"type": ["integer", "null"]}


def obj(properties: dict[str, Any], required: Sequence[str] = (), description: str = "") -> dict[str, Any]:
    """An object schema: ``properties``, the ``required`` ones, and a ``description`` if given."""
    schema: dict[str, Any] = {"type": "object", **({"description": description} if description else {})}
    schema["properties"] = properties
    if required:
        schema["required"] = list(required)
    return schema


def array(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items}


def shared(schema: dict[str, Any], home: str, where: str = "result", note: str = "") -> dict[str, Any]:
    """Mark ``schema`` as listed in full only by tool ``home`` (at ``where`` in its result); ``note`` says how
    this use differs from the home's (a summary leaves fields out)."""
    return {**schema, HOME: (home, where, note)}


def full(schema: Any) -> Any:
    """``schema`` with the markers removed: every shape in full (OpenAPI, validation)."""
    if isinstance(schema, list):
        return [full(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    return {key: full(value) for key, value in schema.items() if key != HOME}


def listed(schema: Any, tool: str) -> Any:
    """``schema`` as tool ``tool`` lists it: shapes homed elsewhere become a pointer to their home."""
    if isinstance(schema, list):
        return [listed(item, tool) for item in schema]
    if not isinstance(schema, dict):
        return schema
    if HOME in schema and schema[HOME][0] != tool:
        home, where, note = schema[HOME]
        return {"type": schema["type"], "description": f"Shape of {home}'s {where}" + (f", {note}" if note else "")}
    return {key: listed(value, tool) for key, value in schema.items() if key != HOME}


def homes(schema: Any) -> set[str]:
    """The home tools ``schema`` points to (checked against the table at start-up)."""
    if isinstance(schema, list):
        return set().union(*(homes(item) for item in schema)) if schema else set()
    if not isinstance(schema, dict):
        return set()
    found = {schema[HOME][0]} if HOME in schema else set()
    return found.union(*(homes(value) for key, value in schema.items() if key != HOME))


def items_of(item: dict[str, Any]) -> dict[str, Any]:
    """``{items: [item, ...]}``: a whole list."""
    return obj({"items": array(item)}, ["items"])


def page_of(item: dict[str, Any]) -> dict[str, Any]:
    """``{items: [item, ...], nextCursor}``: one page of a list, the cursor absent on the last."""
    return obj({"items": array(item), "nextCursor": STRING}, ["items"])
