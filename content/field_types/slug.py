"""URL-safe names (lowercase letters, digits, '-' and '_'): a string with a fixed shape."""

from __future__ import annotations

from typing import Any

from content.field_types.base import CONTENT_SLUG_RE, FieldRules
from content.field_types.registry import register
from content.field_types.text import TextLike


@register
class SlugType(TextLike):
    name = "slug"
    label = "Slug"
    help = "A URL-safe name: lowercase letters, digits, '-' and '_'."
    example = "hello-world"

    def check(self, value: Any, rules: FieldRules) -> str | None:
        if not isinstance(value, str) or not CONTENT_SLUG_RE.match(value):
            return "must be a slug: lowercase letters, digits, '-' or '_'"
        return None

    def json_schema(self, rules: FieldRules, options: dict[str, Any]) -> dict[str, Any]:
        return {**super().json_schema(rules, options), "pattern": CONTENT_SLUG_RE.pattern.replace(r"\Z", "$")}
