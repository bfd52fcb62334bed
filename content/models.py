"""The schema registry (collections, fields, version stamp) and the revision store.

Entries themselves live in one real table per collection (``ec_<slug>``), built by content.schema.dynamic.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from emdash.models import Provenance, Timestamped


class Collection(Timestamped):
    slug = models.CharField(max_length=63, unique=True)
    label = models.CharField(max_length=200)
    label_singular = models.CharField(max_length=200, blank=True)
    description = models.TextField(blank=True)
    icon = models.CharField(max_length=100, blank=True)
    supports = models.JSONField(default=list)
    table_name = models.CharField(max_length=63, unique=True)

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


class Revision(Provenance):
    """A snapshot of an entry's values, with who made it and how (``Provenance``, SPEC 9.3)."""

    KIND_DRAFT = "draft"
    KIND_PUBLISH = "publish"
    KIND_RESTORE = "restore"
    KIND_AUTOSAVE = "autosave"  # the newest state of an editing session's autosaves, updated in place
    KINDS = [(KIND_DRAFT, "draft"), (KIND_PUBLISH, "publish"), (KIND_RESTORE, "restore"), (KIND_AUTOSAVE, "autosave")]

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
    (content.schema.dynamic); field columns are added there."""

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


class PreviewShare(models.Model):
    """A share link (content.entries.shares): an expiring, revocable address at which anyone can read one item's current
    draft. Only the SHA-256 of the link's secret is stored (like tokens), so a database leak reveals no link."""

    collection = models.CharField(max_length=64)
    entry_id = models.CharField(max_length=64)
    token_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["collection", "entry_id"], name="preview_share_item")]

    def __str__(self) -> str:
        return f"share link for {self.collection}/{self.entry_id}"


class EntrySeo(models.Model):
    """The live SEO of one entry. A side table, not a column of ``ec_<slug>``: it works for every collection,
    old and new, without altering their tables, and a pending edit waits in the draft revision (``_seo``)."""

    collection = models.CharField(max_length=63)
    entry_id = models.CharField(max_length=26)
    data = models.JSONField(default=dict)  # {title?, description?, image?: {id, alt?}, canonical?, noindex?}
    noindex = models.BooleanField(default=False)  # a column too: the sitemap filters on it

    class Meta:
        constraints = [models.UniqueConstraint(fields=["collection", "entry_id"], name="content_seo_entry")]
        indexes = [models.Index(fields=["collection", "noindex"], name="content_seo_noindex")]

    def __str__(self) -> str:
        return f"seo {self.collection}/{self.entry_id}"


class Redirect(models.Model):
    """A 301 from a local path that no longer answers to another local path (kept collapsed: no chains)."""

    KIND_AUTO = "auto"  # recorded when publishing moved an item's URL
    KIND_MANUAL = "manual"

    id = models.CharField(max_length=26, primary_key=True)
    source = models.CharField(max_length=500, unique=True)
    target = models.CharField(max_length=2048)
    kind = models.CharField(max_length=16, default=KIND_MANUAL)
    collection = models.CharField(max_length=63, blank=True)
    entry_id = models.CharField(max_length=26, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["target"], name="content_redirect_target")]

    def __str__(self) -> str:
        return f"{self.source} -> {self.target}"


from content.changesets.models import ChangeSet, ChangeSetEntry  # noqa: E402, F401  (the change set tables)
from content.search.models import SearchDocument, SearchIndexState  # noqa: E402, F401  (the search index tables)


class ChangeStamp(models.Model):
    """One row per cache scope (``content:<collection>``, ``drafts:<collection>``, ``menus``, ``settings``, ...;
    on PostgreSQL up to ``stamps.SHARDS`` rows ``<scope>#<n>`` of one scope) whose ``version`` goes up, in the
    writing transaction, with every change in that scope.

    HTTP validators (ETag, Last-Modified) of lists, search and public pages come from these rows, and each process
    compares them with the versions its cached menus and settings were built from (content/stamps.py): one small
    query per request instead of rebuilding the menu tree and re-reading the settings.
    """

    key = models.CharField(max_length=120, primary_key=True)
    version = models.PositiveBigIntegerField(default=0)
    changed_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.key} v{self.version}"
