"""The abstract base the apps' tables share; the core itself has no tables (users live in ``accounts``)."""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class Timestamped(models.Model):
    """When a row was created and last changed; the writing code sets ``updated_at`` (it is not auto_now, so
    an import can keep the original times)."""

    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        abstract = True
