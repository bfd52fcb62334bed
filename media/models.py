"""Media items: one row per stored file, pointing at it by its storage key."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from emdash.models import Timestamped


class MediaItem(Timestamped):
    id = models.CharField(max_length=26, primary_key=True)
    filename = models.CharField(max_length=255)
    mime_type = models.CharField(max_length=127)
    size = models.PositiveBigIntegerField(null=True, blank=True)
    width = models.PositiveIntegerField(null=True, blank=True)
    height = models.PositiveIntegerField(null=True, blank=True)
    alt = models.TextField(blank=True, default="")
    caption = models.TextField(blank=True, default="")
    # Relative to the storage root (MEDIA_ROOT or the bucket prefix). One item per file, so deleting an
    # item can remove its file without breaking another item.
    storage_key = models.CharField(max_length=512, unique=True)
    content_hash = models.CharField(max_length=128, blank=True, default="")
    blurhash = models.CharField(max_length=128, blank=True, default="")
    dominant_color = models.CharField(max_length=16, blank=True, default="")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        indexes = [
            models.Index(fields=["-created_at", "-id"], name="media_created_idx"),
            models.Index(fields=["mime_type", "-created_at", "-id"], name="media_type_created_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.id} {self.filename}"


class UploadReservation(models.Model):
    """A storage key handed out with a signed upload URL, and who asked for it: only that user may register
    the file (the key alone is not enough). Removed when the file is registered or swept."""

    storage_key = models.CharField(max_length=512, primary_key=True)
    # SET_NULL: a deleted requester's upload can no longer be claimed by anyone (the sweep removes it).
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return self.storage_key
