"""Signals other apps hook into (search index, term assignments, live admin updates).

``entry_changed`` is sent after the transaction commits, with ``collection`` (slug), ``entry_id`` and
``action`` (created, updated, published, unpublished, scheduled, unscheduled, draft_discarded, trashed,
restored, deleted), ``written`` (what a create wrote: ``(row, seo)``; else None) and ``batch``: the
:class:`Batch` of all the changes one transaction committed, where a receiver that acts on the committed state
(the search index) notes what it has done, so it does it once per entry however many changes there were.
``entry_deleting`` is sent inside the transaction of a permanent
delete so dependent rows go with it. ``entry_publishing`` is sent inside a publish's transaction once the row
holds its live values (``spec``, ``row``), so data derived from them (the search document) commits with the
publish. ``schema_changed`` is sent after any collection or field change commits.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.dispatch import Signal

from content import stamps
from emdash import purge
from emdash.http_cache import CONTENT_KEY, collection_key, item_key

entry_changed = Signal()
entry_deleting = Signal()
entry_publishing = Signal()
schema_changed = Signal()
# A change set moved (SPEC 9.2): ``changeset`` (its presented dict), ``event`` (submitted, approved, rejected,
# published, reverted) and ``actor``; sent after the transaction commits.
changeset_changed = Signal()


class Batch:
    """The changes one transaction committed: receivers keep their per-transaction state here."""

    __slots__ = ("_changes", "_claimed", "_values")

    def __init__(self) -> None:
        self._claimed: set[Any] = set()
        self._values: dict[Any, Any] = {}
        self._changes: dict[tuple[str, str], int] = {}

    def changes(self, collection: str, entry_id: str) -> int:
        """How many changes of this entry the transaction committed (complete once it has committed)."""
        return self._changes.get((collection, entry_id), 0)

    def changed(self, collection: str, entry_id: str) -> None:
        self._changes[(collection, entry_id)] = self.changes(collection, entry_id) + 1

    def claim(self, key: Any) -> bool:
        """True the first time ``key`` is claimed in this batch (the caller does the work), False after."""
        if key in self._claimed:
            return False
        self._claimed.add(key)
        return True

    def value(self, key: Any, compute: Callable[[], Any]) -> Any:
        """``compute()``, once per batch for ``key``."""
        if key not in self._values:
            self._values[key] = compute()
        return self._values[key]


def send_entry_changed(
    collection: str, entry_id: str, action: str, actor: Any, *, shown: bool = True, written: Any = None
) -> None:
    """``shown``: the change may alter what visitors see (the item is or was published). A change only editors
    see (a draft's create or edit) raises the collection's drafts stamp alone and purges nothing: visitors' lists
    and pages, and the shared caches holding them, stay valid. ``written``: what the change wrote, as the writer
    holds it (a create: its row and SEO), for receivers to use instead of reading the entry back when this was
    the transaction's only change of it (``Batch.changes``)."""
    batch = current_batch()
    batch.changed(collection, entry_id)
    # In the writing transaction: the validators of lists, search and pages move with the data, and the shared
    # caches drop what showed the item once it commits.
    scope = stamps.public(collection) if shown else stamps.drafts(collection)
    if batch.claim(("stamps", scope)):
        stamps.bump(scope)  # "content" is derived from the public ones (content/stamps.py)
    if shown:
        purge.schedule([item_key(entry_id), collection_key(collection), CONTENT_KEY])
    transaction.on_commit(
        lambda: entry_changed.send(
            sender=None,
            collection=collection,
            entry_id=entry_id,
            action=action,
            actor=actor,
            batch=batch,
            written=written,
        )
    )


def send_changeset_changed(changeset: Callable[[], dict[str, Any]], event: str, actor: Any) -> None:
    """``changeset`` is read after the commit, so receivers see the set as it was committed."""
    transaction.on_commit(lambda: changeset_changed.send(sender=None, changeset=changeset(), event=event, actor=actor))


def current_batch() -> Batch:
    """The batch the changes of the current transaction will carry. Django gives each transaction (and each
    savepoint rollback) a new list of commit hooks, so the list tells transactions apart; a rollback to a savepoint
    only ever splits a batch in two, which costs a receiver a second pass, never a missed one."""
    conn = transaction.get_connection()
    if not conn.in_atomic_block:
        return Batch()  # autocommit: the hook runs at once, alone
    hooks = conn.run_on_commit
    if getattr(conn, "_emdash_batch_hooks", None) is not hooks:
        conn._emdash_batch_hooks = hooks  # type: ignore[attr-defined]
        conn._emdash_batch = Batch()  # type: ignore[attr-defined]
    batch: Batch = conn._emdash_batch  # type: ignore[attr-defined]
    return batch


def after_content_migrate(model: str, then: Callable[[], Any]) -> Callable[..., None]:
    """A ``post_migrate`` receiver that calls ``then`` once the content app is migrated, unless it was migrated
    back to before its model ``model`` existed (the table ``then`` needs is not there)."""

    def receiver(sender: Any, **kwargs: Any) -> None:
        if getattr(sender, "name", None) != "content":
            return
        try:
            kwargs["apps"].get_model("content", model)
        except (KeyError, LookupError):
            return
        then()

    return receiver
