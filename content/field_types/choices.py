"""Values drawn from the field's list of options: one (select) or several (multiSelect)."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db import models

from content.field_types.base import FieldRules, FieldType, Filters, size_problem
from content.field_types.lookups import ChoiceInFilter, choices, has_any, one_of
from content.field_types.registry import register


@register
class SelectType(FieldType):
    name = "select"
    label = "Choice"
    help = "One value from a list you define."
    example = "red"
    validation_keys = frozenset({"options"})
    required_rules = ("options",)
    widget = "select"

    def column(self, **extra: Any) -> models.Field:
        return models.TextField(null=True, **extra)

    def check(self, value: Any, rules: FieldRules) -> str | None:
        if not isinstance(value, str):
            return "must be a string"
        return None if value in rules.options else f"must be one of: {', '.join(rules.options)}"

    def filters(self, name: str, column: str, rules: FieldRules) -> Filters:
        options = rules.options
        return {
            name: django_filters.ChoiceFilter(
                field_name=column, choices=choices(options), error_messages=one_of(options)
            ),
            f"{name}.in": ChoiceInFilter(
                field_name=column, lookup_expr="in", choices=choices(options), error_messages=one_of(options)
            ),
        }

    def search_text(self, value: Any) -> str:
        return value if isinstance(value, str) else ""

    def json_schema(self, rules: FieldRules, options: dict[str, Any]) -> dict[str, Any]:
        return {"type": "string", "enum": list(rules.options)}

    def from_form(self, raw: str, previous: Any) -> Any:
        return raw if raw != "" else None


@register
class MultiSelectType(FieldType):
    name = "multiSelect"
    label = "Multiple choice"
    help = "Any number of values from a list you define."
    example = ["red", "green"]
    validation_keys = frozenset({"options", "minLength", "maxLength"})
    required_rules = ("options",)
    widget = "checkboxes"

    def column(self, **extra: Any) -> models.Field:
        return models.JSONField(null=True, **extra)

    def check(self, value: Any, rules: FieldRules) -> str | None:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return "must be a list of strings"
        bad = [v for v in value if v not in rules.options]
        if bad:
            return f"{', '.join(map(repr, bad))} not allowed; choose from: {', '.join(rules.options)}"
        return None if len(set(value)) == len(value) else "must not repeat a value"

    def constraints(self, value: Any, rules: FieldRules) -> str | None:
        return size_problem(len(value), rules, "values")

    def filters(self, name: str, column: str, rules: FieldRules) -> Filters:
        options, method = rules.options, has_any(column)
        return {
            name: django_filters.ChoiceFilter(choices=choices(options), method=method, error_messages=one_of(options)),
            f"{name}.in": ChoiceInFilter(choices=choices(options), method=method, error_messages=one_of(options)),
        }

    def search_text(self, value: Any) -> str:
        return " ".join(v for v in value if isinstance(v, str)) if isinstance(value, list) else ""

    def json_schema(self, rules: FieldRules, options: dict[str, Any]) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "array", "items": {"type": "string", "enum": list(rules.options)}}
        schema["uniqueItems"] = True
        if rules.min_length is not None:
            schema["minItems"] = rules.min_length
        if rules.max_length is not None:
            schema["maxItems"] = rules.max_length
        return schema

    def to_form(self, value: Any) -> Any:
        return [] if value is None else value

    def from_form(self, raw: Any, previous: Any) -> Any:
        return raw or None  # the checkboxes widget posts the ticked values
