"""The row a write may touch: shared by entry edits and publishing, so neither imports the other."""

from __future__ import annotations

from typing import Any

from content import rows
from content.models import EntryBase
from content.schema import CollectionSpec
from emdash.actor import Actor
from emdash.permissions import Perm, require, require_owner_or


def owned_row(actor: Actor, spec: CollectionSpec, ident: Any, *, trashed: bool = False) -> EntryBase:
    """The locked row, if the actor may edit it (their own, or anyone's with CONTENT_EDIT_ANY)."""
    require(actor, Perm.CONTENT_EDIT_OWN)
    row = rows.find(spec, ident, trashed=trashed, for_update=True)
    require_owner_or(actor, row.author_id, Perm.CONTENT_EDIT_OWN, Perm.CONTENT_EDIT_ANY)
    return row
