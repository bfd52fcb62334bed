"""Preview links: a draft shown by the site's own templates.

The editor's preview link carries the collection and item ID, signed with the site's secret and a timestamp;
the viewer must also be signed in with the right to read drafts. Share links for reviewers without an account
live in :mod:`content.entries.shares`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.core import signing
from django.urls import reverse
from django.utils import timezone

from content.entries import selectors
from content.entries.entry import Entry
from emdash.actor import Actor
from emdash.conf import emdash_settings
from emdash.errors import NotFound
from emdash.permissions import Perm, require

SALT = "emdash.preview"


@dataclass(frozen=True)
class PreviewLink:
    path: str
    expires_at: datetime


def preview_link(*, actor: Actor, collection: str, id: Any) -> PreviewLink:
    """A link to the item's current draft; only those who may read drafts may mint one."""
    require(actor, Perm.CONTENT_READ_UNPUBLISHED)
    entry = selectors.entry_get(actor=actor, collection=collection, id=id)
    token = signing.dumps({"c": entry.spec.slug, "i": entry.id}, salt=SALT, compress=True)
    max_age = int(emdash_settings.PREVIEW_MAX_AGE)
    return PreviewLink(reverse("site-preview", kwargs={"token": token}), timezone.now() + timedelta(seconds=max_age))


def preview_entry(*, actor: Actor, token: str) -> Entry:
    """The entry a preview token names, with its draft; NOT_FOUND for forged or expired tokens."""
    try:
        payload = signing.loads(token, salt=SALT, max_age=int(emdash_settings.PREVIEW_MAX_AGE))
    except signing.BadSignature:  # SignatureExpired is a BadSignature
        raise NotFound("This preview link is invalid or has expired") from None
    require(actor, Perm.CONTENT_READ_UNPUBLISHED)
    if not isinstance(payload, dict) or not isinstance(payload.get("c"), str) or not isinstance(payload.get("i"), str):
        raise NotFound("This preview link is invalid or has expired")
    return selectors.entry_get(actor=actor, collection=payload["c"], id=payload["i"])


# --- Share links: for reviewers without an account -------------------------------------------------------
