"""Output schemas generated from the ``TypedDict`` a presenter returns, so an output's shape is written once.

The schemas come out exactly as ``shapes`` spells them by hand (key order, ``required`` in declaration order,
``{"type": ["string", "null"]}`` for ``str | None``, a description right after ``type``), because tools/list
is compared byte for byte and budgeted; pydantic's own JSON Schema spells several of these differently
(``anyOf`` for nullables, titles, ``$defs``).

Metadata in ``Annotated[...]`` says what a type cannot: ``Field(description=...)``; ``Shared``/``Copied``
(the ``shapes.shared``/``shapes.copy`` markers); ``Schema`` (a shape written out, for values that are open
by design, such as an item's field values).
"""

from __future__ import annotations

import types
from dataclasses import dataclass
from typing import Any, Literal, NotRequired, Required, Union, get_args, get_origin, get_type_hints, is_typeddict

from pydantic.fields import FieldInfo

from emdash.operations.shapes import array, copy, obj, shared

_SCALARS: dict[Any, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}


@dataclass(frozen=True)
class Shared:
    """Listed in full only by tool ``home`` at ``where`` (``shapes.shared``)."""

    home: str
    where: str = "result"
    note: str = ""


@dataclass(frozen=True)
class Copied:
    """Another use of the shape ``home`` lists at ``where``, shown as ``description`` (``shapes.copy``)."""

    home: str
    where: str
    description: str


@dataclass(frozen=True)
class Schema:
    """The property's schema as written (replaces what the type would give)."""

    schema: dict[str, Any]


def schema_of(shape: type, description: str = "") -> dict[str, Any]:
    """The object schema of TypedDict ``shape``: its keys in order, the ``Required`` ones listed."""
    if not is_typeddict(shape):
        raise TypeError(f"{shape!r} is not a TypedDict")
    hints = get_type_hints(shape, include_extras=True)
    unmarked: frozenset[str] = shape.__required_keys__  # type: ignore[attr-defined]
    required = []
    for key, hint in hints.items():
        # Read from the hints: on Python 3.11 __required_keys__ misses Required[...] under postponed annotations.
        marked = _unwrap(hint)[2]
        if marked or (marked is None and key in unmarked):
            required.append(key)
    return obj({key: _property(hint) for key, hint in hints.items()}, required, description)


def _unwrap(hint: Any) -> tuple[Any, tuple[Any, ...], bool | None]:
    """The type under ``Annotated``/``Required``/``NotRequired`` (nested either way), the ``Annotated``
    metadata, and whether it is marked ``Required`` (True), ``NotRequired`` (False) or neither (None)."""
    metadata: tuple[Any, ...] = ()
    required = None
    while True:
        if hasattr(hint, "__metadata__"):
            metadata, hint = metadata + hint.__metadata__, hint.__origin__
        elif get_origin(hint) in (Required, NotRequired):
            required, hint = get_origin(hint) is Required, get_args(hint)[0]
        else:
            return hint, metadata, required


def _property(hint: Any) -> dict[str, Any]:
    hint, metadata, _ = _unwrap(hint)
    given = next((item.schema for item in metadata if isinstance(item, Schema)), None)
    schema = dict(given) if given is not None else _of(hint)
    for item in metadata:
        if isinstance(item, FieldInfo) and item.description:
            schema = _described(schema, item.description)
        elif isinstance(item, Shared):
            schema = shared(schema, item.home, item.where, item.note)
        elif isinstance(item, Copied):
            schema = copy(_described(schema, item.description), item.home, item.where, item.description)
    return schema


def _described(schema: dict[str, Any], description: str) -> dict[str, Any]:
    """``schema`` with ``description`` right after ``type``, where ``shapes.obj`` puts it."""
    rest = {key: value for key, value in schema.items() if key not in ("type", "description")}
    return {"type": schema["type"], "description": description, **rest}


def _of(hint: Any) -> dict[str, Any]:
    """The schema of a bare type (no metadata)."""
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        kinds = [arg for arg in get_args(hint) if arg is not type(None)]
        if len(kinds) != 1 or len(kinds) == len(get_args(hint)):
            raise TypeError(f"only `T | None` unions are supported, not {hint!r}")
        schema = _property(kinds[0])
        return {**schema, "type": [schema["type"], "null"]}  # in place: "type" keeps its position
    if origin is Literal:
        values = list(get_args(hint))
        return {"type": _SCALARS[type(values[0])], "enum": values}
    if origin is list:
        return array(_property(get_args(hint)[0]))
    if origin is dict:
        value = get_args(hint)[1]
        return {"type": "object", "additionalProperties": True if value is Any else _property(value)}
    if is_typeddict(hint):
        return schema_of(hint)
    if hint in _SCALARS:
        return {"type": _SCALARS[hint]}
    raise TypeError(f"no JSON Schema for {hint!r}")
