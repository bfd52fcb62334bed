"""The change set tables: a set with its review state, and one entry per item it changes.

An entry pins what was reviewed (the item's draft revision, or its row version where the collection keeps no
draft revisions) and, once published, what the item was before, so the whole set can be taken back.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class ChangeSet(models.Model):
    OPEN = "open"
    SUBMITTED = "submitted"
    APPROVED = "approved"
    PUBLISHED = "published"
    REJECTED = "rejected"
    CANCELLED = "cancelled"
    STATES = [(s, s) for s in (OPEN, SUBMITTED, APPROVED, PUBLISHED, REJECTED, CANCELLED)]
    id = models.CharField(max_length=26, primary_key=True)
    title = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    state = models.CharField(max_length=16, choices=STATES, default=OPEN)
    creator = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    reviewer = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    comment = models.TextField(blank=True)  # the reviewer's comment (why it was rejected, notes on approval)
    scheduled_at = models.DateTimeField(null=True)
    failure = models.JSONField(null=True)  # a scheduled publish that failed: {"at", "message", "items"}
    submitted_at = models.DateTimeField(null=True)
    reviewed_at = models.DateTimeField(null=True)
    published_at = models.DateTimeField(null=True)
    reverted_at = models.DateTimeField(null=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    version = models.PositiveIntegerField(default=1)  # every state change is a conditional UPDATE on it

    class Meta:
        db_table = "content_changeset"
        indexes = [
            models.Index(fields=["state", "-created_at", "-id"], name="content_cs_state_idx"),
            models.Index(fields=["-created_at", "-id"], name="content_cs_created_idx"),
            models.Index(fields=["scheduled_at"], name="content_cs_scheduled_idx"),
        ]

    def __str__(self) -> str:
        return f"changeset {self.id} ({self.state})"


class ChangeSetEntry(models.Model):
    PUBLISH = "publish"
    UNPUBLISH = "unpublish"
    DELETE = "delete"
    ACTIONS = [(a, a) for a in (PUBLISH, UNPUBLISH, DELETE)]

    changeset = models.ForeignKey(ChangeSet, on_delete=models.CASCADE, related_name="entries")
    collection = models.CharField(max_length=63)
    entry_id = models.CharField(max_length=26)
    action = models.CharField(max_length=16, choices=ACTIONS, default=PUBLISH)
    added_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    pinned_revision_id = models.CharField(max_length=26, null=True)  # the draft revision under review
    pinned_version = models.PositiveIntegerField(default=0)  # the row's version when pinned
    # Filled by publishing, read by revert: the item as it was (status, slug, values, live revision, trashed)
    # and its row version right after the set changed it ("edited since" = a different version).
    before = models.JSONField(null=True)
    live_revision_before = models.CharField(max_length=26, null=True)
    version_after = models.PositiveIntegerField(null=True)
    reverted = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "content_changeset_entry"
        constraints = [
            models.UniqueConstraint(fields=["changeset", "collection", "entry_id"], name="content_cs_entry_unique")
        ]
        indexes = [models.Index(fields=["collection", "entry_id"], name="content_cs_entry_item_idx")]

    def __str__(self) -> str:
        return f"{self.changeset_id}: {self.action} {self.collection}/{self.entry_id}"
