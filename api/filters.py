"""Query-string parameters of the two hand-written list routes (media, search), checked by django-filter's forms.

The selectors do the querying; these filter sets only parse and check the query string, so a bad value is a
VALIDATION_ERROR naming the parameter, and the OpenAPI document lists the same parameters the view reads.
Content lists are filtered by each collection's own FilterSet (content/entries/filters.py).
"""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from drf_spectacular.utils import OpenApiParameter
from rest_framework.request import Request

from emdash.errors import ValidationError


class CommaSeparated(django_filters.CharFilter):
    """A list written as one comma-separated value (documented as an array, form style, not exploded)."""


class PageFilter(django_filters.FilterSet):
    """Cursor pagination: ``limit`` and the opaque ``cursor`` from the previous page's ``nextCursor``."""

    limit = django_filters.NumberFilter(min_value=1, max_value=100, help_text="Page size, 1-100 (default 50)")
    cursor = django_filters.CharFilter(max_length=2000, help_text="nextCursor of the previous page")


class MediaFilter(PageFilter):
    mimeType = django_filters.CharFilter(max_length=100, help_text="MIME type prefix, e.g. image/")


class SearchFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(max_length=1000, help_text="Words to look for (empty: no results)")
    collections = CommaSeparated(max_length=2000, help_text="Comma-separated collection slugs")
    locale = django_filters.CharFilter(max_length=35, help_text="Only results in this locale")
    limit = django_filters.NumberFilter(min_value=1, max_value=50, help_text="1-50 (default 20)")


def parse(filterset: type[django_filters.FilterSet], request: Request) -> dict[str, Any]:
    """The cleaned parameters that were given (absent ones left out); VALIDATION_ERROR for bad ones."""
    # Only the filters' form fields are used: the selectors do the querying, so no queryset is needed.
    fields = {name: declared.field for name, declared in filterset.base_filters.items()}
    form = type(f"{filterset.__name__}Form", (forms.Form,), fields)(data=request.query_params)
    if not form.is_valid():
        problems = {name: " ".join(str(m) for m in messages) for name, messages in form.errors.items()}
        raise ValidationError.for_fields(problems, prefix="Invalid query parameter")
    cleaned = {k: v for k, v in form.cleaned_data.items() if v not in (None, "")}
    if "limit" in cleaned:
        if cleaned["limit"] != int(cleaned["limit"]):
            raise ValidationError.for_fields({"limit": "must be a whole number"}, prefix="Invalid query parameter")
        cleaned["limit"] = int(cleaned["limit"])
    return cleaned


def _schema(declared: django_filters.Filter) -> dict[str, Any]:
    """The parameter's type and the bounds its form field checks."""
    extra = declared.extra
    if isinstance(declared, CommaSeparated):
        return {"type": "array", "items": {"type": "string"}}
    if isinstance(declared, django_filters.NumberFilter):  # whole numbers only (parse)
        bounds = {"minimum": extra.get("min_value"), "maximum": extra.get("max_value")}
        return {"type": "integer", **{k: v for k, v in bounds.items() if v is not None}}
    schema: dict[str, Any] = {"type": "string"}
    if extra.get("max_length") is not None:
        schema["maxLength"] = extra["max_length"]
    if choices := extra.get("choices"):
        schema["enum"] = [value for value, _ in choices]
    return schema


def openapi_parameters(filterset: type[django_filters.FilterSet]) -> list[OpenApiParameter]:
    """The filter set as OpenAPI query parameters (generated, so the document cannot drift)."""
    params = []
    for name, declared in filterset.base_filters.items():
        listed = isinstance(declared, CommaSeparated)
        params.append(
            OpenApiParameter(
                name,
                _schema(declared),
                OpenApiParameter.QUERY,
                required=bool(declared.extra.get("required")),
                description=str(declared.extra.get("help_text", "")),
                style="form" if listed else None,
                explode=False if listed else None,
            )
        )
    return params
