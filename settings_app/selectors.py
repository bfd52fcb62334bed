"""Reading site settings: for editors (settings:read) and, without a check, for the public site's templates."""

from __future__ import annotations

import copy
from typing import Any

from emdash.actor import Actor
from emdash.permissions import Perm, require
from media.models import MediaItem
from media.storage import url_for
from settings_app.models import SiteSettings


def stored() -> dict[str, Any]:
    """The raw document (set keys only, media refs unresolved)."""
    data = SiteSettings.objects.filter(id=1).values_list("data", flat=True).first()
    return data if isinstance(data, dict) else {}


def resolve(data: dict[str, Any]) -> dict[str, Any]:
    """A copy with every media reference given its item's ``url`` (one query). A reference whose item was
    deleted keeps its ``mediaId`` and has no ``url``."""
    out = copy.deepcopy(data)
    seo = out.get("seo")
    og_image = seo.get("defaultOgImage") if isinstance(seo, dict) else None
    refs = [ref for ref in (out.get("logo"), out.get("favicon"), og_image) if isinstance(ref, dict)]
    ids = {str(ref.get("mediaId")) for ref in refs}
    keys = dict(MediaItem.objects.filter(id__in=ids).values_list("id", "storage_key")) if ids else {}
    for ref in refs:
        key = keys.get(str(ref.get("mediaId")))
        if key is not None:
            ref["url"] = url_for(key)
    return out


def site_settings() -> dict[str, Any]:
    """For templates and the public site: the same object as settings_get, with no permission check."""
    return resolve(stored())


def settings_get(*, actor: Actor) -> dict[str, Any]:
    require(actor, Perm.SETTINGS_READ)
    return site_settings()
