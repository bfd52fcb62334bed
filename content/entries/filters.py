"""One django-filter FilterSet per collection, generated from its fields at run time.

Every door that lists content (MCP ``content_list``, REST ``GET /content/{collection}``, the admin list)
hands the same ``filter`` object to :func:`apply`, which flattens it to dotted names
(``author``, ``publishedAfter``, ``terms.category``, ``fields.price.gte``), validates it with the
collection's FilterSet and returns the filtered queryset. Unknown names and bad values are a
VALIDATION_ERROR naming the parameter; nothing is silently ignored.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Any

import django_filters
from django import forms
from django.db import connection
from django.db.models import Func, IntegerField, Q, QuerySet, TextField, Value
from django.db.models.functions import Cast

from content import hooks
from content.entries import rows
from content.field_types import INT64_MAX, INT64_MIN
from content.models import EntryBase
from content.schema.dynamic import field_attname
from content.schema.specs import CollectionSpec, FieldSpec
from emdash.dates import parse_iso
from emdash.errors import ValidationError

# filter name -> (column, lookup): "after" includes the moment given, "before" too (a date alone: that whole day).
DATE_FILTERS = {
    f"{name}{edge}": (f"{name}_at", "gte" if edge == "After" else "lte")
    for name in ("created", "updated", "published")
    for edge in ("After", "Before")
}
FIELD_OPS = ("eq", "in", "gte", "lte")
MAX_IN = 100
# Field types each operator applies to; other types (image, file, json, portableText) are not filterable.
_TEXT = {"string", "text", "slug", "reference"}
_RANGE = {"number", "integer", "datetime"}


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


class SlugsFilter(django_filters.BaseInFilter, django_filters.CharFilter):
    """One slug or several, comma-separated."""


def _choices(values: Any) -> list[tuple[str, str]]:
    return [(str(v), str(v)) for v in values]


def _one_of(values: Any) -> dict[str, str]:
    return {"invalid_choice": "must be one of: " + ", ".join(str(v) for v in values)}


def _limited(method: Callable[[QuerySet[EntryBase], str, Any], QuerySet[EntryBase]]) -> Any:
    """A filter method that refuses overlong value lists before touching the query."""

    def run(qs: QuerySet[EntryBase], name: str, value: Any) -> QuerySet[EntryBase]:
        if isinstance(value, list) and len(value) > MAX_IN:
            raise ValidationError.for_fields({f"filter.{name}": f"must list at most {MAX_IN} values"})
        return method(qs, name, value)

    return run


def _has_any(column: str) -> Any:
    """multiSelect (a JSON list column): items holding any of the options."""

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

    return _limited(method)


def _field_filters(field: FieldSpec) -> dict[str, django_filters.Filter]:
    column, name, kind = field_attname(field.slug), f"fields.{field.slug}", field.type
    if kind in _TEXT:
        return {name: django_filters.CharFilter(field_name=column, max_length=26 if kind == "reference" else 2000)}
    if kind == "boolean":
        choices = [("true", "true"), ("false", "false")]
        flag = django_filters.TypedChoiceFilter(
            field_name=column, choices=choices, coerce=lambda v: v == "true", error_messages=_one_of(["true", "false"])
        )
        return {name: flag}
    options = field.rules.options
    if kind == "select":
        return {
            name: django_filters.ChoiceFilter(
                field_name=column, choices=_choices(options), error_messages=_one_of(options)
            ),
            f"{name}.in": ChoiceInFilter(
                field_name=column, lookup_expr="in", choices=_choices(options), error_messages=_one_of(options)
            ),
        }
    if kind == "multiSelect":
        has_any = _has_any(column)
        return {
            name: django_filters.ChoiceFilter(
                choices=_choices(options), method=has_any, error_messages=_one_of(options)
            ),
            f"{name}.in": ChoiceInFilter(choices=_choices(options), method=has_any, error_messages=_one_of(options)),
        }
    if kind in _RANGE:
        return _range_filters(name, column, kind)
    return {}


def _range_filters(name: str, column: str, kind: str) -> dict[str, django_filters.Filter]:
    if kind == "datetime":
        return {
            f"{name}.gte": InstantFilter(field_name=column, lookup_expr="gte"),
            f"{name}.lte": InstantFilter(field_name=column, lookup_expr="lte", end_of_day=True),
        }
    if kind == "integer":
        limits = {
            "min_value": INT64_MIN,
            "max_value": INT64_MAX,
            "error_messages": {"invalid": "must be a whole number"},
        }
        make: Any = IntegerFilter
    else:
        limits = {"error_messages": {"invalid": "must be a number"}}
        make = FloatFilter
    return {f"{name}{op}": make(field_name=column, lookup_expr=lookup, **limits) for op, lookup in _NUMBER_OPS}


_NUMBER_OPS = (("", "exact"), (".gte", "gte"), (".lte", "lte"))


def _term_filter(collection: str, taxonomy: str) -> django_filters.Filter:
    def method(qs: QuerySet[EntryBase], name: str, value: Any) -> QuerySet[EntryBase]:
        return qs.filter(id__in=hooks.tagged_entries(collection=collection, taxonomy=taxonomy, slugs=value))

    return SlugsFilter(method=_limited(method), max_length=200)


def _common_filters() -> dict[str, django_filters.Filter]:
    statuses = rows.STATUSES
    common: dict[str, django_filters.Filter] = {
        "status": django_filters.ChoiceFilter(choices=_choices(statuses), error_messages=_one_of(statuses)),
        "locale": django_filters.CharFilter(max_length=16),  # checked against the settings by rows.resolve_locale
        "author": IntegerFilter(
            field_name="author_id", min_value=1, error_messages={"invalid": "must be a user id (a whole number)"}
        ),
    }
    for name, (column, lookup) in DATE_FILTERS.items():
        common[name] = InstantFilter(field_name=column, lookup_expr=lookup, end_of_day=lookup == "lte")
    return common


_classes: dict[tuple[int, tuple[str, ...]], tuple[CollectionSpec, type[django_filters.FilterSet]]] = {}
_CACHED = 64
_lock = threading.Lock()


def _build(spec: CollectionSpec, taxonomies: tuple[str, ...]) -> type[django_filters.FilterSet]:
    declared = _common_filters()
    for field in spec.fields:
        declared.update(_field_filters(field))
    for taxonomy in taxonomies:
        declared[f"terms.{taxonomy}"] = _term_filter(spec.slug, taxonomy)
    meta = type("Meta", (), {"model": spec.model, "fields": []})
    return type(f"{spec.model.__name__}FilterSet", (django_filters.FilterSet,), {**declared, "Meta": meta})


def filterset_for(spec: CollectionSpec, *, with_terms: bool = True) -> type[django_filters.FilterSet]:
    """The collection's FilterSet class; ``with_terms`` adds a ``terms.<taxonomy>`` filter per taxonomy that
    applies to the collection (one query)."""
    taxonomies = tuple(hooks.taxonomies_for(spec.slug)) if with_terms else ()
    # Built once per schema snapshot: a spec object is replaced whenever the schema changes, and the cache
    # holds the spec itself, so its id cannot be reused by another while the entry lives.
    key = (id(spec), taxonomies)
    cached = _classes.get(key)
    if cached is not None and cached[0] is spec:
        return cached[1]
    built = _build(spec, taxonomies)
    with _lock:
        if len(_classes) >= _CACHED:
            _classes.pop(next(iter(_classes)))
        _classes[key] = (spec, built)
    return built


def flatten(given: Mapping[str, Any] | None) -> dict[str, Any]:
    """The nested ``filter`` object as dotted names: ``{"fields": {"price": {"gte": 3}}}`` -> ``fields.price.gte``."""
    flat: dict[str, Any] = {}
    for key, value in (given or {}).items():
        if key == "terms" and isinstance(value, Mapping):
            flat.update({f"terms.{name}": slugs for name, slugs in value.items()})
        elif key == "fields" and isinstance(value, Mapping):
            for slug, wanted in value.items():
                ops = wanted if isinstance(wanted, Mapping) else {"eq": wanted}
                flat.update({f"fields.{slug}" + ("" if op == "eq" else f".{op}"): v for op, v in ops.items()})
        else:
            flat[key] = value
    problems = {f"filter.{name}": _shape_problem(name, value) for name, value in flat.items()}
    problems = {name: problem for name, problem in problems.items() if problem}
    if problems:
        raise ValidationError.for_fields(problems, prefix="Invalid filter")
    return {name: _text(value) for name, value in flat.items()}


def _shape_problem(name: str, value: Any) -> str:
    if value is None:
        return "must not be null"
    if name.startswith("terms.") and not isinstance(value, str | list):
        return "must be a term slug or a list of term slugs"
    if isinstance(value, Mapping) or (isinstance(value, list) and not all(isinstance(v, str) for v in value)):
        return "must be a value, or a list of strings"
    return ""


def _text(value: Any) -> Any:
    """Query-string form of a JSON value, so both doors go through the same form fields."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return json.dumps(value)
    if isinstance(value, list):
        return ",".join(value)
    return value


