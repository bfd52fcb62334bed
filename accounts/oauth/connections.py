"""Connected apps: the OAuth clients holding live tokens for a user, and revoking one client's access at once."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts import token_cache
from accounts.models import User
from accounts.oauth.models import AccessToken, AuthorizationCode, DeviceCode, OAuthClient, RefreshToken
from emdash.actor import Actor
from emdash.errors import NotFound, ValidationError
from emdash.permissions import Perm, require


@dataclass(frozen=True)
class Connection:
    """One client's live grants for one user, summed over every token family (each approval is a family)."""

    client: OAuthClient
    user: User
    scopes: list[str]
    first_authorised: datetime
    last_used: datetime | None
    grants: int  # live token families: how many separate approvals are still in force


def _live_filter(now: datetime) -> tuple[Q, Q]:
    access = Q(revoked_at__isnull=True, expires_at__gt=now)
    refresh = Q(state=RefreshToken.ACTIVE, expires_at__gt=now)
    return access, refresh


def _owner(actor: Actor) -> User:
    if actor.user is None:
        raise ValidationError("Connected apps belong to a signed-in user")
    return actor.user


def connection_list(*, actor: Actor, all_users: bool = False) -> list[Connection]:
    """The actor's connections, or everyone's (``all_users``, which needs the users.manage permission)."""
    if all_users:
        require(actor, Perm.USERS_MANAGE)
    now = timezone.now()
    live_access, live_refresh = _live_filter(now)
    owner = {} if all_users else {"user": _owner(actor)}
    live: dict[tuple[int, int], set[str]] = {}  # (client pk, user pk) -> live families
    for model, live_q in ((AccessToken, live_access), (RefreshToken, live_refresh)):
        for client_pk, user_pk, family in model.objects.filter(live_q, **owner).values_list(  # type: ignore[attr-defined]
            "client_id", "user_id", "family"
        ):
            live.setdefault((client_pk, user_pk), set()).add(family)
    return sorted(
        (_summarise(client_pk, user_pk, families, now) for (client_pk, user_pk), families in live.items()),
        key=lambda c: (c.user.email.lower(), c.client.name.lower(), c.client.client_id),
    )


def _summarise(client_pk: int, user_pk: int, families: set[str], now: datetime) -> Connection:
    """Scopes of the live tokens, when the oldest live grant was made, and the last use of any of its tokens."""
    access = list(AccessToken.objects.filter(family__in=families).select_related("client", "user"))
    refresh = list(RefreshToken.objects.filter(family__in=families).select_related("client", "user"))
    tokens: list[Any] = [*access, *refresh]
    live_scopes: set[str] = set()
    for a in access:
        if a.revoked_at is None and a.expires_at > now:
            live_scopes.update(a.scopes)
    for r in refresh:
        if r.state == RefreshToken.ACTIVE and r.expires_at > now:
            live_scopes.update(r.scopes)
    used = [a.last_used_at for a in access if a.last_used_at]
    first = tokens[0]
    return Connection(
        client=first.client,
        user=first.user,
        scopes=sorted(live_scopes),
        first_authorised=min(row.created_at for row in tokens),
        last_used=max(used) if used else None,
        grants=len(families),
    )


def connection_revoke(*, actor: Actor, client_id: str, user_id: int | None = None) -> int:
    """Revoke every token ``client_id`` holds for a user (the actor; another user needs users.manage).

    Unused authorization codes and approved-but-unredeemed device codes of that pair die with them, so the
    client cannot come back without a new approval. Returns how many token rows were revoked."""
    owner = _owner(actor)
    if user_id is not None and user_id != owner.pk:
        require(actor, Perm.USERS_MANAGE)
        owner = User.objects.filter(pk=user_id).first()  # type: ignore[assignment]
        if owner is None:
            raise NotFound("No such user")
    client = OAuthClient.objects.filter(client_id=str(client_id)[:100]).first()
    now = timezone.now()
    live_access, live_refresh = _live_filter(now)
    pair = {"client": client, "user": owner}
    if client is None or not (
        AccessToken.objects.filter(live_access, **pair).exists()
        or RefreshToken.objects.filter(live_refresh, **pair).exists()
    ):
        raise NotFound("No such connected app")
    with transaction.atomic():
        revoked = AccessToken.objects.filter(revoked_at__isnull=True, **pair).update(revoked_at=now)
        revoked += (
            RefreshToken.objects.filter(**pair).exclude(state=RefreshToken.REVOKED).update(state=RefreshToken.REVOKED)
        )
        AuthorizationCode.objects.filter(used_at__isnull=True, expires_at__gt=now, **pair).update(expires_at=now)
        DeviceCode.objects.filter(status=DeviceCode.APPROVED, **pair).update(status=DeviceCode.DENIED)
    token_cache.clear()
    return revoked
