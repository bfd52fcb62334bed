"""Values as read-only text: comparisons, revisions and a translation's source column."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from content.field_types import FieldType


def title_of(item: Mapping[str, Any]) -> str:
    """An item as people name it: its title (or name) field, else its slug."""
    data = item.get("data") or {}
    return str(data.get("title") or data.get("name") or item["slug"])


def display(value: Any, kind: FieldType) -> str:
    """A field's value as its type shows it ("" for no value)."""
    return "" if value is None else kind.display(value)


def display_json(value: Any) -> str:
    """A structured value (SEO, a slug) as indented JSON; "" for none."""
    if value is None:
        return ""
    return json.dumps(value, indent=2, ensure_ascii=False) if isinstance(value, dict | list) else str(value)
