"""Which starters a site was set up with: the dashboard stops offering them once one was chosen."""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class StarterChoice(models.Model):
    """One row per starter applied (``empty`` included, which creates nothing else). Kept, not derived from the
    schema, because ``empty`` leaves nothing behind that could tell the dashboard a choice was made."""

    name = models.CharField(max_length=32, unique=True)
    chosen_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return self.name
