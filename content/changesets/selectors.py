"""Reading change sets: the list (newest first, by state) and one set with its reviewed entries."""

from __future__ import annotations

from typing import Any

from django.db.models import Count

from content.changesets import review
from content.changesets.models import ChangeSet
from content.changesets.presenters import changeset_dict
from content.changesets.services import not_found
from emdash import cursors
from emdash.actor import Actor
from emdash.errors import InvalidCursor, ValidationError
from emdash.permissions import Perm, require

STATES = tuple(state for state, _ in ChangeSet.STATES)


def changeset_list(
    *, actor: Actor, state: str | None = None, limit: int = 50, cursor: str | None = None
) -> dict[str, Any]:
    """``{items, nextCursor?}``, newest first; ``state`` keeps one state (e.g. submitted: the review queue)."""
    require(actor, Perm.CHANGESET_READ)
    qs = ChangeSet.objects.select_related("creator", "reviewer").annotate(count=Count("entries"))
    if state is not None:
        if state not in STATES:
            raise ValidationError.for_fields({"state": f"must be one of: {', '.join(STATES)}"})
        qs = qs.filter(state=state)
    key = f"changesets:{state}"
    if cursor is not None:
        position = cursors.decode(cursor, key)
        if len(position) != 2 or not all(isinstance(part, str) for part in position):
            raise InvalidCursor("Invalid cursor: pass the nextCursor value from the previous page unchanged")
        created, last_id = position
        qs = qs.filter(created_at__lte=created).exclude(created_at=created, id__gte=last_id)
    found = list(qs.order_by("-created_at", "-id")[: limit + 1])
    page: dict[str, Any] = {"items": [changeset_dict(cs, cs.count) for cs in found[:limit]]}
    if len(found) > limit:
        last = found[limit - 1]
        page["nextCursor"] = cursors.encode(key, [last.created_at.isoformat(), last.id])
    return page


def changeset_get(*, actor: Actor, id: str) -> dict[str, Any]:
    """The set with, per entry, the item, its action, the diff of draft vs live, problems and affected URLs."""
    require(actor, Perm.CHANGESET_READ)
    changeset = ChangeSet.objects.select_related("creator", "reviewer").filter(id=id).first()
    if changeset is None:
        raise not_found(id)
    settled = changeset.state in (ChangeSet.PUBLISHED, ChangeSet.CANCELLED)
    entries = [review.inspect(entry, settled=settled) for entry in changeset.entries.order_by("id")]
    return {**changeset_dict(changeset, len(entries)), "entries": entries}


def revertible(id: str) -> bool:
    """A published set with items still to take back (a partial revert leaves the skipped ones)."""
    return ChangeSet.objects.filter(id=id, state=ChangeSet.PUBLISHED, entries__reverted=False).exists()
