"""True or false: a checkbox in the admin, filtered by ``true``/``false``."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db import models

from content.field_types.base import FieldRules, FieldType, Filters
from content.field_types.lookups import one_of
from content.field_types.registry import register


@register
class BooleanType(FieldType):
    name = "boolean"
    label = "Yes / no"
    help = "A checkbox: featured, sticky, hidden."
    example = True
    widget = "checkbox"

    def column(self, **extra: Any) -> models.Field:
        return models.BooleanField(null=True, **extra)

    def check(self, value: Any, rules: FieldRules) -> str | None:
        return None if isinstance(value, bool) else "must be true or false"

    def filters(self, name: str, column: str, rules: FieldRules) -> Filters:
        flag = django_filters.TypedChoiceFilter(
            field_name=column,
            choices=[("true", "true"), ("false", "false")],
            coerce=lambda v: v == "true",
            error_messages=one_of(["true", "false"]),
        )
        return {name: flag}

    def search_text(self, value: Any) -> str:
        return ""  # no words to find

    def json_schema(self, rules: FieldRules, options: dict[str, Any]) -> dict[str, Any]:
        return {"type": "boolean"}

    def from_form(self, raw: Any, previous: Any) -> Any:
        return bool(raw)  # the checkbox widget posts whether it was ticked
