"""Numbers: any finite number, and whole numbers that fit in 64 bits; both take a min/max range."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db import models

from content.field_types.base import INT64_MAX, INT64_MIN, FieldRules, FieldType, Filters, is_number, stripped
from content.field_types.lookups import NUMBER_OPS, FloatFilter, IntegerFilter
from content.field_types.registry import register

RANGE_RULES = frozenset({"min", "max"})


class Numeric(FieldType):
    validation_keys = RANGE_RULES
    input_type = "number"
    filter_class: type[django_filters.NumberFilter] = FloatFilter
    filter_limits: dict[str, Any] = {"error_messages": {"invalid": "must be a number"}}

    def constraints(self, value: Any, rules: FieldRules) -> str | None:
        if rules.min is not None and value < rules.min:
            return f"must be at least {rules.min:g}"
        if rules.max is not None and value > rules.max:
            return f"must be at most {rules.max:g}"
        return None

    def filters(self, name: str, column: str, rules: FieldRules) -> Filters:
        make = self.filter_class
        return {
            f"{name}{op}": make(field_name=column, lookup_expr=lookup, **self.filter_limits)
            for op, lookup in NUMBER_OPS
        }

    def search_text(self, value: Any) -> str:
        return str(value)

    def _range(self, schema: dict[str, Any], rules: FieldRules) -> dict[str, Any]:
        if rules.min is not None:
            schema["minimum"] = rules.min
        if rules.max is not None:
            schema["maximum"] = rules.max
        return schema


@register
class NumberType(Numeric):
    name = "number"
    label = "Number"
    help = "Any number, decimals allowed: a price, a rating."
    example = 9.5
    input_step = "any"

    def column(self, **extra: Any) -> models.Field:
        return models.FloatField(null=True, **extra)

    def check(self, value: Any, rules: FieldRules) -> str | None:
        return None if is_number(value) else "must be a finite number"

    def json_schema(self, rules: FieldRules, options: dict[str, Any]) -> dict[str, Any]:
        return self._range({"type": "number"}, rules)

    def to_form(self, value: Any) -> Any:
        if value is None:
            return ""
        return str(int(value)) if isinstance(value, float) and value.is_integer() else value

    def from_form(self, raw: str, previous: Any) -> Any:
        if (text := stripped(raw)) is None:
            return None
        try:
            number = float(text)
        except ValueError:
            raise ValueError("must be a number") from None
        # "3" stays an integer in the stored JSON; "3.0" and numbers beyond exact float range stay floats
        return int(number) if number.is_integer() and abs(number) < 2**53 and "." not in text else number


@register
class IntegerType(Numeric):
    name = "integer"
    label = "Whole number"
    help = "A count or a position, without decimals."
    example = 42
    input_step = "1"
    filter_class = IntegerFilter
    filter_limits = {
        "min_value": INT64_MIN,
        "max_value": INT64_MAX,
        "error_messages": {"invalid": "must be a whole number"},
    }

    def column(self, **extra: Any) -> models.Field:
        return models.BigIntegerField(null=True, **extra)

    def check(self, value: Any, rules: FieldRules) -> str | None:
        if isinstance(value, bool) or not isinstance(value, int):
            return "must be an integer"
        return None if INT64_MIN <= value <= INT64_MAX else "must fit in 64 bits"

    def json_schema(self, rules: FieldRules, options: dict[str, Any]) -> dict[str, Any]:
        return self._range({"type": "integer", "minimum": INT64_MIN, "maximum": INT64_MAX}, rules)

    def from_form(self, raw: str, previous: Any) -> Any:
        if (text := stripped(raw)) is None:
            return None
        try:
            return int(text)
        except ValueError:
            raise ValueError("must be a whole number") from None
