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
    from content.entries.shares import share_list
    from emdash.actor import Actor
    from emdash.errors import EmDashError

    try:
        return share_list(actor=Actor.for_user(context["request"].user), collection=collection, id=id)
    except EmDashError:
        return []


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
