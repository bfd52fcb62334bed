"""Authorization codes: issue (10 minutes), redeem exactly once with PKCE S256, bound to client and redirect URI."""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.utils import timezone

from accounts.models import User
from accounts.oauth import tokens
from accounts.oauth.errors import invalid_grant, invalid_request, invalid_target
from accounts.oauth.models import AuthorizationCode, OAuthClient
from accounts.tokens import hash_token

CODE_TTL = timedelta(minutes=10)
VERIFIER_RE = re.compile(r"^[A-Za-z0-9\-._~]{43,128}$")
CHALLENGE_RE = re.compile(r"^[A-Za-z0-9\-_]{43}$")  # base64url of a SHA-256, unpadded


def s256(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()


def issue_code(
    *, client: OAuthClient, user: User, redirect_uri: str, scopes: Iterable[str], resource: str, code_challenge: str
) -> str:
    raw = secrets.token_urlsafe(32)
    AuthorizationCode.objects.create(
        code_hash=hash_token(raw),
        client=client,
        user=user,
        redirect_uri=redirect_uri,
        scopes=sorted(scopes),
        resource=resource,
        code_challenge=code_challenge,
        family=tokens.new_family(),
        expires_at=timezone.now() + CODE_TTL,
    )
    return raw


def redeem_code(
    *, client: OAuthClient, raw: str | None, redirect_uri: str | None, verifier: str | None, resource: str | None
) -> dict[str, Any]:
    """Exchange a code for tokens. The code is spent by a conditional UPDATE before anything else is checked,
    so it works at most once even under concurrent requests; a replay revokes what the code issued."""
    if not raw:
        raise invalid_request("code is required")
    if not verifier or not VERIFIER_RE.match(verifier):
        raise invalid_request("code_verifier is required (43-128 characters of A-Z a-z 0-9 - . _ ~)")
    code_hash = hash_token(raw)
    now = timezone.now()
    spent = AuthorizationCode.objects.filter(
        code_hash=code_hash, client=client, used_at__isnull=True, expires_at__gt=now
    ).update(used_at=now)
    row = AuthorizationCode.objects.select_related("user").filter(code_hash=code_hash, client=client).first()
    if not spent or row is None:
        if row is not None and row.used_at is not None:
            tokens.revoke_family(row.family)  # RFC 6749 4.1.2: a replayed code revokes its tokens
        raise invalid_grant("The authorization code is invalid, expired or already used")
    if redirect_uri != row.redirect_uri:
        raise invalid_grant("redirect_uri does not match the authorization request")
    if not secrets.compare_digest(s256(verifier), row.code_challenge):
        raise invalid_grant("PKCE verification failed")
    if resource and resource.rstrip("/") != row.resource.rstrip("/"):
        raise invalid_target(f"This code is bound to the resource {row.resource}")
    if not row.user.is_active:
        raise invalid_grant("The user account is disabled")
    return tokens.issue_pair(client=client, user=row.user, scopes=row.scopes, resource=row.resource, family=row.family)
