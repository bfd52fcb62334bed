"""Output shapes shared by several operations, or by several places of one result, listed in full once.

MCP tool schemas must stay inline (no ``$ref``), so a shape such as "a content item" would be repeated in
every tool that returns one: eleven copies of the same kilobyte in ``tools/list``. Instead a shared shape
names its *home*, the read tool that returns it (``content_get``) and where in its result it sits; tools/list
shows it in full there and, everywhere else, as ``{"type": "object", "description": "Shape of content_get's
item"}``. A second use inside the home's own result (``liveSeo`` next to ``seo``) is a ``copy``: it points
too, keeping its own description. Results still validate against every listed schema (the reference only
loosens it), and OpenAPI keeps full shapes.
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
    return {**schema, HOME: (home, where, note, False)}


def copy(schema: dict[str, Any], home: str, where: str, description: str) -> dict[str, Any]:
    """Mark ``schema`` as another use of the shape tool ``home`` lists at ``where``, never listed in full (not
    even by ``home``): it shows as ``description`` plus the pointer."""
    return {**schema, "description": description, HOME: (home, where, description, True)}


def full(schema: Any) -> Any:
    """``schema`` with the markers removed: every shape in full (OpenAPI, validation)."""
    if isinstance(schema, list):
        return [full(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    return {key: full(value) for key, value in schema.items() if key != HOME}


def _pointer(schema: dict[str, Any], tool: str) -> dict[str, Any]:
    home, where, note, is_copy = schema[HOME]
    ref = where if home == tool else f"{home}'s {where}"
    text = f"{note} (shape of {ref})" if is_copy else f"Shape of {ref}" + (f", {note}" if note else "")
    if "type" in schema:
        return {"type": schema["type"], "description": text}
    # A nullable shape (one type per schema: anyOf branches): the pointer keeps the branches' types.
    return {"anyOf": [{"type": branch["type"]} for branch in schema["anyOf"]], "description": text}


def listed(schema: Any, tool: str) -> Any:
    """``schema`` as tool ``tool`` lists it: shapes homed elsewhere, and copies, become a pointer."""
    if isinstance(schema, list):
        return [listed(item, tool) for item in schema]
    if not isinstance(schema, dict):
        return schema
    if HOME in schema and (schema[HOME][0] != tool or schema[HOME][3]):
        return _pointer(schema, tool)
    return {key: listed(value, tool) for key, value in schema.items() if key != HOME}


def homes(schema: Any, in_full: bool = False) -> set[str]:
    """The home tools ``schema`` points to (checked against the table at start-up); with ``in_full``, only the
    homes of the shapes it holds in full (not copies)."""
    if isinstance(schema, list):
        return set().union(*(homes(item, in_full) for item in schema)) if schema else set()
    if not isinstance(schema, dict):
        return set()
    found = {schema[HOME][0]} if HOME in schema and not (in_full and schema[HOME][3]) else set()
    return found.union(*(homes(value, in_full) for key, value in schema.items() if key != HOME))


def items_of(item: dict[str, Any]) -> dict[str, Any]:
    """``{items: [item, ...]}``: a whole list."""
    return obj({"items": array(item)}, ["items"])


def page_of(item: dict[str, Any]) -> dict[str, Any]:
    """``{items: [item, ...], nextCursor}``: one page of a list, the cursor absent on the last."""
    return obj({"items": array(item), "nextCursor": STRING}, ["items"])
