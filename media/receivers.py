"""Keep the media usage index in step with content (connected in MediaConfig.ready).

The after-commit receivers never raise: the write they follow has committed, so a failure is logged and
``media_usage_repair`` mends the index, rather than a request that succeeded turning into an error.
"""

from __future__ import annotations

import logging
from typing import Any

from content.signals import Batch, entry_changed, entry_deleting, schema_changed
from media import usage

log = logging.getLogger("emdash.media")


def on_entry_changed(
    sender: Any,
    *,
    collection: str,
    entry_id: str,
    action: str,
    batch: Batch | None = None,
    written: Any = None,
    **kwargs: Any,
) -> None:
    """Once per item per transaction: the first pass reads the committed state, which is the final one; a create
    that was the transaction's only change of the item uses the row it wrote (no read)."""
    if batch is not None and not batch.claim(("media-usage", collection, entry_id)):
        return
    try:
        if action == "deleted":
            usage.forget_entry(collection, entry_id)
        elif action == "created" and written is not None and _only_change(batch, collection, entry_id):
            usage.index_created(collection, entry_id, *written)
        else:
            usage.reindex_entry(collection, entry_id, new=action == "created")  # the batch's first change
    except Exception:
        log.exception("media usage: could not reindex %s/%s after %s", collection, entry_id, action)


def _only_change(batch: Batch | None, collection: str, entry_id: str) -> bool:
    return batch is not None and batch.changes(collection, entry_id) == 1


def on_entry_deleting(sender: Any, *, collection: str, entry_id: str, **kwargs: Any) -> None:
    """Inside the permanent delete's transaction: the item's uses go with it."""
    usage.forget_entry(collection, entry_id)


def on_schema_changed(sender: Any, **kwargs: Any) -> None:
    try:
        usage.follow_schema()
    except Exception:
        log.exception("media usage: could not follow a schema change; run media_usage_repair")


def connect() -> None:
    entry_changed.connect(on_entry_changed, dispatch_uid="media.usage.entry_changed")
    entry_deleting.connect(on_entry_deleting, dispatch_uid="media.usage.entry_deleting")
    schema_changed.connect(on_schema_changed, dispatch_uid="media.usage.schema_changed")
