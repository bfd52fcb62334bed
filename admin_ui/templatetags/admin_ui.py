"""Small template helpers for the admin: dict lookups and times in the site's zone."""

from __future__ import annotations

from typing import Any

from django import template

from settings_app.templatetags.site_time import local_time

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
    """``<time>`` with the machine-readable UTC value and a label in the site's zone and ``dateFormat``."""
    return local_time(value)


@register.simple_tag(takes_context=True)
def share_links(context: Any, collection: str, id: str) -> list[Any]:
    """The item's working share links, for the edit page's Preview box (empty if the user may not see them)."""
    from emdash.actor import Actor
    from emdash.errors import EmDashError
    from public_site.preview import share_list

    try:
        return share_list(actor=Actor.for_user(context["request"].user), collection=collection, id=id)
    except EmDashError:
        return []
