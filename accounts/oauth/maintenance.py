"""Housekeeping: delete OAuth rows that can no longer matter (expired codes and tokens)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from accounts.oauth.models import AccessToken, AuthorizationCode, DeviceCode, RefreshToken

GRACE = timedelta(days=1)  # keep recent rows for support questions ("why was I logged out?")


def prune_expired() -> dict[str, int]:
    """Delete expired rows; counts per table.

    Rotated refresh tokens stay until they expire: they are what detects a replayed (stolen) refresh token.
    """
    cutoff = timezone.now() - GRACE
    counts = {
        "authorization codes": AuthorizationCode.objects.filter(expires_at__lt=cutoff).delete()[0],
        "device codes": DeviceCode.objects.filter(expires_at__lt=cutoff).delete()[0],
        "access tokens": AccessToken.objects.filter(expires_at__lt=cutoff).delete()[0],
        "refresh tokens": RefreshToken.objects.filter(expires_at__lt=cutoff).delete()[0],
    }
    return counts
