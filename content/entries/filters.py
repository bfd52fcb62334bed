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
from collections.abc import Mapping
from typing import Any

import django_filters
from django.db.models import QuerySet

from content import hooks
from content.entries import rows
from content.field_types.lookups import InstantFilter, IntegerFilter, choices, limited, one_of
from content.models import EntryBase
from content.schema.dynamic import field_attname
from content.schema.specs import CollectionSpec
from emdash.errors import ValidationError

# filter name -> (column, lookup): "after" includes the moment given, "before" too (a date alone: that whole day).
DATE_FILTERS = {
    f"{name}{edge}": (f"{name}_at", "gte" if edge == "After" else "lte")
    for name in ("created", "updated", "published")
    for edge in ("After", "Before")
}
FIELD_OPS = ("eq", "in", "gte", "lte")


class SlugsFilter(django_filters.BaseInFilter, django_filters.CharFilter):
    """One slug or several, comma-separated."""


def _term_filter(collection: str, taxonomy: str) -> django_filters.Filter:
    def method(qs: QuerySet[EntryBase], name: str, value: Any) -> QuerySet[EntryBase]:
        return qs.filter(id__in=hooks.tagged_entries(collection=collection, taxonomy=taxonomy, slugs=value))

    return SlugsFilter(method=limited(method), max_length=200)


def _common_filters() -> dict[str, django_filters.Filter]:
    statuses = rows.STATUSES
    common: dict[str, django_filters.Filter] = {
        "status": django_filters.ChoiceFilter(choices=choices(statuses), error_messages=one_of(statuses)),
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
    for field in spec.fields:  # each type declares its own (none: not filterable)
        declared.update(field.kind.filters(f"fields.{field.slug}", field_attname(field.slug), field.rules))
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
