"""Field types are classes: every registered type has every part, and a new type is one class.

The toy ``hexColor`` type below is registered by a fixture (and removed afterwards) and then used end to end
through the ordinary services and the MCP door without touching any other file: that is the proof that
adding a type is one class.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Any

import django_filters
import jsonschema
import orjson
import pytest
from django.db import models
from django.test import Client

from accounts.tokens import token_create
from content.entries import services
from content.field_types import FIELD_TYPES, PARTS, FieldRules, FieldType, register, unregister
from content.field_types.base import Filters
from content.field_types.lookups import ChoiceInFilter, choices
from content.schema import services as schema_services
from content.schema import specs as schema
from tests.factories import SYSTEM, make_collection, make_user

ROOT = Path(__file__).resolve().parents[2]
TYPES = sorted(FIELD_TYPES)


def _rules(kind: FieldType) -> FieldRules:
    options = tuple(kind.example) if isinstance(kind.example, list) and kind.takes_choices else ()
    return FieldRules(options=options or ((kind.example,) if kind.takes_choices else ()))


@pytest.mark.parametrize("name", TYPES)
def test_every_registered_type_has_every_part(db: None, name: str) -> None:
    """No part is missing or left abstract; each callable part works on the type's example value."""
    kind = FIELD_TYPES[name]
    assert kind.name == name
    missing = [part for part in PARTS if not hasattr(kind, part)]
    assert not missing, f"{name} lacks {missing}"
    abstract = [part for part in PARTS if getattr(getattr(type(kind), part), "__isabstractmethod__", False)]
    assert not abstract, f"{name} leaves {abstract} abstract"
    assert kind.label and kind.help and "\n" not in kind.help
    rules, options = _rules(kind), {"collection": "posts"}
    value = kind.example
    assert kind.check(value, rules) is None and kind.constraints(value, rules) is None
    assert kind.from_db(kind.to_db(kind.normalize(value))) == kind.normalize(value)
    assert isinstance(kind.column(db_column="x", unique=False), models.Field)
    assert all(isinstance(f, django_filters.Filter) for f in kind.filters("fields.x", "f_x", rules).values())
    assert isinstance(kind.search_text(value), str) and isinstance(kind.display(value), str)
    assert kind.widget and isinstance(kind.input_type, str) and isinstance(kind.to_form(None), str | list)
    fragment = kind.json_schema(rules, options)
    jsonschema.Draft202012Validator.check_schema(fragment)
    jsonschema.validate(value, fragment)
    assert kind.prepare(value, "data.x", problems := {}) is not None and not problems
    assert isinstance(kind.entry_links(value, options), list) and isinstance(kind.media_links(value), list)
    assert kind.to_markdown(value, {}) is not None and isinstance(kind.markdown_media(value), list)


@pytest.mark.parametrize("name", TYPES)
def test_a_value_the_type_refuses_is_refused_by_its_json_schema_too(name: str) -> None:
    """The JSON Schema fragment and the check agree on values of the wrong JSON type."""
    kind = FIELD_TYPES[name]
    if name == "json":
        pytest.skip("json takes any JSON value")
    wrong = 12345 if isinstance(kind.example, str | list | dict | bool) else "not this"
    assert kind.check(wrong, _rules(kind)) is not None
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(wrong, kind.json_schema(_rules(kind), {"collection": "posts"}))


# Branches on a field-type name outside the field-types package: comparisons and membership tests of a type
# against a quoted type name, literal collections of two type names, queries and calls naming one. Portable
# Text block types (markdown.py, portable_text.py), JSON Schema "type" keys and widget kinds are not field types.
_NAMES = "string|text|number|integer|boolean|datetime|select|multiSelect|portableText|image|file|reference|json|slug"
_Q = "[\"']"
BRANCH = re.compile(
    rf"(\.type|\bkind|\btype) *(==|!=|in|not in) *[({{[]?{_Q}({_NAMES}){_Q}"
    rf"|{_Q}({_NAMES}){_Q} *[,:] *{_Q}({_NAMES}){_Q}"
    rf"|\.filter\(.*\btype={_Q}({_NAMES}){_Q}"
    rf"|display\(.*, *{_Q}({_NAMES}){_Q}\)"
)
NOT_FIELD_TYPES = re.compile(r"\"type\": |\bw\.kind|\"slug\": \"slug\"")
SCANNED = ("content", "admin_ui", "api", "public_site", "mcp_endpoint", "media", "menus", "taxonomy", "settings_app")


def _branches() -> list[str]:
    found = []
    files = [p for d in SCANNED for p in (ROOT / d).rglob("*") if p.suffix in {".py", ".html", ".js"}]
    files += [p for p in (ROOT / "templates").rglob("*.html")]
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        if (
            rel.startswith("content/field_types/")
            or "/migrations/" in rel
            or "editor" in rel
            or path.name in {"portable_text.py", "markdown.py"}
        ):
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if BRANCH.search(line) and not NOT_FIELD_TYPES.search(line):
                found.append(f"{rel}:{number}: {line.strip()}")
    return found


