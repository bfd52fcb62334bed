"""The SEO part of the entry forms: its fields' values, and the ``seo`` changes a posted form asks for."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from admin_ui.widgets import media_choices
from emdash.actor import Actor

TEXT = ("title", "description", "canonical")


def initial(seo: dict[str, Any]) -> dict[str, Any]:
    image = seo.get("image") or {}
    return {**{k: seo.get(k, "") for k in TEXT}, "image": image.get("id", ""), "noindex": bool(seo.get("noindex"))}


def posted(request: HttpRequest, current: dict[str, Any]) -> dict[str, Any] | None:
    """The ``seo`` input for what changed (an emptied field clears its key); None when nothing did or the
    form has no SEO fields."""
    post = request.POST
    if post.get("seo_form") != "1":
        return None
    before = initial(current)
    changes: dict[str, Any] = {}
    for key in TEXT:
        value = post.get(f"seo_{key}", "").strip()
        if value != before[key]:
            changes[key] = value or None
    image = post.get("seo_image", "").strip()
    if image != before["image"]:
        changes["image"] = {"id": image} if image else None
    noindex = post.get("seo_noindex") == "on"
    if noindex != before["noindex"]:
        changes["noindex"] = noindex
    return changes or None


def values(request: HttpRequest, current: dict[str, Any]) -> dict[str, Any]:
    """What the form shows: the posted values after a refused save, else the item's."""
    if request.method != "POST" or request.POST.get("seo_form") != "1":
        return initial(current)
    post = request.POST
    return {
        **{k: post.get(f"seo_{k}", "") for k in TEXT},
        "image": post.get("seo_image", ""),
        "noindex": post.get("seo_noindex") == "on",
    }


def image_picker(actor: Actor, chosen: str) -> dict[str, Any]:
    """The social image picker's choices (the media library's newest images, plus the chosen one if older)."""
    choices, previews = media_choices(actor, images=True)
    if chosen and chosen not in previews:
        choices.append((chosen, chosen))
    return {"choices": choices, "previews": previews}
