"""The OpenAPI document has no untyped body (issue 11): every request body and every 2xx response, and every
value nested in them, says what it holds, so a generated client gets real types.

Typed means: an object with ``properties`` (or an ``additionalProperties`` schema), an array whose items are
typed, a scalar type, an enum, or a union of typed schemas. Two shapes are free-form on purpose and must say so
in a ``description``: an item's field values (a map whose keys are the collection's fields:
``additionalProperties: true``) and a field's default (any JSON value, no ``type``).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

METHODS = ("get", "post", "put", "patch", "delete")


def _free_form(schema: dict[str, Any]) -> bool:
    """Declared free-form: documented, and either any value or a map of any values."""
    documented = bool(schema.get("description"))
    any_value = "type" not in schema and not schema.keys() - {"description", "title"}
    kind = schema.get("type")
    is_object = kind == "object" or (isinstance(kind, list) and "object" in kind)
    # additionalProperties defaults to true: the tool schemas leave the default out to stay small.
    open_map = is_object and schema.get("additionalProperties", True) is True
    # One type per schema (SPEC 10): a nullable free-form map is anyOf [an open object, null] under the description.
    branches = schema.get("anyOf") or []
    open_or_null = branches and all(
        b in ({"type": "object"}, {"type": "object", "additionalProperties": True}, {"type": "null"}) for b in branches
    )
    return documented and (any_value or (open_map and not schema.get("properties")) or bool(open_or_null))


def _problems(schema: Any, at: str) -> list[str]:
    """Where ``schema`` (or a schema nested in it) is untyped."""
    if not isinstance(schema, dict) or not schema:
        return [f"{at}: empty schema"]
    if "$ref" in schema or _free_form(schema):
        return []
    found: list[str] = []
    for key in ("oneOf", "anyOf", "allOf"):
        for i, option in enumerate(schema.get(key, [])):
            found += _problems(option, f"{at}|{key}[{i}]")
    if any(key in schema for key in ("oneOf", "anyOf", "allOf", "enum", "const")):
        return found
    kind = schema.get("type")
    kinds = set(kind) if isinstance(kind, list) else {kind}
    if kind is None:
        return [f"{at}: no type"]
    if "object" in kinds:
        extra = schema.get("additionalProperties")
        if not schema.get("properties") and not (isinstance(extra, dict) and extra):
            found.append(f"{at}: an object with no properties")
        for name, sub in (schema.get("properties") or {}).items():
            found += _problems(sub, f"{at}.{name}")
        if isinstance(extra, dict) and extra:
            found += _problems(extra, f"{at}{{}}")
    if "array" in kinds:
        found += _problems(schema.get("items"), f"{at}[]")
    return found


def _bodies(document: dict[str, Any]) -> list[tuple[str, Any]]:
    """(where, schema) for every request body and 2xx response of every operation."""
    bodies: list[tuple[str, Any]] = []
    for path, item in document["paths"].items():
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            for media_type, content in (operation.get("requestBody") or {}).get("content", {}).items():
                bodies.append((f"{method.upper()} {path} request {media_type}", content.get("schema")))
            for status, response in operation["responses"].items():
                if status.startswith("2"):
                    for media_type, content in (response.get("content") or {}).items():
                        bodies.append((f"{method.upper()} {path} {status} {media_type}", content.get("schema")))
    return bodies


@pytest.fixture(scope="module")
def document(django_db_blocker: Any) -> dict[str, Any]:
    with django_db_blocker.unblock():
        response = Client().get("/_emdash/api/openapi.json")
    assert response.status_code == 200
    return response.json()


def test_every_request_body_and_success_response_is_typed(document: dict[str, Any]) -> None:
    bodies = _bodies(document)
    assert len(bodies) > 50  # every route's success response, and the bodies of the writes
    problems = [problem for where, schema in bodies for problem in _problems(schema, where)]
    assert not problems, "untyped schemas in the OpenAPI document:\n" + "\n".join(problems)


def test_every_success_response_has_a_body_or_is_204(document: dict[str, Any]) -> None:
    missing = [
        f"{method.upper()} {path} {status}"
        for path, item in document["paths"].items()
        for method in METHODS
        if method in item
        for status, response in item[method]["responses"].items()
        if status.startswith("2") and status != "204" and not response.get("content")
    ]
    assert not missing


@pytest.mark.parametrize(
    "schema",
    [
        {},
        {"type": "object"},
        {"type": "object", "additionalProperties": {}},
        {"type": "object", "additionalProperties": True},  # open map without saying what it holds
        {"type": "object", "properties": {"item": {"type": "object"}}},
        {"type": "array", "items": {}},
        {"type": "object", "properties": {"items": {"type": "array", "items": {"type": ["object", "null"]}}}},
        {"anyOf": [{"type": "string"}, {"type": "object"}]},
        {"description": "no type and no reason to be free-form", "format": "date"},
    ],
)
def test_the_check_finds_untyped_schemas(schema: dict[str, Any]) -> None:
    assert _problems(schema, "probe")


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "properties": {"url": {"type": "string"}}},
        {"type": "object", "additionalProperties": {"type": "string"}},
        {"type": "object", "additionalProperties": True, "description": "Field values keyed by field slug"},
        {"type": "object", "description": "Field values keyed by field slug"},  # additionalProperties defaults to true
        {"type": ["object", "null"], "additionalProperties": True, "description": "The published values, or null"},
        {"description": "Any JSON value: the field's type decides"},
        {"type": ["string", "null"]},
        {"type": "string", "enum": ["a", "b"]},
    ],
)
def test_the_check_accepts_typed_and_declared_free_form_schemas(schema: dict[str, Any]) -> None:
    assert not _problems(schema, "probe")


def test_an_operation_with_a_rest_route_must_declare_its_output_schema() -> None:
    from emdash.operations import Input, Route
    from emdash.operations.record import Operation, _check
    from emdash.permissions import Perm

    def record(output_schema: dict[str, Any] | None) -> Operation:
        return Operation(
            name="probe_untyped",
            title="Probe",
            description="A record that is never declared.",
            category="content",
            perm=Perm.CONTENT_READ,
            input=Input,
            service=lambda **kwargs: None,
            present=lambda result, args: {},
            output_schema=output_schema,
            routes=(Route("GET", "_emdash/api/probe", args="query"),),
        )

    with pytest.raises(ValueError, match="needs an output schema"):
        _check(record(None))
    _check(record({"type": "object", "properties": {"ok": {"type": "boolean"}}}))


def _query_parameters(document: dict[str, Any]) -> dict[tuple[str, str, str], dict[str, Any]]:
    return {
        (method.upper(), path, parameter["name"]): parameter
        for path, item in document["paths"].items()
        for method in METHODS
        if method in item
        for parameter in item[method].get("parameters", [])
        if parameter["in"] == "query"
    }


def test_query_parameters_carry_the_operations_types(document: dict[str, Any]) -> None:
    """Booleans, integers (with their bounds and defaults), enums and lists are what the operation accepts, not
    strings: a generated client sends ``markdown=true`` from a bool and ``fields`` from a list."""
    found = _query_parameters(document)
    content, item = "/_emdash/api/content/{collection}", "/_emdash/api/content/{collection}/{id}"
    assert found[("GET", content, "markdown")]["schema"] == {"type": "boolean"}
    assert found[("GET", item, "markdown")]["schema"] == {"type": "boolean"}
    assert found[("GET", "/_emdash/api/bylines", "isGuest")]["schema"] == {"type": "boolean"}
    assert found[("DELETE", "/_emdash/api/media/{id}", "force")]["schema"] == {"type": "boolean", "default": False}
    assert found[("GET", content, "limit")]["schema"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 100,
        "default": 50,
    }
    fields = found[("GET", content, "fields")]
    assert fields["schema"]["type"] == "array" and fields["schema"]["items"]["type"] == "string", fields
    collections = found[("GET", "/_emdash/api/search", "collections")]  # a hand-written route: comma-separated
    assert collections["schema"] == {"type": "array", "items": {"type": "string"}}, collections
    assert (collections["style"], collections["explode"]) == ("form", False), collections
    assert found[("GET", "/_emdash/api/search", "limit")]["schema"] == {"type": "integer", "minimum": 1, "maximum": 50}
    assert found[("GET", "/_emdash/api/media", "mimeType")]["schema"] == {"type": "string", "maxLength": 100}
    assert found[("GET", content, "status")]["schema"]["enum"] == ["draft", "published", "scheduled"]


def test_no_query_parameter_is_a_string_the_operation_does_not_take_as_one(document: dict[str, Any]) -> None:
    from emdash.operations import TABLE, load

    load()
    by_id = {op.name: op for op in TABLE.values()}
    wrong = []
    for (method, path, name), parameter in _query_parameters(document).items():
        # Every operation taking a parameter of this name (names mean the same thing across operations).
        candidates = [op for op in by_id.values() if name in op.schema["properties"]]
        kinds = {str(op.schema["properties"][name].get("type")) for op in candidates}
        if not candidates or "string" in kinds or "None" in kinds:
            continue
        if parameter["schema"].get("type") == "string":
            wrong.append(f"{method} {path} {name}: string, the operation says {kinds}")
    assert not wrong, wrong
