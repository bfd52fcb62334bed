"""Field values as read-only text: comparisons, revisions and a translation's source column."""

from __future__ import annotations

import json
from typing import Any

from admin_ui import portable_text
from settings_app import localtime


def title_of(item: dict[str, Any]) -> str:
    """An item as people name it: its title (or name) field, else its slug."""
    data = item.get("data") or {}
    return str(data.get("title") or data.get("name") or item["slug"])


def display(value: Any, kind: str) -> str:
    if value is None:
        return ""
    if kind == "portableText":
        return portable_text.readable(value)
    if kind == "datetime":
        return f"{localtime.format_datetime_local(value)} ({localtime.current().zone_name})"
    if isinstance(value, dict | list):
        return json.dumps(value, indent=2, ensure_ascii=False)
    return str(value)
