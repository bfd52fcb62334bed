"""Strings the length and pattern rules apply to: one-line text and long text."""

from __future__ import annotations

from typing import Any

import django_filters
import regex
from django.db import models

from content.field_types.base import PATTERN_TIMEOUT_SECONDS, FieldRules, FieldType, Filters, size_problem
from content.field_types.registry import register

TEXT_RULES = frozenset({"minLength", "maxLength", "pattern"})


class TextLike(FieldType):
    """A string value: stored in a text column, filtered by equality, indexed as it is."""

    validation_keys = TEXT_RULES
    filter_max_length = 2000  # longer filter values cannot match anything worth finding

    def column(self, **extra: Any) -> models.Field:
        return models.TextField(null=True, **extra)

    def check(self, value: Any, rules: FieldRules) -> str | None:
        return None if isinstance(value, str) else "must be a string"

    def constraints(self, value: Any, rules: FieldRules) -> str | None:
        if problem := size_problem(len(value), rules, "characters"):
            return problem
        if rules.pattern:
            try:
                if not regex.search(rules.pattern, value, timeout=PATTERN_TIMEOUT_SECONDS):
                    return f"must match the pattern {rules.pattern}"
            except TimeoutError:
                return "could not be checked against the pattern in time; use a simpler value or pattern"
        return None

    def filters(self, name: str, column: str, rules: FieldRules) -> Filters:
        return {name: django_filters.CharFilter(field_name=column, max_length=self.filter_max_length)}

    def search_text(self, value: Any) -> str:
        return value if isinstance(value, str) else ""

    def json_schema(self, rules: FieldRules, options: dict[str, Any]) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "string"}
        if rules.min_length is not None:
            schema["minLength"] = rules.min_length
        if rules.max_length is not None:
            schema["maxLength"] = rules.max_length
        if rules.pattern:
            schema["pattern"] = rules.pattern
        return schema

    def from_form(self, raw: str, previous: Any) -> Any:
        return raw if raw != "" else None  # spaces are kept: they may be the value


@register
class StringType(TextLike):
    name = "string"
    label = "Short text"
    help = "One line: a title, a name, a subtitle."
    example = "Hello, world"


@register
class TextType(TextLike):
    name = "text"
    label = "Long text"
    help = "Several lines of plain text, without formatting."
    example = "First line.\nSecond line."
    in_summary = False
    multiline = True
    widget = "textarea"
