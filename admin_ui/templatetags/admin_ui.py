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


def _was_posted(form: Any) -> bool:
    """``form`` is ``request.POST`` after a failed submission (else empty): then it decides, not the default."""
    return hasattr(form, "getlist") and bool(form)


@register.simple_tag
def posted_checked(form: Any, name: str, value: Any = "on", default: Any = False) -> str:
    """`` checked`` for a checkbox that was ticked in the failed submission (or by default on a fresh form).

    ``default`` is a bool or a collection of the values ticked by default."""
    if _was_posted(form):
        return " checked" if str(value) in form.getlist(name) else ""
    if isinstance(default, list | tuple | set | frozenset):
        default = value in default
    return " checked" if default else ""


@register.simple_tag
def posted_selected(form: Any, name: str, value: Any, default: Any = None) -> str:
    """`` selected`` for the option chosen in the failed submission (or the default on a fresh form)."""
    chosen = form.get(name) if _was_posted(form) else default
    return " selected" if chosen is not None and str(chosen) == str(value) else ""
