"""The navigation, derived from the permission table: a link shows only when the user's role allows it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from django.urls import reverse

from content.schema import specs as schema
from emdash.actor import Actor
from emdash.permissions import Perm, can
from emdash.roles import Role


@dataclass(frozen=True)
class Link:
    label: str
    url: str
    key: str


# (label, url name, key, permission needed; None = any signed-in user, e.g. their own API tokens).
# "Connected apps" and "Connect a device" (the device-approval page, routed by accounts.oauth) are the OAuth ones.
SECTIONS: list[tuple[str, str, str, Perm | None]] = [
    ("Review", "admin_ui:review", "review", Perm.CHANGESET_READ),
    ("Media", "admin_ui:media", "media", Perm.MEDIA_READ),
    ("Taxonomies", "admin_ui:taxonomies", "taxonomies", Perm.TAXONOMY_MANAGE),
    ("Menus", "admin_ui:menus", "menus", Perm.MENU_MANAGE),
    ("Bylines", "admin_ui:bylines", "bylines", Perm.BYLINES_MANAGE),
    ("Redirects", "admin_ui:redirects", "redirects", Perm.REDIRECTS_READ),
    ("Schema", "admin_ui:schema", "schema", Perm.SCHEMA_READ),
    ("Settings", "admin_ui:settings", "settings", Perm.SETTINGS_READ),
    ("Users", "admin_ui:users", "users", Perm.USERS_MANAGE),
    ("API tokens", "admin_ui:tokens", "tokens", None),
    ("Connected apps", "admin_ui:oauth_apps", "oauth_apps", None),
    ("Connect a device", "oauth-device", "device", None),
    ("Webhooks", "admin_ui:webhooks", "webhooks", Perm.WEBHOOKS_MANAGE),
    ("Audit log", "admin_ui:audit", "audit", Perm.AUDIT_READ),
    ("Tools", "admin_ui:tools", "tools", Perm.SITE_IMPORT),
]


def allowed(actor: Actor, need: Perm | None) -> bool:
    return need is None or can(actor, need)


def nav_context(request: HttpRequest) -> dict[str, Any]:
    """Template context: collections the user can open and the other sections their role allows."""
    if not request.path.startswith("/_emdash/admin/") or not request.user.is_authenticated:
        return {}
    actor = Actor.for_user(request.user)  # type: ignore[arg-type]
    collections = []
    if can(actor, Perm.CONTENT_READ_UNPUBLISHED):
        collections = [
            Link(spec.label, reverse("admin_ui:entries", args=[spec.slug]), f"c:{spec.slug}")
            for spec in sorted(schema.current().collections.values(), key=lambda s: s.label.lower())
        ]
    sections = [Link(label, reverse(name), key) for label, name, key, need in SECTIONS if allowed(actor, need)]
    return {
        "nav_collections": collections,
        "nav_sections": sections,
        "role_label": Role(int(request.user.role)).label if request.user.role in set(Role) else "",
    }
