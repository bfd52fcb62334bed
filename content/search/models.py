"""The search index table: one row per published, searchable entry.

The full-text structure beside it is created by migration ``content.0003_search`` and kept in step by
database triggers, so plain ORM inserts and deletes are all the indexing code needs:

- SQLite: ``content_search_fts``, an external-content FTS5 table over ``head`` and ``body``;
- PostgreSQL: a ``vector tsvector`` column (``head`` weighted A, ``body`` B, built with the row's ``config``)
  and a GIN index on it.

Altering this table on SQLite would rebuild it and lose the triggers: a migration that does so must recreate them.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class SearchDocument(models.Model):
    collection = models.CharField(max_length=63)
    entry_id = models.CharField(max_length=26)
    locale = models.CharField(max_length=16)
    slug = models.CharField(max_length=200)
    title = models.TextField(blank=True)  # shown in results, whether or not the title field is searchable
    config = models.CharField(max_length=63, default="simple")  # PostgreSQL text search configuration
    head = models.TextField(blank=True)  # the title field's text when it is searchable (ranks higher)
    body = models.TextField(blank=True)  # every other searchable field, as plain text

    class Meta:
        db_table = "content_search_document"
        constraints = [models.UniqueConstraint(fields=["collection", "entry_id"], name="content_search_doc_entry")]
        indexes = [models.Index(fields=["collection", "locale"], name="content_search_doc_coll")]

    def __str__(self) -> str:
        return f"{self.collection}/{self.entry_id}"


class SearchIndexState(models.Model):
    """What each indexed collection's documents were built from (searchable fields, supports, table).

    After a schema change the indexing code compares it with the current schema and rebuilds or drops only
    the collections whose signature changed.
    """

    collection = models.CharField(max_length=63, primary_key=True)
    signature = models.CharField(max_length=64)
    built_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "content_search_state"

    def __str__(self) -> str:
        return f"{self.collection} ({self.signature[:8]})"