def test_nothing_outside_the_field_types_package_branches_on_a_type_name() -> None:
    """Ask the type object instead (``field.kind``): a new type then needs no edit elsewhere."""
    assert _branches() == []


# The toy type: one class, registered by a fixture -------------------------------------------------------------


class HexColorType(FieldType):
    name = "hexColor"
    label = "Colour"
    help = "A colour as #rrggbb."
    example = "#1a2b3c"
    validation_keys = frozenset({"options"})

    def column(self, **extra: Any) -> models.Field:
        return models.CharField(null=True, max_length=7, **extra)

    def check(self, value: Any, rules: FieldRules) -> str | None:
        ok = isinstance(value, str) and re.fullmatch(r"#[0-9a-fA-F]{6}", value)
        return None if ok else "must be a colour like #1a2b3c"

    def normalize(self, value: Any) -> Any:
        return value.lower()

    def filters(self, name: str, column: str, rules: FieldRules) -> Filters:
        return {
            name: django_filters.CharFilter(field_name=column, max_length=7),
            f"{name}.in": ChoiceInFilter(field_name=column, lookup_expr="in", choices=choices(["#1a2b3c", "#ffffff"])),
        }

    def search_text(self, value: Any) -> str:
        return value

    def json_schema(self, rules: FieldRules, options: dict[str, Any]) -> dict[str, Any]:
        return {"type": "string", "pattern": "^#[0-9a-fA-F]{6}$"}


@pytest.fixture
def hex_color() -> Any:
    register(HexColorType)
    yield FIELD_TYPES["hexColor"]
    unregister("hexColor")
    schema.invalidate()  # specs of the test's collections hold the type


def test_a_new_type_is_one_class_usable_end_to_end(cms, hex_color) -> None:
    make_collection("swatches", fields=[{"slug": "title", "label": "Title", "type": "string"}])
    schema_services.field_create(actor=SYSTEM, collection="swatches", slug="shade", label="Shade", type="hexColor")
    spec = schema.get_collection("swatches")
    assert spec.get_field("shade").kind is hex_color  # its column exists: the write below stores into it

    user = make_user("admin")
    client = Client()
    token = token_create(user=user, name="t", scopes="admin").raw

    def call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
        response = client.post(
            "/_emdash/api/mcp", orjson.dumps(body), content_type="application/json",
            headers={"Authorization": f"Bearer {token}", "MCP-Protocol-Version": "2025-06-18"},
        )  # fmt: skip
        return response.json()["result"]

    created = call("content_create", {"collection": "swatches", "data": {"title": "Sea", "shade": "#1A2B3C"}})
    assert created["isError"] is False, created
    item = created["structuredContent"]["item"]
    assert item["data"]["shade"] == "#1a2b3c"  # normalized by the type
    assert (
        call("content_get", {"collection": "swatches", "id": item["id"]})["structuredContent"]["item"]["data"]["shade"]
        == "#1a2b3c"
    )
    bad = call("content_create", {"collection": "swatches", "data": {"title": "X", "shade": "blue"}})
    assert bad["isError"] is True and bad["_meta"]["details"]["fields"] == {
        "data.shade": "must be a colour like #1a2b3c"
    }

    found = call("content_list", {"collection": "swatches", "filter": {"fields": {"shade": {"in": ["#1a2b3c"]}}}})
    assert [i["id"] for i in found["structuredContent"]["items"]] == [item["id"]]
    refused = call("content_list", {"collection": "swatches", "filter": {"fields": {"shade": {"gte": "#000000"}}}})
    assert "unknown operator 'gte' for a hexColor field" in refused["content"][0]["text"]

    fragment = spec.get_field("shade").kind.json_schema(spec.get_field("shade").rules, {})
    jsonschema.validate(item["data"]["shade"], fragment)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate("blue", fragment)
    row = spec.model.objects.get(id=item["id"])
    assert row.f_shade == "#1a2b3c"
    services.entry_update(actor=SYSTEM, collection="swatches", id=item["id"], data={"shade": ""})
    assert spec.model.objects.get(id=item["id"]).f_shade is None  # empty is "no value", as for every type


def test_the_toy_type_has_every_part(hex_color) -> None:
    """Defaults from the base are working parts (identity storage, a text input), none of them abstract."""
    assert not inspect.isabstract(type(hex_color))
    assert all(hasattr(hex_color, part) for part in PARTS)
    assert hex_color.to_form(None) == "" and hex_color.from_form(" #ABCDEF ", None) == "#ABCDEF"
