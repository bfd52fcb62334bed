"""Share links: an expiring, revocable address at which anyone can read one item's current draft."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class PreviewShare(models.Model):
    """Only the SHA-256 of the link's secret is stored (like tokens), so a database leak reveals no link."""

    collection = models.CharField(max_length=64)
    entry_id = models.CharField(max_length=64)
    token_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["collection", "entry_id"], name="preview_share_item")]

    def __str__(self) -> str:
        return f"share link for {self.collection}/{self.entry_id}"
