"""Building and reviewing change sets: create, add, remove, submit, approve or reject (SPEC 9.2).

Every state change is a conditional UPDATE on the set's version inside the caller's transaction, so two
reviewers (or a reviewer and a publisher) racing on one set end with one outcome and a CONFLICT for the other.
Publishing and reverting live in :mod:`content.changesets.publishing`.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from content import hooks
from content.changesets import review
from content.changesets.models import ChangeSet, ChangeSetEntry
from content.changesets.presenters import changeset_dict
from content.entries import rows
from content.models import EntryBase
from content.schema import specs as schema
from content.schema.specs import CollectionSpec
from content.signals import send_changeset_changed
from emdash.actor import Actor
from emdash.errors import Conflict, EmDashError, InsufficientPermissions, NotFound, ValidationError
from emdash.ids import new_id
from emdash.permissions import RULES, Perm, has_role, require
from emdash.roles import Role

# Sets whose entries may still change: a rejected set is back with its author (SPEC 9.2: "back to open").
EDITABLE = (ChangeSet.OPEN, ChangeSet.REJECTED)
MAX_ENTRIES = 200  # one transaction publishes them all: keep it bounded


def not_found(id: Any) -> NotFound:
    return NotFound(f"No change set '{str(id)[:40]}'; changeset_list shows the change sets")


def locked(id: str) -> ChangeSet:
    """The set, locked for the rest of the transaction (PostgreSQL; SQLite serialises writers)."""
    found = ChangeSet.objects.select_for_update().filter(id=id).first()
    if found is None:
        raise not_found(id)
    return found


def move(changeset: ChangeSet, **changes: Any) -> ChangeSet:
    """Apply ``changes`` if nobody changed the set since it was read; else CONFLICT (the caller rolls back)."""
    changes.setdefault("updated_at", timezone.now())
    changes["version"] = changeset.version + 1
    count = ChangeSet.objects.filter(id=changeset.id, version=changeset.version).update(**changes)
    if count != 1:
        raise Conflict(f"Change set '{changeset.id}' was changed by someone else; fetch it again and retry")
    for name, value in changes.items():
        setattr(changeset, name, value)
    return changeset


def announce(changeset: ChangeSet, event: str, actor: Actor) -> None:
    """Webhooks and the admin's live updates, after the commit."""
    send_changeset_changed(lambda: changeset_dict(ChangeSet.objects.get(id=changeset.id)), event, actor)


def may_edit_item(actor: Actor, row: EntryBase) -> None:
    """The role rule of editing (own items author+, others' editor+), without the scope: proposing an edit is
    what content:draft allows, and its scope was checked by the operation."""
    if actor.is_system or (actor.user_id is not None and row.author_id == actor.user_id):
        return
    if not has_role(actor, Perm.CONTENT_EDIT_ANY):
        raise InsufficientPermissions(RULES[Perm.CONTENT_EDIT_ANY].needs)


def _may_change_set(actor: Actor, changeset: ChangeSet) -> None:
    """A set is its creator's; editors may tidy anyone's."""
    if actor.is_system or changeset.creator_id == actor.user_id or actor.role >= Role.EDITOR:
        return
    raise InsufficientPermissions("changing someone else's change set requires the editor role")


def _editable(changeset: ChangeSet) -> None:
    if changeset.state not in EDITABLE:
        raise ValidationError(
            f"Change set '{changeset.id}' is {changeset.state}; only open or rejected sets take changes "
            "(publish or cancel it, or create a new one)",
            details={"state": changeset.state},
        )


def changeset_create(*, actor: Actor, title: str, description: str = "") -> ChangeSet:
    require(actor, Perm.CHANGESET_PROPOSE)
    title = title.strip()
    if not title:
        raise ValidationError.for_fields({"title": "must not be blank"})
    now = timezone.now()
    return ChangeSet.objects.create(
        id=new_id(), title=title, description=description, creator=actor.user, created_at=now, updated_at=now
    )


def _pin(entry: ChangeSetEntry, row: EntryBase) -> None:
    entry.pinned_revision_id = row.draft_revision_id
    entry.pinned_version = row.version


def _item_row(spec: CollectionSpec, item: str) -> EntryBase:
    return rows.find(spec, item, for_update=True)


def changeset_add(*, actor: Actor, id: str, collection: str, item: str, action: str = "publish") -> ChangeSet:
    """Add an item (by id or slug) with its current draft pinned; adding it again re-pins it and changes the action."""
    require(actor, Perm.CHANGESET_PROPOSE)
    if action not in dict(ChangeSetEntry.ACTIONS):
        raise ValidationError.for_fields({"action": "must be one of: publish, unpublish, delete"})
    with transaction.atomic():
        changeset = locked(id)
        _may_change_set(actor, changeset)
        _editable(changeset)
        spec = schema.get_collection(collection)
        row = _item_row(spec, item)
        may_edit_item(actor, row)
        entry = ChangeSetEntry.objects.filter(changeset=changeset, collection=spec.slug, entry_id=row.id).first()
        if entry is None:
            if changeset.entries.count() >= MAX_ENTRIES:
                raise ValidationError(f"A change set holds at most {MAX_ENTRIES} items; start another one")
            entry = ChangeSetEntry(changeset=changeset, collection=spec.slug, entry_id=row.id, added_by=actor.user)
        entry.action = action
        _pin(entry, row)
        try:
            with transaction.atomic():
                entry.save()
        except IntegrityError:  # the same item added by a concurrent call
            raise Conflict(f"'{spec.slug}/{row.id}' was just added by someone else; fetch the set again") from None
        move(changeset)
    return changeset


