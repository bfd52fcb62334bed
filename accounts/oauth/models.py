"""OAuth tables: clients, authorization codes, device codes, access and refresh tokens (secrets stored hashed).

State changes that must happen exactly once (using a code, redeeming a device code, rotating a refresh
token) are conditional UPDATEs on these rows; see ``codes``, ``device`` and ``tokens``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class OAuthClient(models.Model):
    """A registered client. Only public clients exist (``token_endpoint_auth_method: none``)."""

    client_id = models.CharField(max_length=100, unique=True)
    name = models.CharField(max_length=200)
    redirect_uris = models.JSONField(default=list)
    grant_types = models.JSONField(default=list)
    scope = models.TextField(blank=True)  # what the client asked for at registration (informational)
    registered_dynamically = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.client_id})"


class AuthorizationCode(models.Model):
    """A single-use authorization code, bound to its client, redirect URI, PKCE challenge and resource."""

    code_hash = models.CharField(max_length=64, unique=True)
    client = models.ForeignKey(OAuthClient, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    redirect_uri = models.TextField()
    scopes = models.JSONField(default=list)
    resource = models.TextField()
    code_challenge = models.CharField(max_length=128)
    family = models.CharField(max_length=32)  # tokens issued from this code; revoked if the code is replayed
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"code for {self.client_id} ({'used' if self.used_at else 'unused'})"


class DeviceCode(models.Model):
    """An RFC 8628 device authorization: pending → approved/denied → redeemed."""

    PENDING, APPROVED, DENIED, REDEEMED = "pending", "approved", "denied", "redeemed"
    STATUS_CHOICES = [(s, s) for s in (PENDING, APPROVED, DENIED, REDEEMED)]

    device_code_hash = models.CharField(max_length=64, unique=True)
    user_code = models.CharField(max_length=8, unique=True)  # normalised: 8 letters, no hyphen
    client = models.ForeignKey(OAuthClient, on_delete=models.CASCADE, related_name="+")
    requested_scopes = models.JSONField(null=True, blank=True)  # None: whatever the approving role allows
    resource = models.TextField()
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=PENDING)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    granted_scopes = models.JSONField(default=list)
    interval = models.PositiveSmallIntegerField(default=5)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    last_polled_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"device code {self.user_code[:4]}-{self.user_code[4:]} ({self.status})"


class IssuedToken(models.Model):
    """What access and refresh tokens share: the secret's hash, who it speaks for, what it may do, and the
    refresh-token chain (``family``) it belongs to, so a replayed refresh token revokes the whole chain."""

    token_hash = models.CharField(max_length=64, unique=True)
    client = models.ForeignKey(OAuthClient, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    scopes = models.JSONField(default=list)
    resource = models.TextField()
    family = models.CharField(max_length=32, db_index=True)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()

    class Meta:
        abstract = True


class AccessToken(IssuedToken):
    """An ``ec_oat_…`` token. ``family`` ties it to the refresh-token chain it came from."""

    revoked_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)  # to the minute (tokens.LAST_USED_RESOLUTION)

    def __str__(self) -> str:
        return f"access token {self.pk} for {self.client_id}"


class RefreshToken(IssuedToken):
    """An ``ec_ort_…`` token; each use rotates it (active → rotated) and issues a new one in the same family."""

    ACTIVE, ROTATED, REVOKED = "active", "rotated", "revoked"
    STATE_CHOICES = [(s, s) for s in (ACTIVE, ROTATED, REVOKED)]

    state = models.CharField(max_length=8, choices=STATE_CHOICES, default=ACTIVE)
    rotated_at = models.DateTimeField(null=True, blank=True)  # tells a race (within tokens.REUSE_GRACE) from theft

    def __str__(self) -> str:
        return f"refresh token {self.pk} ({self.state})"
