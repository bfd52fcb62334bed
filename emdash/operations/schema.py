"""Typed operation inputs: the base model, its portable JSON Schema, and error translation.

One pydantic model per operation validates the arguments at every door and is the source of the MCP
``inputSchema`` and the OpenAPI request body. Wire names are camelCase aliases of snake_case attributes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from types import UnionType
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    field_validator,
)
from pydantic import ValidationError as PydanticError
from pydantic.alias_generators import to_camel
from pydantic_core import PydanticCustomError

from emdash.numbers import DB_INT_MAX

NULL_MARK = "x-emdash-nullable"


class Nullable:
    """Metadata marker: this optional field accepts an explicit ``null`` (e.g. "detach the parent").

    It marks the field's JSON Schema too, so a nested model's nullable fields keep ``null`` in the schema."""

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: Any) -> Any:
        schema = handler(core_schema)
        schema[NULL_MARK] = True
        return schema


NULLABLE = Nullable()


def _whole_number(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    # SPEC 5.2: integer-valued numbers (3.0) are integers; some models only send doubles.
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    number = handler(value)
    # JSON allows 2**64 and a query string any length; no database integer holds them (SQLite cannot even bind
    # one), so every whole-number argument stops at the databases' range before it reaches a query.
    if isinstance(number, int) and number > DB_INT_MAX:
        raise PydanticCustomError("less_than_equal", "must be at most {le}", {"le": DB_INT_MAX})
    if isinstance(number, int) and number < -DB_INT_MAX:
        raise PydanticCustomError("greater_than_equal", "must be at least {ge}", {"ge": -DB_INT_MAX})
    return number


# The validator alone, for bounded integers inside ``X | None``: ``Annotated[int, Field(ge=1), WHOLE]`` keeps
# ``minimum``/``maximum`` in the schema (bounds given to the field of an optional WholeNumber come out as ``ge``).
WHOLE = WrapValidator(_whole_number)
WholeNumber = Annotated[int, WHOLE]


def _unbounded(schema: dict[str, Any]) -> None:
    schema.pop("minLength", None)
    schema.pop("maxLength", None)


def reference(description: str, max_length: int, min_length: int = 1) -> Any:
    """``Annotated[str, reference(...)]``: a string naming something that exists (a collection, an item, a term)
    or a token the server issued (a cursor, a _rev). Checked non-empty (or ``min_length``) and at most ``max_length``
    long, but
    published without the bounds, which no existing name or issued token breaks (they would only cost every
    tools/list reader bytes)."""
    return Field(description=description, min_length=min_length, max_length=max_length, json_schema_extra=_unbounded)


Cursor = Annotated[str, reference("nextCursor of the previous page", 2048)]


def limit(default: int, maximum: int, description: str = "Page size") -> Any:
    """The ``limit`` argument of a list: the schema's minimum, maximum and default say the rest."""
    return Field(default, ge=1, le=maximum, description=description)


class Input(BaseModel):
    """Base of every operation's input: strict JSON types, unknown keys refused, frozen once validated."""

    model_config = ConfigDict(
        extra="forbid", alias_generator=to_camel, strict=True, frozen=True, validate_by_name=False
    )

    @field_validator("*", mode="before")
    @classmethod
    def _no_null_unless_nullable(cls, value: Any, info: ValidationInfo) -> Any:
        # Optional fields are absent or set; null is only a value where the field says so.
        if value is None and info.field_name is not None:
            field = cls.model_fields[info.field_name]
            if not any(isinstance(m, Nullable) for m in field.metadata):
                raise PydanticCustomError("null_not_allowed", "must not be null")
        return value

    def given(self, name: str) -> bool:
        """Whether the caller sent this field (by attribute name), as opposed to it taking its default."""
        return name in self.model_fields_set


class NoInput(Input):
    """Operations without arguments."""


# --- JSON Schema ------------------------------------------------------------------------------------------


def _nullable_fields(model: type[Input]) -> set[str]:
    return {
        field.alias or name
        for name, field in model.model_fields.items()
        if any(isinstance(m, Nullable) for m in field.metadata)
    }


