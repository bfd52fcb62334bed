"""A link to one item of a target collection (``options.collection``), by id."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db import models

from content.field_types.base import FieldRules, FieldType, Filters
from content.field_types.registry import register

ID_LENGTH = 26  # a ULID


@register
class ReferenceType(FieldType):
    name = "reference"
    label = "Link to another item"
    help = "One item of a collection you choose: a related post, an author page."
    example = "01JD0000000000000000000000"
    option_keys = frozenset({"collection", "rows"})
    widget = "entry_picker"

    def column(self, **extra: Any) -> models.Field:
        return models.CharField(null=True, max_length=ID_LENGTH, **extra)

    def check(self, value: Any, rules: FieldRules) -> str | None:
        return None if isinstance(value, str) and value else "must be the id of an entry"

    def normalize(self, value: Any) -> Any:
        return value.upper() if len(value) == ID_LENGTH else value  # ids are case-insensitive

    def entry_links(self, value: Any, options: dict[str, Any]) -> list[tuple[str, str, str]]:
        return [("", str(options.get("collection")), value)]

    def drop_entries(self, value: Any, ids: set[str]) -> Any:
        return None if isinstance(value, str) and value.upper() in ids else value

    def filters(self, name: str, column: str, rules: FieldRules) -> Filters:
        return {name: django_filters.CharFilter(field_name=column, max_length=ID_LENGTH)}

    def search_text(self, value: Any) -> str:
        return ""  # an id: no words to find

    def json_schema(self, rules: FieldRules, options: dict[str, Any]) -> dict[str, Any]:
        target = options.get("collection")
        return {"type": "string", "minLength": 1, "description": f"Id of an item of '{target}'"}

    def from_form(self, raw: str, previous: Any) -> Any:
        return raw if raw != "" else None
