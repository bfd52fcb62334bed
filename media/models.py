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
    # Where `cover` renditions keep their crop centred, as fractions of the width and height (SPEC 11).
    focal_x = models.FloatField(default=0.5)
    focal_y = models.FloatField(default=0.5)
    # Whether the image has transparent pixels (None: not known yet): `auto` renditions fall back to PNG then.
    has_alpha = models.BooleanField(null=True, default=None)
    # An animated GIF/WebP/PNG has no renditions (they would drop the animation): results offer only its url.
    animated = models.BooleanField(default=False)
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


class MediaRendition(models.Model):
    """A resized copy of an image, stored under a content-addressed key; the row is also the render lock.

    The first request for a rendition inserts the row (``rendering``) and renders; concurrent requests, in any
    process, find the row and wait for ``ready``. A claim older than the lease is taken over with a conditional
    UPDATE, so a crashed renderer never blocks a rendition for good. Deleted with its original (CASCADE; the
    files go after the commit)."""

    RENDERING, READY = "rendering", "ready"

    key = models.CharField(max_length=512, primary_key=True)
    media = models.ForeignKey(MediaItem, on_delete=models.CASCADE, related_name="renditions")
    fit = models.CharField(max_length=16)
    state = models.CharField(max_length=16, default=RENDERING)
    claimed_at = models.DateTimeField(default=timezone.now)
    mime_type = models.CharField(max_length=127, blank=True, default="")
    size = models.PositiveBigIntegerField(null=True, blank=True)
    width = models.PositiveIntegerField(null=True, blank=True)
    height = models.PositiveIntegerField(null=True, blank=True)

    def __str__(self) -> str:
        return self.key


class MediaUsage(models.Model):
    """One place a media item is used: a field of a content item (its image/file value, an inline image of its
    rich text, its SEO image; live or pending in a draft) or a site setting (``collection == "settings"``,
    ``entry_id == ""``). Kept current by ``media.usage`` on every write; ``media_usage_repair`` rebuilds it.
    ``media_id`` is no foreign key: a reference may outlive its item (a forced delete), and the index follows
    the content, not the library. The title is copied so a media page lists its users in one query."""

    SETTINGS = "settings"

    media_id = models.CharField(max_length=26)
    collection = models.CharField(max_length=63)
    entry_id = models.CharField(max_length=26, blank=True, default="")
    field = models.CharField(max_length=255)
    title = models.CharField(max_length=500, blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["media_id", "collection", "entry_id", "field"], name="media_usage_unique")
        ]
        indexes = [models.Index(fields=["collection", "entry_id"], name="media_usage_user_idx")]

    def __str__(self) -> str:
        return f"{self.media_id} in {self.collection}/{self.entry_id}.{self.field}"
