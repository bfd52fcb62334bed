"""An ordered list of links to items of one or more target collections (``options.collections``).

Written as ids or slugs (or ``{collection, id}``), stored as ``[{collection, id}, ...]``, read back with each
target's ``{id, collection, slug, title, status}``. A deleted target drops out of what is shown and leaves the
others; ``filter.fields.<field>`` matches items whose list contains an id.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import django_filters
from django.db import models

from content.field_types.base import FieldRules, FieldType, Filters, Problems
from content.field_types.registry import register

ID_LENGTH = 26  # a ULID
MAX_TARGETS = 10  # collections one field may point into
Find = Callable[[list[str], list[tuple[str, str | None]]], list[tuple[str, str] | None]]


class _Contains(django_filters.CharFilter):
    """Items whose list names the given id: the stored JSON holds it as ``"id": "<ULID>"``."""

    def filter(self, qs: Any, value: Any) -> Any:
        if value in (None, ""):
            return qs
        return qs.filter(**{f"{self.field_name}__icontains": f'"{str(value).upper()}"'})


@register
class ReferencesType(FieldType):
    name = "references"
    label = "Links to several items"
    help = "An ordered list of items of the collections you choose: related posts, a recipe's ingredients."
    example = ["01JD0000000000000000000000"]
    validation_keys = frozenset({"max"})
    option_keys = frozenset({"collections", "rows"})
    widget = "references"  # a sortable list with a search; without JavaScript, ids or slugs one per line

    def column(self, **extra: Any) -> models.Field:
        return models.JSONField(null=True, **extra)

    def resolve(self, value: Any, options: dict[str, Any], path: str, problems: Problems, find: Find) -> Any:
        """Ids, slugs or ``{collection, id}`` as the stored ``[{collection, id}]``; a problem per unknown item."""
        if not isinstance(value, list):
            problems[path] = "must be a list of item ids or slugs"
            return None
        targets = [c for c in options.get("collections") or [] if isinstance(c, str)]
        named = [(index, *((item, None) if isinstance(item, str) else _pair(item))) for index, item in enumerate(value)]
        wanted: list[tuple[int, str, str | None]] = []
        for index, ident, only in named:
            if not ident or (only is not None and only not in targets):
                problems[f"{path}[{index}]"] = f"must be an id or slug of an item of {', '.join(targets)}"
            else:
                wanted.append((index, ident, only))
        hits = find(targets, [(ident, only) for _, ident, only in wanted])  # one query per target collection
        resolved: list[dict[str, str]] = []
        seen: set[tuple[str, str]] = set()
        for (index, ident, _), found in zip(wanted, hits, strict=True):
            if found is None:
                problems[f"{path}[{index}]"] = f"no item '{ident[:100]}' in {', '.join(targets)}"
            elif found in seen:
                problems[f"{path}[{index}]"] = f"item '{ident[:100]}' is listed twice"
            else:
                seen.add(found)
                resolved.append({"collection": found[0], "id": found[1]})
        return resolved

    def check(self, value: Any, rules: FieldRules) -> str | None:
        # Writes check the resolved {collection, id} pairs; the wire's bare ids pass too (the example).
        if not isinstance(value, list) or not all(
            (isinstance(v, str) and v)
            or (isinstance(v, dict) and isinstance(v.get("collection"), str) and isinstance(v.get("id"), str))
            for v in value
        ):
            return "must be a list of item ids or slugs"
        return None

    def constraints(self, value: Any, rules: FieldRules) -> str | None:
        if rules.max is not None and len(value) > rules.max:
            return f"must list at most {int(rules.max)} items"
        return None

    def normalize(self, value: Any) -> Any:
        return [{"collection": v["collection"], "id": v["id"]} if isinstance(v, dict) else v for v in value]

    def entry_links(self, value: Any, options: dict[str, Any]) -> list[tuple[str, str, str]]:
        return [(f"[{i}]", v["collection"], v["id"]) for i, v in enumerate(value or []) if isinstance(v, dict)]

    def drop_entries(self, value: Any, ids: set[str]) -> Any:
        if not isinstance(value, list):
            return value
        return [v for v in value if _named(v) not in ids]

    def entry_refs(self, value: Any) -> list[tuple[str, str]]:
        return [(v["collection"], v["id"]) for v in value or [] if isinstance(v, dict)]

    def with_entries(self, value: Any, found: dict[tuple[str, str], dict[str, Any]]) -> Any:
        """The stored list with each target's ``{id, collection, slug, title, status}``; targets that are gone
        (or that the reader may not see) are left out."""
        return [found[(v["collection"], v["id"])] for v in value or [] if (v["collection"], v["id"]) in found]

    def filters(self, name: str, column: str, rules: FieldRules) -> Filters:
        return {name: _Contains(field_name=column, max_length=ID_LENGTH)}

    def search_text(self, value: Any) -> str:
        return ""  # ids: no words to find

    def json_schema(self, rules: FieldRules, options: dict[str, Any]) -> dict[str, Any]:
        targets = ", ".join(f"'{c}'" for c in options.get("collections") or [])
        schema: dict[str, Any] = {
            "type": "array",
            "items": {"type": "string", "minLength": 1},
            "description": f"Ids or slugs of items of {targets}, in order",
        }
        if rules.max is not None:
            schema["maxItems"] = int(rules.max)
        return schema

    def to_form(self, value: Any) -> Any:
        return "\n".join(v.get("id", "") for v in value or [] if isinstance(v, dict))

    def from_form(self, raw: str, previous: Any) -> Any:
        idents = [part for part in re.split(r"[\s,]+", raw) if part]
        return idents or None


def _named(item: Any) -> str | None:
    """The upper-cased id or slug an item of a written or stored list names (None when it names none)."""
    ident = item if isinstance(item, str) else _pair(item)[0]
    return ident.upper() if ident else None


def _pair(item: Any) -> tuple[str | None, str | None]:
    if isinstance(item, dict) and isinstance(item.get("id"), str):
        collection = item.get("collection")
        return item["id"], collection if isinstance(collection, str) else None
    return None, None
