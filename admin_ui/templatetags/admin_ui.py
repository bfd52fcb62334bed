"""Small template helpers for the admin: dict lookups and readable UTC times."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html

from emdash.dates import parse_iso

register = template.Library()


@register.filter
def get(mapping: Any, key: Any) -> Any:
    return mapping.get(key) if isinstance(mapping, dict) else None


@register.filter
def indent(depth: Any) -> int:
    """A tree depth as an indentation class number (admin.css defines 0-10; deeper levels stay at 10)."""
    try:
        return max(0, min(int(depth or 0), 10))
    except (TypeError, ValueError):
        return 0


@register.filter
def contains(container: Any, value: Any) -> bool:
    try:
        return value in container
    except TypeError:
        return False


@register.simple_tag
def iso_time(value: Any) -> str:
    """``<time>`` with the machine-readable value and a short UTC label."""
    if not value:
        return ""
    try:
        moment = parse_iso(value) if isinstance(value, str) else value
    except ValueError:
        return str(value)
    return format_html('<time datetime="{}">{} UTC</time>', value, moment.strftime("%Y-%m-%d %H:%M"))
