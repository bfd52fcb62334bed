"""Change sets as every door shows them (camelCase keys, ISO dates, absent keys instead of nulls)."""

from __future__ import annotations

from typing import Any

from content.changesets.models import ChangeSet
from emdash.dates import iso


def _person(user: Any) -> dict[str, Any] | None:
    return None if user is None else {"id": str(user.pk), "email": user.email, "name": user.name or ""}


def changeset_dict(changeset: ChangeSet, entry_count: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": changeset.id,
        "title": changeset.title,
        "description": changeset.description,
        "state": changeset.state,
        "comment": changeset.comment,
        "entryCount": changeset.entries.count() if entry_count is None else entry_count,
        "createdAt": iso(changeset.created_at),
        "updatedAt": iso(changeset.updated_at),
    }
    for key, value in (("creator", changeset.creator), ("reviewer", changeset.reviewer)):
        if (person := _person(value)) is not None:
            out[key] = person
    for key, when in (
        ("scheduledAt", changeset.scheduled_at),
        ("submittedAt", changeset.submitted_at),
        ("reviewedAt", changeset.reviewed_at),
        ("publishedAt", changeset.published_at),
        ("revertedAt", changeset.reverted_at),
    ):
        if when is not None:
            out[key] = iso(when)
    if changeset.failure:
        out["failure"] = changeset.failure
    return out
