"""Bylines: the credits shown on content (a staff member's or a guest's name, bio, avatar and site), and which
items credit which bylines, in order."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from emdash.models import Timestamped


class Byline(Timestamped):
    id = models.CharField(max_length=26, primary_key=True)  # ULID
    slug = models.CharField(max_length=200)  # ^[a-z][a-z0-9-]*$, unique per locale
    display_name = models.CharField(max_length=200)
    bio = models.TextField(blank=True, null=True)
    # A media item id; no FK: media sits beside bylines and an avatar outliving its file shows no image.
    avatar_media_id = models.CharField(max_length=26, blank=True, null=True)
    website_url = models.CharField(max_length=2048, blank=True, null=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="bylines"
    )
    is_guest = models.BooleanField(default=False)
    locale = models.CharField(max_length=16)
    translation_group = models.CharField(max_length=26)  # the id of the first variant

    class Meta:
        ordering = ["display_name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["locale", "slug"], name="bylines_unique_slug_per_locale"),
            models.UniqueConstraint(fields=["translation_group", "locale"], name="bylines_one_variant_per_locale"),
        ]
        indexes = [
            models.Index(fields=["display_name", "id"], name="bylines_list_idx"),
            # The author's own byline, read with every entry (bylines/columns.py): in the entry's locale, else
            # any, oldest first; both walk an index with no sort step.
            models.Index(fields=["user", "locale", "created_at", "id"], name="bylines_user_idx"),
            models.Index(fields=["user", "created_at", "id"], name="bylines_user_any_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.slug} ({self.locale})"


class ContentByline(models.Model):
    """An entry (``collection`` slug + entry ULID) credits a byline; ``position`` 0 is the primary credit.
    Entries live in dynamic tables, so no FK to them."""

    byline = models.ForeignKey(Byline, on_delete=models.CASCADE, related_name="credits")
    collection = models.CharField(max_length=63)
    entry_id = models.CharField(max_length=26)
    position = models.PositiveIntegerField()
    role_label = models.CharField(max_length=100, blank=True, null=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["collection", "entry_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["collection", "entry_id", "position"], name="bylines_credit_position"),
            models.UniqueConstraint(fields=["collection", "entry_id", "byline"], name="bylines_credit_once"),
        ]

    def __str__(self) -> str:
        return f"{self.collection}/{self.entry_id}#{self.position} -> {self.byline_id}"
