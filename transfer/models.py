"""What a WordPress import has made, so importing the same file again (or resuming a stopped import) creates
nothing twice."""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class WordPressLink(models.Model):
    """One WordPress object (a post, an attachment, a term, a menu) and what it became here."""

    site = models.CharField(max_length=500)  # the export's site address: two sites' post 12 are different posts
    kind = models.CharField(max_length=16)  # item | media | term | menu
    wp_id = models.CharField(max_length=255)  # post id, or taxonomy:slug for terms
    collection = models.CharField(max_length=63, blank=True)
    target = models.CharField(max_length=255)  # entry, media or term id; menu name
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["site", "kind", "wp_id"], name="transfer_wp_link_unique")]

    def __str__(self) -> str:
        return f"{self.site} {self.kind} {self.wp_id} -> {self.target}"