def _clean(node: Any, defs: dict[str, Any], keep_null: bool = False) -> Any:
    """Inline ``$ref``s, drop auto titles and ``default: null``, collapse ``anyOf [X, null]`` to X."""
    if isinstance(node, list):
        return [_clean(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target = defs[node["$ref"].rsplit("/", 1)[-1]]
        extra = {k: v for k, v in node.items() if k != "$ref"}
        return _clean({**target, **extra}, defs, keep_null)
    out: dict[str, Any] = {}
    keep_null = keep_null or bool(node.get(NULL_MARK))
    for key, value in node.items():
        if key in ("title", "$defs", NULL_MARK) or (key == "default" and value is None):
            continue
        if key == "additionalProperties" and value is True:  # the default: an open dict[str, Any]
            continue
        if key == "properties":
            out[key] = {name: _clean(sub, defs) for name, sub in value.items()}
        else:
            out[key] = _clean(value, defs)
    branches = out.get("anyOf")
    if isinstance(branches, list):
        rest = [b for b in branches if b != {"type": "null"}]
        if len(rest) == 1 and len(rest) < len(branches) and (not keep_null or isinstance(rest[0].get("type"), str)):
            del out["anyOf"]
            out = {**rest[0], **out}
            if keep_null:  # {"type": ["string", "null"], ...}: the compact form clients know best
                out["type"] = [rest[0]["type"], "null"]
    return out


@cache
def input_schema(model: type[Input]) -> dict[str, Any]:
    """The portable JSON Schema of ``model``: no ``$ref``/``$defs``, no auto titles, objects closed."""
    raw = model.model_json_schema(by_alias=True)
    defs = raw.get("$defs", {})
    schema: dict[str, Any] = _clean(raw, defs)
    nullable = _nullable_fields(model)
    for name in nullable:
        schema["properties"][name] = _clean(raw["properties"][name], defs, keep_null=True)
    schema.pop("description", None)  # the model's docstring is for developers; the operation has its own
    return schema


def check_portable(schema: Any, where: str) -> None:
    """Refuse schemas that MCP clients handle badly: references, or objects with named properties left open."""
    if isinstance(schema, list):
        for item in schema:
            check_portable(item, where)
        return
    if not isinstance(schema, dict):
        return
    if "$ref" in schema or "$defs" in schema:
        raise ValueError(f"{where}: schema must not use $ref/$defs")
    if "properties" in schema and schema.get("additionalProperties") is not False:
        raise ValueError(f"{where}: object schemas with properties must set additionalProperties false")
    for key, value in schema.items():
        if key == "properties":
            for sub in value.values():
                check_portable(sub, where)
        elif isinstance(value, dict | list):
            check_portable(value, where)


# --- errors -----------------------------------------------------------------------------------------------

_TYPES = {
    "int_type": "integer",
    "int_from_float": "integer",
    "int_parsing": "integer",
    "string_type": "string",
    "bool_type": "boolean",
    "bool_parsing": "boolean",
    "dict_type": "object",
    "list_type": "array",
    "float_type": "number",
    "model_type": "object",
    "model_attributes_type": "object",
}


def _members(annotation: Any) -> list[Any]:
    """The types an annotation allows: unions opened, ``Annotated`` metadata dropped."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _members(get_args(annotation)[0])
    if origin is Union or origin is UnionType:
        return [member for arg in get_args(annotation) for member in _members(arg)]
    return [annotation]


def _model_at(model: type[BaseModel], loc: Any) -> type[BaseModel] | None:
    """The nested model an error path points into: ``("filter", "autor")`` -> the filter's model,
    ``("items", 0, "bogus")`` -> the model of one of ``items``' entries (list indexes and map keys step into
    the container's values)."""
    current: Any = model
    for part in loc:
        members = _members(current)
        found = next((m for m in members if isinstance(m, type) and issubclass(m, BaseModel)), None)
        field = None
        if found is not None and isinstance(part, str):
            field = next((f for n, f in found.model_fields.items() if part in (n, f.alias)), None)
        if field is not None:
            current = field.annotation
            continue
        container = next((m for m in members if get_origin(m) in _CONTAINERS), None)
        if container is None or not get_args(container):
            return None
        current = get_args(container)[-1]  # list[X] -> X, dict[str, X] -> X
    return next((m for m in _members(current) if isinstance(m, type) and issubclass(m, BaseModel)), None)


_CONTAINERS = (list, tuple, set, frozenset, dict, Sequence, Mapping)


def _item_path(loc: Any) -> str:
    """``("items", 0)`` -> ``items[0]``: where a nested unknown key sits, as a reader writes it."""
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _message(error: Any, model: type[Input], fixed: frozenset[str], noun: str) -> str:
    kind, ctx = error["type"], error.get("ctx") or {}
    if kind in _TYPES:
        return f"must be of type {_TYPES[kind]}"
    if kind == "missing":
        return "is required"
    if kind == "extra_forbidden":
        parent = error["loc"][:-1]
        where = _model_at(model, parent) if parent else model
        if where is None:  # an open map's key refused by a rule of its own: no list of keys to offer
            return "unknown key"
        names = (f.alias or n for n, f in where.model_fields.items())
        if parent:  # a key inside a nested object or an array item: that object's keys, not the top level's
            accepted = ", ".join(names) or "none"
            return f"unknown key in {_item_path(parent)} (accepted: {accepted})"
        accepted = ", ".join(name for name in names if name not in fixed) or "none"
        return f"unknown {noun} (accepted: {accepted})"
    if kind in ("literal_error", "enum"):
        return "must be one of: " + ctx.get("expected", "").replace("'", "").replace(" or ", ", ")
    if kind in ("greater_than_equal", "less_than_equal"):
        bound = ctx.get("ge", ctx.get("le"))
        return f"must be {'at least' if kind == 'greater_than_equal' else 'at most'} {bound}"
    if kind in ("string_too_short", "string_too_long"):
        limit = ctx.get("min_length", ctx.get("max_length"))
        return f"must have {'at least' if kind == 'string_too_short' else 'at most'} {limit} characters"
    if kind in ("too_short", "too_long"):
        limit = ctx.get("min_length", ctx.get("max_length"))
        return f"must have {'at least' if kind == 'too_short' else 'at most'} {limit} entries"
    if kind == "string_pattern_mismatch":
        return f"must match {ctx.get('pattern')}"
    return str(error.get("msg", "is not valid"))[:200]


def problems(
    exc: PydanticError, model: type[Input], fixed: frozenset[str] = frozenset(), noun: str = "argument"
) -> dict[str, str]:
    """Every problem, keyed by the dotted path of the argument (wire names), first one per path.

    ``fixed`` names the fields the door fills itself (REST path parameters): not offered as accepted keys.
    """
    errors = exc.errors(include_url=False)
    # A value matching no branch of a union (``str | int``): pydantic reports each branch under a tag of its own
    # ("by.user.constrained-str", "by.user.int"); a reader needs one line naming the argument. Only where two or
    # more branches failed at one place, so a field that happens to be called "int" keeps its own path.
    tagged: dict[tuple[Any, ...], list[str]] = {}
    for error in errors:
        loc = error["loc"]
        if error["type"] in _TYPES and loc and loc[-1] in _UNION_TAGS:
            tagged.setdefault(tuple(loc[:-1]), []).append(_TYPES[error["type"]])
    unions = {parent: kinds for parent, kinds in tagged.items() if len(kinds) > 1}
    found: dict[str, str] = {}
    for error in errors:
        loc = tuple(error["loc"])
        if loc[:-1] in unions and loc and loc[-1] in _UNION_TAGS:
            kinds = unions[loc[:-1]]
            message = "must be of type " + " or ".join(dict.fromkeys(kinds))
            found.setdefault(".".join(str(part) for part in loc[:-1]) or "arguments", message)
            continue
        path = ".".join(str(part) for part in loc) or "arguments"
        found.setdefault(path, _message(error, model, fixed, noun))
    return dict(sorted(found.items()))


# The tags pydantic puts at the end of an error's path for the branches of a union of plain types.
_UNION_TAGS = frozenset({"str", "int", "float", "bool", "constrained-str", "constrained-int", "constrained-float"})
