"""Site settings: one JSON document in one row, so a partial update is a single locked read-merge-write."""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class SiteSettings(models.Model):
    """The only row has id 1. ``data`` holds set keys only (camelCase, as the API shows them); media
    references are stored as ``{mediaId, alt?}`` and resolved to urls on read."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    data = models.JSONField(default=dict)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name_plural = "site settings"

    def __str__(self) -> str:
        return "site settings"
