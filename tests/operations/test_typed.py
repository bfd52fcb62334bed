"""The output schema generator (emdash/operations/typed.py) spells a TypedDict as shapes.obj() would."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, NotRequired, Required, TypedDict

import pytest
from pydantic import Field

from emdash.operations.shapes import NULLABLE_STRING, STRING, array, copy, listed, obj, shared
from emdash.operations.typed import Copied, Schema, Shared, schema_of


class Point(TypedDict):
    x: int
    y: Annotated[float, Field(description="Up")]


class Shape(TypedDict, total=False):
    name: Required[str]
    kind: Required[Literal["a", "b"]]
    note: str | None
    where: Annotated[Point | None, Field(description="Where it is")]
    points: list[Point]
    tags: Annotated[dict[str, list[str]], Field(description="By group")]
    extra: Annotated[dict[str, Any], Schema({"type": "object", "additionalProperties": True, "description": "Open"})]
    home: Annotated[Point, Shared("shape_get", "item.home")]
    other: Annotated[Point, Copied("shape_get", "item.home", "Another point")]


class Mixed(TypedDict):
    first: str
    second: NotRequired[str]


def dumped(schema: Any) -> str:
    return json.dumps(schema)  # key order matters: tools/list is compared byte for byte


def test_every_rule_matches_the_hand_written_spelling():
    point = obj({"x": {"type": "integer"}, "y": {"type": "number", "description": "Up"}}, ["x", "y"])
    expected = obj(
        {
            "name": STRING,
            "kind": {"type": "string", "enum": ["a", "b"]},
            "note": NULLABLE_STRING,
            "where": {**point, "type": ["object", "null"], "description": "Where it is"},
            "points": array(point),
            "tags": {"type": "object", "description": "By group", "additionalProperties": array(STRING)},
            "extra": {"type": "object", "additionalProperties": True, "description": "Open"},
            "home": shared(point, "shape_get", "item.home"),
            # A description always sits right after "type", as obj() puts it.
            "other": copy(obj(point["properties"], ["x", "y"], "?"), "shape_get", "item.home", "Another point"),
        },
        ["name", "kind"],
        "A shape",
    )
    expected["properties"]["where"] = {
        "type": ["object", "null"],
        "description": "Where it is",
        "properties": point["properties"],
        "required": ["x", "y"],
    }
    assert dumped(schema_of(Shape, "A shape")) == dumped(expected)
    assert dumped(schema_of(Mixed)) == dumped(obj({"first": STRING, "second": STRING}, ["first"]))


def test_shared_and_copied_shapes_list_as_pointers_elsewhere():
    listed_shape = listed(schema_of(Shape), "shape_list")
    assert listed_shape["properties"]["home"] == {"type": "object", "description": "Shape of shape_get's item.home"}
    assert listed_shape["properties"]["other"]["description"] == "Another point (shape of shape_get's item.home)"


class Unsupported(TypedDict):
    either: str | int


def test_what_cannot_be_spelled_is_refused_at_import_time():
    with pytest.raises(TypeError, match="only `T"):
        schema_of(Unsupported)
    with pytest.raises(TypeError, match="not a TypedDict"):
        schema_of(dict)
