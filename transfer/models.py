"""What a WordPress import has made, so importing the same file again (or resuming a stopped import) creates
nothing twice."""

from __future__ import annotations

from django.conf import settings
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


class ImportJob(models.Model):
    """An import started from the admin's Tools page (SPEC 12): the uploaded file waits under the var directory
    until the worker runs it; the page shows ``progress`` while it runs and ``report`` once it is done."""

    WORDPRESS, ARCHIVE = "wordpress", "archive"
    QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"

    kind = models.CharField(max_length=16)
    status = models.CharField(max_length=16, default=QUEUED)
    filename = models.CharField(max_length=255)
    path = models.CharField(max_length=1024)  # the uploaded copy (removed when the job ends)
    progress = models.JSONField(default=dict)  # {step, done, total}
    report = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True, default="")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["-created_at"], name="transfer_job_created_idx")]

    def __str__(self) -> str:
        return f"{self.kind} import {self.pk} ({self.status})"

    @property
    def finished(self) -> bool:
        return self.status in (self.DONE, self.FAILED)
