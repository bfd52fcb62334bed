"""The schema registry (collections, fields, version stamp) and the revision store.

Entries themselves live in one real table per collection (``ec_<slug>``), built by content.dynamic.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class Collection(models.Model):
    slug = models.CharField(max_length=63, unique=True)
    label = models.CharField(max_length=200)
    label_singular = models.CharField(max_length=200, blank=True)
    description = models.TextField(blank=True)
    icon = models.CharField(max_length=100, blank=True)
    supports = models.JSONField(default=list)
    table_name = models.CharField(max_length=63, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["slug"]

    def __str__(self) -> str:
        return self.slug


class Field(models.Model):
    collection = models.ForeignKey(Collection, on_delete=models.CASCADE, related_name="fields")
    slug = models.CharField(max_length=63)
    label = models.CharField(max_length=200)
    type = models.CharField(max_length=32)
    required = models.BooleanField(default=False)
    unique = models.BooleanField(default=False)
    default_value = models.JSONField(null=True, blank=True)
    validation = models.JSONField(default=dict, blank=True)
    options = models.JSONField(default=dict, blank=True)
    searchable = models.BooleanField(default=False)
    translatable = models.BooleanField(default=True)
    position = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["collection_id", "position", "id"]
        constraints = [models.UniqueConstraint(fields=["collection", "slug"], name="content_field_unique_slug")]

    def __str__(self) -> str:
        return f"{self.collection_id}.{self.slug}"


class SchemaState(models.Model):
    """One row whose ``version`` goes up with every schema change, in the same transaction as the DDL.

    Each process compares it with the version its cached model classes were built from.
    """

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    version = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"schema v{self.version}"


class Revision(models.Model):
    KIND_DRAFT = "draft"
    KIND_PUBLISH = "publish"
    KIND_RESTORE = "restore"
    KINDS = [(KIND_DRAFT, "draft"), (KIND_PUBLISH, "publish"), (KIND_RESTORE, "restore")]

    id = models.CharField(max_length=26, primary_key=True)
    collection = models.CharField(max_length=63)
    entry_id = models.CharField(max_length=26)
    kind = models.CharField(max_length=16, choices=KINDS, default=KIND_DRAFT)
    data = models.JSONField(default=dict)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["collection", "entry_id", "-created_at"], name="content_rev_entry_idx")]

    def __str__(self) -> str:
        return f"{self.collection}/{self.entry_id}@{self.id}"


class EntryBase(models.Model):
    """The system columns every ``ec_<slug>`` table has. Concrete classes are built per collection at run time
    (content.dynamic); field columns are added there."""

    id = models.CharField(max_length=26, primary_key=True)
    slug = models.CharField(max_length=200)
    status = models.CharField(max_length=16, default="draft")
    author_id = models.BigIntegerField(null=True)
    created_at = models.DateTimeField()
    updated_at = models.DateTimeField()
    published_at = models.DateTimeField(null=True)
    scheduled_at = models.DateTimeField(null=True)
    deleted_at = models.DateTimeField(null=True)
    version = models.PositiveIntegerField(default=1)
    live_revision_id = models.CharField(max_length=26, null=True)
    draft_revision_id = models.CharField(max_length=26, null=True)
    locale = models.CharField(max_length=16)
    translation_group = models.CharField(max_length=26)

    objects = models.Manager()

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return f"{self._meta.db_table}/{self.id}"


from content.search.models import SearchDocument, SearchIndexState  # noqa: E402, F401  (the search index tables)
