"""Signals other apps hook into (search index, term assignments, live admin updates).

``entry_changed`` is sent after the transaction commits, with ``collection`` (slug), ``entry_id`` and
``action`` (created, updated, published, unpublished, scheduled, unscheduled, draft_discarded, trashed,
restored, deleted). ``entry_deleting`` is sent inside the transaction of a permanent delete so dependent
rows go with it. ``schema_changed`` is sent after any collection or field change commits.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import Signal

entry_changed = Signal()
entry_deleting = Signal()
schema_changed = Signal()


def send_entry_changed(collection: str, entry_id: str, action: str, actor: Any) -> None:
    transaction.on_commit(
        lambda: entry_changed.send(sender=None, collection=collection, entry_id=entry_id, action=action, actor=actor)
    )
