"""django-filter building blocks the field types' filters are made of (and the common filters reuse)."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import django_filters
from django import forms
from django.db import connection
from django.db.models import Func, IntegerField, Q, QuerySet, TextField, Value
from django.db.models.functions import Cast

from emdash.dates import parse_iso
from emdash.errors import ValidationError

if TYPE_CHECKING:
    from content.models import EntryBase

MAX_IN = 100


class InstantField(forms.Field):
    """An ISO 8601 date-time, or a date: as a lower bound its first moment, as an upper bound its last."""

    default_error_messages = {"invalid": "must be an ISO 8601 date or date-time, e.g. 2026-06-01 or 2026-06-01T09:00Z"}

    def __init__(self, *, end_of_day: bool = False, **kwargs: Any) -> None:
        self.end_of_day = end_of_day
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> datetime | None:
        if value in self.empty_values:
            return None
        try:
            moment = parse_iso(value)
        except ValueError:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid") from None
        if self.end_of_day and len(str(value).strip()) == 10:  # "2026-06-01": up to the end of that day
            moment += timedelta(days=1, microseconds=-1)
        return moment


class InstantFilter(django_filters.Filter):
    field_class = InstantField


class IntegerFilter(django_filters.NumberFilter):
    field_class = forms.IntegerField


class FloatFilter(django_filters.NumberFilter):
    field_class = forms.FloatField


class ChoiceInFilter(django_filters.BaseInFilter, django_filters.ChoiceFilter):
    """Any of several choices, comma-separated."""


def choices(values: Any) -> list[tuple[str, str]]:
    return [(str(v), str(v)) for v in values]


def one_of(values: Any) -> dict[str, str]:
    return {"invalid_choice": "must be one of: " + ", ".join(str(v) for v in values)}


def limited(method: Callable[[QuerySet[EntryBase], str, Any], QuerySet[EntryBase]]) -> Any:
    """A filter method that refuses overlong value lists before touching the query."""

    def run(qs: QuerySet[EntryBase], name: str, value: Any) -> QuerySet[EntryBase]:
        if isinstance(value, list) and len(value) > MAX_IN:
            raise ValidationError.for_fields({f"filter.{name}": f"must list at most {MAX_IN} values"})
        return method(qs, name, value)

    return run


def has_any(column: str) -> Any:
    """A JSON list column: items holding any of the options."""

    def method(qs: QuerySet[EntryBase], name: str, value: Any) -> QuerySet[EntryBase]:
        wanted = value if isinstance(value, list) else [value]
        match = Q()
        if connection.vendor == "postgresql":
            for option in wanted:
                match |= Q(**{f"{column}__contains": [option]})
            return qs.filter(match)
        # SQLite has no JSON containment lookup; the stored text holds each option JSON-encoded, and an
        # encoded option cannot occur inside another encoded string (its quotes would be escaped). INSTR, not
        # LIKE: SQLite's LIKE ignores case, and "Red" and "red" may both be options.
        found = {
            f"{column}_has_{n}": Func(
                Cast(column, TextField()), Value(json.dumps(option)), function="INSTR", output_field=IntegerField()
            )
            for n, option in enumerate(wanted)
        }
        for alias in found:
            match |= Q(**{f"{alias}__gt": 0})
        return qs.alias(**found).filter(match)

    return limited(method)


NUMBER_OPS = (("", "exact"), (".gte", "gte"), (".lte", "lte"))
