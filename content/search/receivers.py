"""Signal receivers that keep the index in step with content and schema changes (connected in ContentConfig.ready).

The after-commit receivers never raise: the write they follow has committed, so a failure to index is
logged (``emdash_reindex`` repairs it) rather than turned into an error for a request that succeeded.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.db.models.signals import post_migrate

from content.search import indexing
from content.signals import (
    Batch,
    after_content_migrate,
    current_batch,
    entry_changed,
    entry_deleting,
    entry_publishing,
    schema_changed,
)

log = logging.getLogger("emdash.search")


def on_entry_changed(
    sender: Any, *, collection: str, entry_id: str, action: str, batch: Batch | None = None, **kwargs: Any
) -> None:
    """Bring the entry's document in line with the committed row, once per entry per transaction (the first
    change's pass already read the final state). A created item has no document and needs none: if the same
    transaction published it, its "published" change follows."""
    if action == "created" or (batch is not None and not batch.claim(("index", collection, entry_id))):
        return
    try:
        if action == "deleted":
            indexing.remove_entry(collection, entry_id)
        else:
            # A publish almost always changes the document: write it without first comparing.
            indexing.reindex_entry(collection, entry_id, compare=action != "published")
    except Exception:
        log.exception("search index: could not reindex %s/%s after %s", collection, entry_id, action)


def on_entry_publishing(sender: Any, *, spec: Any, row: Any, **kwargs: Any) -> None:
    """Inside the publish's transaction: write the document from the row in hand (no second transaction, no
    second fsync, no second turn at SQLite's write lock). A failure here only rolls back its savepoint and is
    logged; the publish commits and the after-commit pass tries again."""
    key, batch = ("index", spec.slug, row.id), current_batch()
    try:
        with transaction.atomic():
            indexing.write_document(spec, row)
    except Exception:
        log.exception("search index: could not index %s/%s with its publish; retrying after commit", spec.slug, row.id)
        return
    # Claimed once committed: if a savepoint around the publish rolls back, the after-commit pass still runs.
    transaction.on_commit(lambda: batch.claim(key))


def on_entry_deleting(sender: Any, *, collection: str, entry_id: str, **kwargs: Any) -> None:
    """Inside the permanent delete's transaction: the document goes with the row, or neither goes."""
    indexing.remove_entry(collection, entry_id)


def on_schema_changed(sender: Any, **kwargs: Any) -> None:
    try:
        indexing.reconcile()
    except Exception:
        log.exception("search index: could not follow a schema change; run emdash_reindex")


# After ``migrate`` (first install of the index included): index collections that have no index yet.
on_post_migrate = after_content_migrate("SearchIndexState", lambda: on_schema_changed(None))


def connect() -> None:
    entry_changed.connect(on_entry_changed, dispatch_uid="content.search.entry_changed")
    entry_deleting.connect(on_entry_deleting, dispatch_uid="content.search.entry_deleting")
    entry_publishing.connect(on_entry_publishing, dispatch_uid="content.search.entry_publishing")
    schema_changed.connect(on_schema_changed, dispatch_uid="content.search.schema_changed")
    post_migrate.connect(on_post_migrate, dispatch_uid="content.search.post_migrate")
