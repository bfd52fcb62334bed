"""The device authorization grant (RFC 8628): start, approve or deny, poll, redeem exactly once."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from accounts.oauth import grants, ratelimit, tokens
from accounts.oauth.clients import DEVICE_GRANT
from accounts.oauth.errors import OAuthError, invalid_grant, invalid_request
from accounts.oauth.models import DeviceCode, OAuthClient
from accounts.tokens import hash_token
from emdash.errors import ValidationError

# No vowels (no words), no 0/O, 1/I/L look-alikes.
USER_CODE_ALPHABET = "BCDFGHJKMNPQRSTVWXZ"
USER_CODE_LENGTH = 8
DEVICE_CODE_TTL = timedelta(seconds=900)
INTERVAL = 5  # seconds between polls
SLOW_DOWN_STEP = 5
MAX_INTERVAL = 60


@dataclass(frozen=True)
class Started:
    row: DeviceCode
    device_code: str  # raw, returned once

    @property
    def user_code(self) -> str:
        return format_user_code(self.row.user_code)


def normalise_user_code(raw: str | None) -> str | None:
    """Case, spaces and hyphens do not matter; None when it cannot be a user code at all."""
    if not isinstance(raw, str):
        return None
    code = "".join(ch for ch in raw.upper() if ch not in " -\t")
    if len(code) != USER_CODE_LENGTH or any(ch not in USER_CODE_ALPHABET for ch in code):
        return None
    return code


def format_user_code(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"


def start(*, client: OAuthClient, scope: str | None, resource: str) -> Started:
    if DEVICE_GRANT not in client.grant_types:
        raise OAuthError("unauthorized_client", "This client may not use the device authorization grant")
    requested = grants.parse_scope(scope)
    for _ in range(5):  # a user code collision is rare; try a fresh one
        raw = secrets.token_urlsafe(32)
        user_code = "".join(secrets.choice(USER_CODE_ALPHABET) for _ in range(USER_CODE_LENGTH))
        try:
            with transaction.atomic():
                row = DeviceCode.objects.create(
                    device_code_hash=hash_token(raw),
                    user_code=user_code,
                    client=client,
                    requested_scopes=requested,
                    resource=resource,
                    interval=INTERVAL,
                    expires_at=timezone.now() + DEVICE_CODE_TTL,
                )
            return Started(row, raw)
        except IntegrityError:
            continue
    raise OAuthError("server_error", "Could not allocate a user code; try again", 503)


def pending(user_code: str) -> DeviceCode | None:
    """The pending, unexpired device authorization for a normalised user code."""
    return (
        DeviceCode.objects.select_related("client")
        .filter(user_code=user_code, status=DeviceCode.PENDING, expires_at__gt=timezone.now())
        .first()
    )


def find_for_approval(raw_code: str | None, *, user_id: int, ip: str) -> DeviceCode:
    """The pending request a user typed the code of; wrong codes count against the user and the IP (429)."""
    subjects = [f"user:{user_id}", f"ip:{ip}"]
    for subject in subjects:
        ratelimit.check("user_code_miss", subject)
    code = normalise_user_code(raw_code)
    row = pending(code) if code else None
    if row is None:
        for subject in subjects:
            ratelimit.hit("user_code_miss", subject)
        raise ValidationError("That code is unknown, expired or already used. Check it and try again.")
    return row


def decide(*, user: User, user_code: str, approve: bool) -> DeviceCode:
    """Approve (scopes clamped to the user's role) or deny a pending code; only one decision ever sticks."""
    row = pending(user_code)
    if row is None:
        raise ValidationError("That code is unknown, expired or already used")
    granted = grants.clamp(row.requested_scopes, user.role) if approve else []
    if approve and not granted:
        raise ValidationError("None of the requested scopes are available to your role")
    updated = DeviceCode.objects.filter(pk=row.pk, status=DeviceCode.PENDING, expires_at__gt=timezone.now()).update(
        status=DeviceCode.APPROVED if approve else DeviceCode.DENIED, user=user, granted_scopes=granted
    )
    if not updated:
        raise ValidationError("That code is unknown, expired or already used")
    row.refresh_from_db()
    return row


def poll(*, client: OAuthClient, device_code: str | None) -> dict[str, Any]:
    """One token-endpoint poll: pending / slow_down / denied / expired, or the tokens (exactly once)."""
    if not device_code:
        raise invalid_request("device_code is required")
    row = DeviceCode.objects.select_related("user").filter(device_code_hash=hash_token(device_code)).first()
    if row is None or row.client_id != client.pk:  # bound to the client that asked for it
        raise invalid_grant("Unknown device_code")
    now = timezone.now()
    if row.status == DeviceCode.REDEEMED:
        raise invalid_grant("This device code was already used")
    if row.expires_at <= now:
        raise OAuthError("expired_token", "The device code expired; start again")
    if row.status == DeviceCode.DENIED:
        raise OAuthError("access_denied", "The request was denied")
    if row.status == DeviceCode.PENDING:
        _pending_poll(row, now)
    redeemed = DeviceCode.objects.filter(pk=row.pk, client=client, status=DeviceCode.APPROVED).update(
        status=DeviceCode.REDEEMED
    )
    if not redeemed or row.user is None:
        raise invalid_grant("This device code was already used")
    if not row.user.is_active:
        raise invalid_grant("The user account is disabled")
    return tokens.issue_pair(client=client, user=row.user, scopes=row.granted_scopes, resource=row.resource)


def _pending_poll(row: DeviceCode, now: Any) -> None:
    """Answer a poll of a pending code: slow_down when it came sooner than the interval, else pending."""
    last = row.last_polled_at
    if last is not None and (now - last).total_seconds() < row.interval:
        interval = min(row.interval + SLOW_DOWN_STEP, MAX_INTERVAL)
        DeviceCode.objects.filter(pk=row.pk).update(interval=interval, last_polled_at=now)
        raise OAuthError("slow_down", f"Polling too fast; wait {interval} s between requests")
    DeviceCode.objects.filter(pk=row.pk).update(last_polled_at=now)
    raise OAuthError("authorization_pending", "Waiting for the user to approve the request")
