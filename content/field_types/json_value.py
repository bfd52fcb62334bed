"""Any JSON value, stored as it is; its strings are searchable."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from django.db import models

from content.field_types.base import FieldRules, FieldType, Filters, json_problem, stripped
from content.field_types.registry import register
from emdash import json_input


def strings(value: Any) -> Iterator[str]:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item.strip():
                yield item
        elif isinstance(item, list):
            stack.extend(reversed(item))
        elif isinstance(item, dict):
            stack.extend(reversed(list(item.values())))


@register
class JsonType(FieldType):
    name = "json"
    label = "Structured data (JSON)"
    help = "Free-form data for developers; editors see a JSON text box."
    example = {"width": 3, "tags": ["a", "b"]}
    in_summary = False
    multiline = True
    widget = "json"

    def column(self, **extra: Any) -> models.Field:
        return models.JSONField(null=True, **extra)

    def check(self, value: Any, rules: FieldRules) -> str | None:
        return json_problem(value)  # services can be called without a request parser in front

    def is_empty(self, value: Any) -> bool:
        return value is None  # "", [] and {} are values

    def filters(self, name: str, column: str, rules: FieldRules) -> Filters:
        return {}  # not filterable

    def search_text(self, value: Any) -> str:
        return "\n".join(strings(value))

    def json_schema(self, rules: FieldRules, options: dict[str, Any]) -> dict[str, Any]:
        return {"description": "Any JSON value"}

    def to_form(self, value: Any) -> Any:
        return "" if value is None else json.dumps(value, indent=2, ensure_ascii=False)

    def from_form(self, raw: str, previous: Any) -> Any:
        if (text := stripped(raw)) is None:
            return None
        try:
            return json_input.loads(text)
        except json_input.BadJSON as exc:
            raise ValueError(f"is not valid JSON ({exc.reason})") from None
