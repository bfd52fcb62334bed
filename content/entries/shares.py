"""Share links: a draft shown to reviewers without an account.

A random secret whose hash is a ``PreviewShare`` row, with an expiry the editor picked and a revocation stamp
(a row, not a signed token, so one link can be switched off without touching others). The admin creates and
lists them, the public site shows them: both doors use this module.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.urls import reverse
from django.utils import timezone

from accounts.tokens import hash_token
from content.entries import selectors
from content.entries.entry import Entry
from content.models import PreviewShare
from emdash.actor import Actor
from emdash.errors import EmDashError, NotFound, ValidationError
from emdash.numbers import plain_int
from emdash.permissions import Perm, require

SHARE_LIFETIMES: dict[str, tuple[timedelta, str]] = {
    "1h": (timedelta(hours=1), "1 hour"),
    "1d": (timedelta(days=1), "1 day"),
    "7d": (timedelta(days=7), "7 days"),
}


class LinkGone(EmDashError):
    """A share link that existed but has expired or was revoked: the page says which (HTTP 410)."""

    code, status = "LINK_GONE", 410


def _may_share(actor: Actor, entry: Entry) -> None:
    """Sharing a draft publishes it to whoever holds the link, so it takes the right to edit the item."""
    own = actor.user_id is not None and entry.row.author_id == actor.user_id
    require(actor, Perm.CONTENT_EDIT_OWN if own else Perm.CONTENT_EDIT_ANY)


def share_create(*, actor: Actor, collection: str, id: Any, lifetime: str) -> tuple[PreviewShare, str]:
    """A new share link; returns the row and its path (shown once: only the hash is kept)."""
    if lifetime not in SHARE_LIFETIMES:
        raise ValidationError.for_fields({"lifetime": f"must be one of: {', '.join(SHARE_LIFETIMES)}"})
    entry = selectors.entry_get(actor=actor, collection=collection, id=id)
    _may_share(actor, entry)
    secret = secrets.token_urlsafe(32)
    share = PreviewShare.objects.create(
        collection=entry.spec.slug,
        entry_id=entry.id,
        token_hash=hash_token(secret),
        created_by_id=actor.user_id,
        expires_at=timezone.now() + SHARE_LIFETIMES[lifetime][0],
    )
    return share, reverse("site-share", kwargs={"token": secret})


def share_list(*, actor: Actor, collection: str, id: Any) -> list[PreviewShare]:
    """The item's links that still work, newest first."""
    entry = selectors.entry_get(actor=actor, collection=collection, id=id)
    live = PreviewShare.objects.filter(collection=entry.spec.slug, entry_id=entry.id, revoked_at__isnull=True)
    return list(live.filter(expires_at__gt=timezone.now()).select_related("created_by").order_by("-created_at"))


def share_revoke(*, actor: Actor, share_id: Any) -> PreviewShare:
    number = share_id if isinstance(share_id, int) else plain_int(share_id)
    share = PreviewShare.objects.filter(pk=number).first() if number is not None else None
    if share is None:
        raise NotFound("No such share link")
    entry = selectors.entry_get(actor=actor, collection=share.collection, id=share.entry_id)
    _may_share(actor, entry)
    PreviewShare.objects.filter(pk=share.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())
    share.refresh_from_db()
    return share


def share_entry(*, token: str) -> Entry:
    """The draft a share link shows: NOT_FOUND for unknown links or items, LINK_GONE when expired or revoked."""
    share = PreviewShare.objects.filter(token_hash=hash_token(token)).first() if token else None
    if share is None:
        raise NotFound("This preview link does not exist. Check that it was copied in full.")
    if share.revoked_at is not None:
        raise LinkGone("This preview link was switched off by the site's editors.")
    if share.expires_at <= timezone.now():
        raise LinkGone("This preview link has expired. Ask whoever sent it for a new one.")
    try:
        return selectors.entry_get(actor=Actor.system(), collection=share.collection, id=share.entry_id)
    except EmDashError:  # the item was deleted or its collection removed
        raise NotFound("The item behind this preview link no longer exists.") from None