def _unknown(spec: CollectionSpec, name: str, declared: Mapping[str, Any]) -> str:
    head, _, rest = name.partition(".")
    if head == "fields":
        slug, _, op = rest.partition(".")
        field = spec.get_field(slug)
        if field is None:
            return f"collection '{spec.slug}' has no field '{slug}'"
        ops = [
            n.rpartition(".")[2] if n.count(".") == 2 else "eq" for n in declared if n.split(".")[:2] == [head, slug]
        ]
        if not ops:
            return f"{field.type} fields cannot be filtered"
        return f"unknown operator '{op or 'eq'}' for a {field.type} field (use: {', '.join(ops)})"
    if head == "terms":
        names = [n.partition(".")[2] for n in declared if n.startswith("terms.")]
        return f"no taxonomy '{rest}' applies to '{spec.slug}' (available: {', '.join(names) or 'none'})"
    accepted = [n for n in declared if "." not in n and n not in ("status", "locale")]
    return f"unknown filter (accepted: {', '.join(accepted)}, terms.<taxonomy>, fields.<field>)"


def apply(spec: CollectionSpec, qs: QuerySet[EntryBase], given: Mapping[str, Any]) -> tuple[QuerySet[EntryBase], str]:
    """``qs`` narrowed by the flat filter data ``given``, and a digest of the cleaned filters for cursor keys.

    ``status`` and ``locale`` come from the operation's own arguments; every other name from ``filter``
    (its problems are reported as ``filter.<name>``).
    """
    data = {k: v for k, v in given.items() if v not in (None, "")}
    filterset_class = filterset_for(spec, with_terms=any(k.startswith("terms.") for k in data))
    declared = filterset_class.base_filters

    def wire(name: str) -> str:
        return name if name in ("status", "locale") else f"filter.{name}"

    problems = {wire(name): _unknown(spec, name, declared) for name in data if name not in declared}
    filterset = filterset_class(data=data, queryset=qs)
    if not filterset.is_valid():  # every problem at once: unknown names and bad values
        problems |= {wire(name): " ".join(str(m) for m in messages) for name, messages in filterset.errors.items()}
    if problems:
        raise ValidationError.for_fields(problems, prefix="Invalid filter")
    cleaned = {k: v for k, v in filterset.form.cleaned_data.items() if v not in (None, "", [])}
    digest = hashlib.sha256(json.dumps(cleaned, sort_keys=True, default=str).encode()).hexdigest()[:16]
    return filterset.qs, digest
