"""Changing site settings (admins, settings:manage): partial, validated as a whole, merged, written once."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from content import stamps
from emdash import purge
from emdash.actor import Actor
from emdash.errors import ValidationError
from emdash.http_cache import SETTINGS_KEY
from emdash.permissions import Perm, require
from media import usage
from media.models import MediaItem
from settings_app import validation
from settings_app.models import SiteSettings
from settings_app.selectors import resolve, settings_get

__all__ = ["settings_get", "settings_set", "settings_update"]

# The operation's attribute names and the stored document's keys.
KEYS = {
    "title": "title",
    "tagline": "tagline",
    "logo": "logo",
    "favicon": "favicon",
    "url": "url",
    "posts_per_page": "postsPerPage",
    "date_format": "dateFormat",
    "timezone": "timezone",
    "social": "social",
    "seo": "seo",
    "editorial_guide": "editorialGuide",
    "changesets_self_approve": "changesetsSelfApprove",
}


def _wire(value: Any) -> Any:
    """A validated input value as the settings document holds it (nested models as camelCase dicts)."""
    if hasattr(value, "model_dump"):
        return value.model_dump(by_alias=True, exclude_unset=True)
    return value


UNSET: Any = object()


def settings_set(
    *,
    actor: Actor,
    title: str | None = UNSET,
    tagline: str | None = UNSET,
    logo: Any = UNSET,
    favicon: Any = UNSET,
    url: str | None = UNSET,
    posts_per_page: int | None = UNSET,
    date_format: str | None = UNSET,
    timezone: str | None = UNSET,
    social: Any = UNSET,
    seo: Any = UNSET,
    editorial_guide: str | None = UNSET,
    changesets_self_approve: bool | None = UNSET,
) -> dict[str, Any]:
    """The operation's service: the keys the caller sent (validated shapes; media refs and nested groups as
    models or dicts), applied as :func:`settings_update` does. Left-out keys keep their values."""
    given = {
        "title": title,
        "tagline": tagline,
        "logo": logo,
        "favicon": favicon,
        "url": url,
        "posts_per_page": posts_per_page,
        "date_format": date_format,
        "timezone": timezone,
        "social": social,
        "seo": seo,
        "editorial_guide": editorial_guide,
        "changesets_self_approve": changesets_self_approve,
    }
    changes = {KEYS[name]: _wire(value) for name, value in given.items() if value is not UNSET}
    return settings_update(actor=actor, changes=changes)


def settings_update(*, actor: Actor, changes: Any) -> dict[str, Any]:
    """Apply a partial update and return the full settings. ``null`` (or ``""`` for text) unsets a key;
    ``social`` and ``seo`` merge key by key. Every problem is reported in one VALIDATION_ERROR and then
    nothing is written."""
    require(actor, Perm.SETTINGS_MANAGE)
    problems: dict[str, str] = {}
    cleaned = validation.clean(changes, problems)
    refs = {
        path: media_id for path, media_id in validation.media_ids(cleaned).items() if f"{path}.mediaId" not in problems
    }
    if refs:
        found = set(MediaItem.objects.filter(id__in=set(refs.values())).values_list("id", flat=True))
        for path, media_id in refs.items():
            if media_id not in found:
                problems[f"{path}.mediaId"] = f"no media item '{media_id}'"
    if problems:
        raise ValidationError.for_fields(problems, prefix="Invalid settings")
    with transaction.atomic():
        row, _ = SiteSettings.objects.select_for_update().get_or_create(id=1)
        data = dict(row.data) if isinstance(row.data, dict) else {}
        for key, value in cleaned.items():
            if key in validation.NESTED and value is not None:
                value = _merge(data.get(key), value)
            if value is None:
                data.pop(key, None)
            else:
                data[key] = value
        SiteSettings.objects.filter(id=1).update(data=data, updated_at=timezone.now())
        usage.index_settings(data)  # the logo, favicon and Open Graph image count as uses of their media
        stamps.bump("settings")  # every process's cached settings and every page's ETag move with the row
        purge.schedule([SETTINGS_KEY])
    return resolve(data)


def _merge(current: Any, changes: dict[str, Any]) -> dict[str, Any] | None:
    merged = dict(current) if isinstance(current, dict) else {}
    for key, value in changes.items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = value
    return merged or None
