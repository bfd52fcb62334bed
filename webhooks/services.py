"""Registering, changing and removing webhooks, and reading their delivery log (admins only)."""

from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction

from emdash import safe_fetch
from emdash.actor import Actor
from emdash.conf import emdash_settings
from emdash.dates import iso
from emdash.errors import NotFound, ValidationError
from emdash.ids import new_id
from emdash.permissions import Perm, require
from emdash.wire import attrs
from webhooks.events import EVENTS
from webhooks.models import Delivery, Webhook

URL_MAX_LENGTH = 2000
LOG_LIMIT = 100


def present(hook: Webhook, *, secret: bool = False) -> dict[str, Any]:
    """A webhook; its secret only right after it was set (shown once)."""
    body: dict[str, Any] = {
        **attrs(hook, "id", "url"),
        "events": list(hook.events),
        "active": hook.active,
        "createdAt": iso(hook.created_at),
        "updatedAt": iso(hook.updated_at),
    }
    if secret:
        body["secret"] = hook.secret
    return body


def present_delivery(row: Delivery) -> dict[str, Any]:
    return {
        "id": row.pk,
        **attrs(row, "event", "status", "attempts", "response_code", "response_body", "last_error"),
        "nextAttemptAt": iso(row.next_attempt_at) if row.next_attempt_at else None,
        "createdAt": iso(row.created_at),
        "updatedAt": iso(row.updated_at),
    }


def _check(url: Any, events: Any) -> None:
    """A ValidationError naming every problem with the URL and events given (None: not being changed)."""
    problems: dict[str, str] = {}
    if url is not None:
        try:
            safe_fetch.check(url, allow_private=bool(emdash_settings.WEBHOOKS_ALLOW_PRIVATE))
        except safe_fetch.FetchError as exc:
            problems["url"] = exc.message
    if events is not None:
        unknown = [e for e in events if e not in EVENTS]
        if unknown or not events:
            problems["events"] = f"choose one or more of: {', '.join(EVENTS)}"
    if problems:
        raise ValidationError.for_fields(problems)


def _find(id: str) -> Webhook:
    hook = Webhook.objects.filter(pk=id.upper()).first()
    if hook is None:
        raise NotFound(f"No webhook with id '{id[:100]}' (webhook_list lists them)")
    return hook


def webhook_list(*, actor: Actor) -> dict[str, Any]:
    require(actor, Perm.WEBHOOKS_MANAGE)
    return {"items": [present(hook) for hook in Webhook.objects.all()]}


def webhook_get(*, actor: Actor, id: str) -> dict[str, Any]:
    require(actor, Perm.WEBHOOKS_MANAGE)
    return present(_find(id))


def webhook_create(
    *, actor: Actor, url: str, events: list[str], secret: str | None = None, active: bool = True
) -> dict[str, Any]:
    require(actor, Perm.WEBHOOKS_MANAGE)
    _check(url, events)
    hook = Webhook.objects.create(
        id=new_id(), url=url, events=list(dict.fromkeys(events)), secret=secret or secrets.token_hex(32), active=active
    )
    return present(hook, secret=True)


def webhook_update(
    *,
    actor: Actor,
    id: str,
    url: str | None = None,
    events: list[str] | None = None,
    secret: str | None = None,
    rotate_secret: bool = False,
    active: bool | None = None,
) -> dict[str, Any]:
    require(actor, Perm.WEBHOOKS_MANAGE)
    _check(url, events)
    with transaction.atomic():
        hook = _find(id)
        hook.url = url if url is not None else hook.url
        hook.events = list(dict.fromkeys(events)) if events is not None else hook.events
        hook.active = active if active is not None else hook.active
        new_secret = secret or (secrets.token_hex(32) if rotate_secret else None)
        hook.secret = new_secret or hook.secret
        hook.save()
    return present(hook, secret=new_secret is not None)


def webhook_delete(*, actor: Actor, id: str) -> dict[str, Any]:
    require(actor, Perm.WEBHOOKS_MANAGE)
    with transaction.atomic():
        _find(id).delete()
    return {"deleted": True}


def webhook_deliveries(*, actor: Actor, id: str, limit: int = 50) -> dict[str, Any]:
    """The delivery log of one webhook, newest first."""
    require(actor, Perm.WEBHOOKS_MANAGE)
    hook = _find(id)
    rows = Delivery.objects.filter(webhook=hook).order_by("-id")[: min(limit, LOG_LIMIT)]
    return {"items": [present_delivery(row) for row in rows]}