def changeset_remove(*, actor: Actor, id: str, collection: str, item: str) -> ChangeSet:
    require(actor, Perm.CHANGESET_PROPOSE)
    with transaction.atomic():
        changeset = locked(id)
        _may_change_set(actor, changeset)
        _editable(changeset)
        entries = ChangeSetEntry.objects.filter(changeset=changeset, collection=collection)
        # The item as added (its id) or by its slug when it still exists.
        match = entries.filter(entry_id=item)
        if not match.exists():
            try:
                row = rows.find(schema.get_collection(collection), item)
            except EmDashError:  # an unknown collection or item: nothing to match
                row = None
            match = entries.filter(entry_id=row.id) if row is not None else entries.none()
        if not match.delete()[0]:
            raise NotFound(f"'{collection}/{item}' is not in change set '{changeset.id}'")
        move(changeset)
    return changeset


def entry_problems(changeset: ChangeSet) -> dict[str, dict[str, str]]:
    """``{"collection/id": {path: problem}}`` for every entry that may not go live."""
    found: dict[str, dict[str, str]] = {}
    for entry in changeset.entries.all():
        try:
            spec, row, trashed = review.locate(entry)
        except EmDashError:
            found[f"{entry.collection}/{entry.entry_id}"] = {"collection": "the collection no longer exists"}
            continue
        if problems := review.problems(spec, entry, row, trashed):
            found[f"{entry.collection}/{entry.entry_id}"] = problems
    return found


def blocked(changeset: ChangeSet, verb: str) -> None:
    """VALIDATION_ERROR listing every entry's problems, if any (nothing goes live with one)."""
    found = entry_problems(changeset)
    if found:
        listed = "; ".join(
            f"{item}: " + ", ".join(f"{path} {problem}" for path, problem in problems.items())
            for item, problems in found.items()
        )
        raise ValidationError(
            f"Cannot {verb} change set '{changeset.id}': {len(found)} item(s) have problems: {listed}",
            details={"items": found},
        )


def changeset_submit(*, actor: Actor, id: str) -> ChangeSet:
    """Ask for review. The current drafts are pinned again: what the reviewer approves is what goes live.
    An approved set whose items changed since is re-submitted the same way."""
    require(actor, Perm.CHANGESET_PROPOSE)
    with transaction.atomic():
        changeset = locked(id)
        _may_change_set(actor, changeset)
        if changeset.state not in (*EDITABLE, ChangeSet.SUBMITTED, ChangeSet.APPROVED):
            raise ValidationError(
                f"Change set '{changeset.id}' is {changeset.state}; it cannot be submitted",
                details={"state": changeset.state},
            )
        entries = list(changeset.entries.all())
        if not entries:
            raise ValidationError(f"Change set '{changeset.id}' is empty; add items with changeset_add first")
        for entry in entries:
            _, row, _ = review.locate(entry)
            if row is not None and row.deleted_at is None:
                may_edit_item(actor, row)
                _pin(entry, row)
                entry.save(update_fields=["pinned_revision_id", "pinned_version"])
        blocked(changeset, "submit")
        move(changeset, state=ChangeSet.SUBMITTED, submitted_at=timezone.now(), scheduled_at=None, failure=None)
        announce(changeset, "submitted", actor)
    return changeset


def changeset_review(*, actor: Actor, id: str, decision: str, comment: str = "") -> ChangeSet:
    """Approve or reject (with a comment). Never the creator's own set, unless changesetsSelfApprove is on."""
    require(actor, Perm.CHANGESET_REVIEW)
    if decision not in ("approve", "reject"):
        raise ValidationError.for_fields({"decision": "must be approve or reject"})
    with transaction.atomic():
        changeset = locked(id)
        if (
            not actor.is_system
            and changeset.creator_id is not None
            and changeset.creator_id == actor.user_id
            and not hooks.changesets_self_approve()
        ):
            raise InsufficientPermissions(
                "a change set is reviewed by someone other than its creator (four-eyes); ask another editor, "
                "or an admin can turn on the setting changesetsSelfApprove"
            )
        if changeset.state != ChangeSet.SUBMITTED:
            raise ValidationError(
                f"Change set '{changeset.id}' is {changeset.state}; only a submitted set can be reviewed",
                details={"state": changeset.state},
            )
        if decision == "approve":
            blocked(changeset, "approve")
        state = ChangeSet.APPROVED if decision == "approve" else ChangeSet.REJECTED
        move(changeset, state=state, reviewer=actor.user, comment=comment, reviewed_at=timezone.now())
        announce(changeset, "approved" if decision == "approve" else "rejected", actor)
    return changeset


def changeset_cancel(*, actor: Actor, id: str) -> ChangeSet:
    """Give a set up (not published): it stays listed as cancelled."""
    require(actor, Perm.CHANGESET_PROPOSE)
    with transaction.atomic():
        changeset = locked(id)
        _may_change_set(actor, changeset)
        if changeset.state in (ChangeSet.PUBLISHED, ChangeSet.CANCELLED):
            raise ValidationError(f"Change set '{changeset.id}' is {changeset.state}; it cannot be cancelled")
        move(changeset, state=ChangeSet.CANCELLED, scheduled_at=None)
    return changeset
