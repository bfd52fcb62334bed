"""Access and refresh tokens: issue a pair, rotate a refresh token exactly once, revoke, resolve a bearer."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts import token_cache
from accounts.models import User
from accounts.oauth import grants
from accounts.oauth.errors import invalid_grant, invalid_request, invalid_scope, invalid_target
from accounts.oauth.metadata import CLI_CLIENT_ID
from accounts.oauth.models import AccessToken, OAuthClient, RefreshToken
from accounts.tokens import LAST_USED_RESOLUTION, hash_token
from emdash.actor import Actor
from emdash.conf import emdash_settings

ACCESS_PREFIX = "ec_oat_"
REFRESH_PREFIX = "ec_ort_"
ACCESS_TTL = timedelta(hours=1)
REFRESH_TTL = timedelta(days=90)
# A rotated refresh token presented again this soon is a race between tabs or a retry, not theft (SPEC 4.2).
REUSE_GRACE = timedelta(seconds=30)


def refresh_ttl(client: OAuthClient) -> timedelta:
    """The command line's sessions end sooner: a laptop's token file outlives its owner's attention."""
    if client.client_id == CLI_CLIENT_ID:
        return timedelta(days=float(emdash_settings.CLI_REFRESH_DAYS))
    return REFRESH_TTL


def new_family() -> str:
    return secrets.token_hex(16)


def issue_pair(
    *, client: OAuthClient, user: User, scopes: Iterable[str], resource: str, family: str | None = None
) -> dict[str, Any]:
    """Store a new access + refresh token (hashed) and return the RFC 6749 token response."""
    now = timezone.now()
    granted = sorted(scopes)
    family = family or new_family()
    access = ACCESS_PREFIX + secrets.token_urlsafe(32)
    refresh = REFRESH_PREFIX + secrets.token_urlsafe(32)
    common = {"client": client, "user": user, "scopes": granted, "resource": resource, "family": family}
    AccessToken.objects.create(token_hash=hash_token(access), expires_at=now + ACCESS_TTL, **common)
    RefreshToken.objects.create(token_hash=hash_token(refresh), expires_at=now + refresh_ttl(client), **common)
    return {
        "access_token": access,
        "token_type": "Bearer",
        "expires_in": int(ACCESS_TTL.total_seconds()),
        "refresh_token": refresh,
        "scope": " ".join(granted),
    }


def revoke_family(family: str) -> None:
    """Revoke every access and refresh token descended from one grant."""
    now = timezone.now()
    AccessToken.objects.filter(family=family, revoked_at__isnull=True).update(revoked_at=now)
    RefreshToken.objects.filter(family=family).exclude(state=RefreshToken.REVOKED).update(state=RefreshToken.REVOKED)
    token_cache.clear()


def refresh(*, client: OAuthClient, raw: str | None, scope: str | None, resource: str) -> dict[str, Any]:
    """Rotate ``raw``: exactly one caller wins (conditional UPDATE). Presenting a rotated token again is
    ``invalid_grant``; it revokes the family only when the rotation is older than REUSE_GRACE.

    Checks come before the UPDATE, so a refused request changes nothing (except a late reuse, which revokes).
    """
    if not raw:
        raise invalid_request("refresh_token is required")
    row = RefreshToken.objects.select_related("user").filter(token_hash=hash_token(raw), client=client).first()
    if row is None:
        raise invalid_grant("The refresh token is invalid, expired or revoked")
    if row.state == RefreshToken.ROTATED:
        return _reused(row)
    if row.state != RefreshToken.ACTIVE or row.expires_at <= timezone.now():
        raise invalid_grant("The refresh token is invalid, expired or revoked")
    if row.resource != resource:
        raise invalid_target(f"This grant is bound to the resource {row.resource}")
    if not row.user.is_active:
        raise invalid_grant("The user account is disabled")
    requested = grants.parse_scope(scope)
    if requested is not None and not set(requested) <= set(row.scopes):
        raise invalid_scope("A refresh may only narrow the granted scopes")
    granted = grants.clamp(row.scopes if requested is None else requested, row.user.role)
    with transaction.atomic():
        won = RefreshToken.objects.filter(pk=row.pk, state=RefreshToken.ACTIVE).update(
            state=RefreshToken.ROTATED, rotated_at=timezone.now()
        )
        if won:
            return issue_pair(client=client, user=row.user, scopes=granted, resource=row.resource, family=row.family)
    row.refresh_from_db(fields=["state", "rotated_at"])  # a concurrent request rotated it first
    return _reused(row)


def _reused(row: RefreshToken) -> dict[str, Any]:
    """A rotated (or, after a lost race, no longer active) token: a fresh rotation is a race, an old one theft."""
    fresh = row.rotated_at is not None and timezone.now() - row.rotated_at <= REUSE_GRACE
    if row.state == RefreshToken.ROTATED and fresh:
        raise invalid_grant("The refresh token was just rotated by another request; use the new refresh token")
    revoke_family(row.family)
    raise invalid_grant("The refresh token was already used; every token of this grant is revoked")


def revoke(*, client: OAuthClient, raw: str | None) -> None:
    """RFC 7009: revoke a refresh token (and its whole family) or one access token; unknown tokens are ignored."""
    if not raw:
        raise invalid_request("token is required")
    token_hash = hash_token(raw)
    refresh_row = RefreshToken.objects.filter(token_hash=token_hash, client=client).first()
    if refresh_row is not None:
        revoke_family(refresh_row.family)
        return
    AccessToken.objects.filter(token_hash=token_hash, client=client, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    token_cache.clear()


def resolve_access_token(raw: str, audience: str | None) -> Actor | None:
    """The actor behind an ``ec_oat_`` token for ``audience`` (one indexed lookup), or None."""
    if audience is None or not raw.startswith(ACCESS_PREFIX):
        return None
    row = AccessToken.objects.select_related("user", "client").filter(token_hash=hash_token(raw)).first()
    if row is None or row.revoked_at is not None or row.expires_at <= timezone.now():
        return None
    if row.resource.rstrip("/") != audience.rstrip("/") or not row.user.is_active:
        return None
    now = timezone.now()
    if row.last_used_at is None or now - row.last_used_at > LAST_USED_RESOLUTION:  # not a write per request
        AccessToken.objects.filter(pk=row.pk).update(last_used_at=now)
    return Actor.for_user(row.user, row.scopes, token_id=f"oauth:{row.pk}", client_id=row.client.client_id)
