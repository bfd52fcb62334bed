"""Signals other apps hook into (search index, term assignments, live admin updates).

``entry_changed`` is sent after the transaction commits, with ``collection`` (slug), ``entry_id`` and
``action`` (created, updated, published, unpublished, scheduled, unscheduled, draft_discarded, trashed,
restored, deleted), and ``batch``: one token for all the changes one transaction committed, so a receiver
that acts on the committed state (the search index) can do it once per entry however many changes there
were. ``entry_deleting`` is sent inside the transaction of a permanent delete so dependent rows go with it.
``entry_publishing`` is sent inside a publish's transaction once the row holds its live values (``spec``,
``row``), so data derived from them (the search document) commits with the publish. ``schema_changed`` is
sent after any collection or field change commits.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import Signal

entry_changed = Signal()
entry_deleting = Signal()
entry_publishing = Signal()
schema_changed = Signal()


def send_entry_changed(collection: str, entry_id: str, action: str, actor: Any) -> None:
    batch = _batch()
    transaction.on_commit(
        lambda: entry_changed.send(
            sender=None, collection=collection, entry_id=entry_id, action=action, actor=actor, batch=batch
        )
    )


def current_batch() -> object:
    """The token the changes of the current transaction will carry (see ``entry_changed``)."""
    return _batch()


def _batch() -> object:
    """This transaction's token. Django gives each transaction (and each savepoint rollback) a new list of commit
    hooks, so the list tells transactions apart; a rollback to a savepoint only ever splits a batch in two, which
    costs a receiver a second pass, never a missed one."""
    conn = transaction.get_connection()
    if not conn.in_atomic_block:
        return object()  # autocommit: the hook runs at once, alone
    hooks = conn.run_on_commit
    if getattr(conn, "_emdash_batch_hooks", None) is not hooks:
        conn._emdash_batch_hooks = hooks  # type: ignore[attr-defined]
        conn._emdash_batch = object()  # type: ignore[attr-defined]
    return conn._emdash_batch  # type: ignore[attr-defined]
