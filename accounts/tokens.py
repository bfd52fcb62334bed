"""Personal access tokens: issue, resolve (one indexed lookup on the hash), revoke."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta

from django.utils import timezone

from accounts import token_cache
from accounts.models import PersonalAccessToken, User
from emdash import scopes as scope_table
from emdash.actor import Actor
from emdash.errors import NotFound, ValidationError
from emdash.numbers import plain_int
from emdash.permissions import Perm, require, scopes_for_role
from emdash.roles import role_label

PAT_PREFIX = "ec_pat_"
LAST_USED_RESOLUTION = timedelta(minutes=1)  # don't write on every request
MAX_EXPIRY_DAYS = 3650


def hash_token(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


@dataclass(frozen=True)
class IssuedToken:
    token: PersonalAccessToken
    raw: str  # shown once, never stored


def create_own(*, actor: Actor, name: str, scopes: Iterable[str] | str, expires_days: int | None = None) -> IssuedToken:
    """Issue a token to the signed-in user. A token caller needs the ``admin`` scope (Perm.TOKENS_MANAGE),
    so a leaked narrow token cannot mint itself a wider one."""
    return token_create(user=_own_user(actor), name=name, scopes=scopes, expires_days=expires_days, clamp=True)


def _own_user(actor: Actor) -> User:
    require(actor, Perm.TOKENS_MANAGE)
    if actor.user is None:  # the system actor has every right but no account to hold tokens
        raise ValidationError("API tokens belong to a user account")
    return actor.user


def token_create(
    *, user: User, name: str, scopes: Iterable[str] | str, expires_days: int | None = None, clamp: bool = False
) -> IssuedToken:
    """Issue a token to ``user`` without a permission check (the ``emdash_token`` command, run by operators,
    and :func:`create_own`, which checked it).

    ``clamp``: keep only the scopes the user's role may hold, as OAuth grants do (SPEC 3, 9.1); every surface
    that issues tokens asks for it (the token page, the API, ``emdash_token create``). A scope beyond the role
    would be refused by the role check on every call anyway; clamping says so when the token is made. Unclamped
    tokens are for the project's own tests and scripts."""
    problems: dict[str, str] = {}
    if not isinstance(name, str) or not name.strip() or len(name) > 100:
        problems["name"] = "must be 1-100 characters"
    try:
        granted = scope_table.parse(scopes)
        if not granted:
            problems["scopes"] = "at least one scope is required"
        elif clamp:
            allowed = scopes_for_role(user.role)
            if not granted & allowed:
                held = ", ".join(s.value for s in scope_table.Scope if s in allowed) or "none"
                problems["scopes"] = f"none of these can be held by a {role_label(user.role)} (it may hold: {held})"
            granted &= allowed
    except ValueError as exc:
        problems["scopes"] = str(exc)
        granted = frozenset()
    valid_days = isinstance(expires_days, int) and not isinstance(expires_days, bool)
    if expires_days is not None and not (valid_days and 1 <= expires_days <= MAX_EXPIRY_DAYS):
        problems["expiresDays"] = f"must be a whole number of days from 1 to {MAX_EXPIRY_DAYS}"
    if problems:
        raise ValidationError.for_fields(problems)
    raw = PAT_PREFIX + secrets.token_urlsafe(32)
    token = PersonalAccessToken.objects.create(
        user=user,
        name=name.strip(),
        token_hash=hash_token(raw),
        prefix=raw[: len(PAT_PREFIX) + 4],
        scopes=sorted(s.value for s in granted),
        expires_at=timezone.now() + timedelta(days=expires_days) if expires_days else None,
    )
    return IssuedToken(token, raw)


def revoke_own(*, actor: Actor, token_id: int | str) -> None:
    """Revoke one of the caller's own tokens (someone else's is NOT_FOUND)."""
    user = _own_user(actor)
    if isinstance(token_id, str):
        number = plain_int(token_id)
        if number is None:
            raise NotFound("No such token")
        token_id = number
    token_revoke(user=user, token_id=token_id)


def token_revoke(*, user: User, token_id: int) -> None:
    updated = PersonalAccessToken.objects.filter(pk=token_id, user=user, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    token_cache.clear()  # this process refuses it at once; others within AUTH_CACHE_SECONDS
    if not updated and not PersonalAccessToken.objects.filter(pk=token_id, user=user).exists():
        raise NotFound("No such token")


def resolve_pat(raw: str) -> Actor | None:
    """The actor behind a raw PAT, or None when it is unknown, revoked, expired or its user is inactive."""
    token = (
        PersonalAccessToken.objects.select_related("user").filter(token_hash=hash_token(raw)).first()
        if raw.startswith(PAT_PREFIX)
        else None
    )
    if token is None or not token.is_usable or not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > LAST_USED_RESOLUTION:
        PersonalAccessToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return Actor.for_user(token.user, token.scopes, token_id=f"pat:{token.pk}", token_name=token.name)


def list_own(*, actor: Actor) -> list[PersonalAccessToken]:
    """The caller's own tokens, newest first (revoked ones included, so the list explains itself)."""
    user = _own_user(actor)
    return list(PersonalAccessToken.objects.filter(user=user).order_by("-created_at", "-pk"))
