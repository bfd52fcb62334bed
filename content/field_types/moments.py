"""Instants: ISO 8601 on the wire, a timestamp column, typed and shown in the site's time zone in the admin."""

from __future__ import annotations

from typing import Any

from django.db import models

from content import hooks
from content.field_types.base import FieldRules, FieldType, Filters, stripped
from content.field_types.lookups import InstantFilter
from content.field_types.registry import register
from emdash.dates import iso, parse_iso
from emdash.errors import EmDashError


@register
class DateTimeType(FieldType):
    name = "datetime"
    label = "Date and time"
    help = "A moment: an event's start, a deadline."
    example = "2026-06-01T09:00:00Z"
    input_type = "datetime-local"
    zoned = True

    def column(self, **extra: Any) -> models.Field:
        return models.DateTimeField(null=True, **extra)

    def check(self, value: Any, rules: FieldRules) -> str | None:
        try:
            parse_iso(value)
        except ValueError as exc:
            return str(exc)
        return None

    def normalize(self, value: Any) -> Any:
        return iso(parse_iso(value))

    def to_db(self, value: Any) -> Any:
        return parse_iso(value)

    def from_db(self, value: Any) -> Any:
        return iso(value)

    def filters(self, name: str, column: str, rules: FieldRules) -> Filters:
        return {
            f"{name}.gte": InstantFilter(field_name=column, lookup_expr="gte"),
            f"{name}.lte": InstantFilter(field_name=column, lookup_expr="lte", end_of_day=True),
        }

    def search_text(self, value: Any) -> str:
        return ""  # no words to find

    def display(self, value: Any) -> str:
        return hooks.site_time().display(value)

    def json_schema(self, rules: FieldRules, options: dict[str, Any]) -> dict[str, Any]:
        return {"type": "string", "format": "date-time"}

    def to_form(self, value: Any) -> Any:
        return "" if value is None else hooks.site_time().to_input(value)

    def from_form(self, raw: str, previous: Any) -> Any:
        if (text := stripped(raw)) is None:
            return None
        try:
            return iso(hooks.site_time().from_input(text))
        except EmDashError as exc:  # not a date and time, or a wall-clock time the DST change skips
            fields = (exc.details or {}).get("fields") or {}
            raise ValueError(next(iter(fields.values()), exc.message)) from None
