"""The row a write may touch: shared by entry edits and publishing, so neither imports the other."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import transaction

from content.entries import rows
from content.models import EntryBase
from content.schema.specs import CollectionSpec
from emdash.actor import Actor
from emdash.permissions import Perm, require, require_owner_or


def owned_row(
    actor: Actor, spec: CollectionSpec, ident: Any, *, trashed: bool = False, go_live: bool = False
) -> EntryBase:
    """The locked row, if the actor may edit it (their own, or anyone's with CONTENT_EDIT_ANY). ``go_live``:
    the change is one the public sees (publish, trash, ...), which needs CONTENT_GO_LIVE (content:write) too."""
    if go_live:
        require(actor, Perm.CONTENT_GO_LIVE)
    require(actor, Perm.CONTENT_EDIT_OWN)
    row = rows.find(spec, ident, trashed=trashed, for_update=True)
    require_owner_or(actor, row.author_id, Perm.CONTENT_EDIT_OWN, Perm.CONTENT_EDIT_ANY)
    return row


@contextmanager
def editing(
    actor: Actor, spec: CollectionSpec, ident: Any, *, trashed: bool = False, go_live: bool = False
) -> Iterator[EntryBase]:
    """A transaction holding the row the actor may edit (:func:`owned_row`): the change and its row commit
    together."""
    with transaction.atomic():
        yield owned_row(actor, spec, ident, trashed=trashed, go_live=go_live)
