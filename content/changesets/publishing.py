"""Making a change set live, later (the worker), and taking it back (SPEC 9.2).

Publishing applies every entry inside one transaction: any failure (a conflict, a problem, a lost race on a
row's version) raises out of it and nothing is left half-applied. The worker claims a due set with a conditional
UPDATE in the same transaction as the publish, so a worker killed mid-run leaves the set due for the next one,
and two workers never both publish it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from content.changesets import review
from content.changesets.models import ChangeSet, ChangeSetEntry
from content.changesets.services import announce, blocked, locked, move, not_found
from content.entries import rows, writes
from content.entries.services.publishing import future_time, publish_row, unpublish_row
from content.models import EntryBase
from content.schema import specs as schema
from content.schema.specs import CollectionSpec
from content.signals import send_entry_changed
from emdash.actor import Actor
from emdash.dates import iso, parse_iso
from emdash.errors import Conflict, EmDashError, NotFound, ValidationError
from emdash.permissions import Perm, require, require_owner_or

log = logging.getLogger("emdash.changesets")


@dataclass
class Outcome:
    """What a publish or revert did: the set, the items it changed (one audit row each) and those it skipped."""

    changeset: ChangeSet
    items: list[str] = field(default_factory=list)  # "collection/id"
    skipped: list[dict[str, Any]] = field(default_factory=list)
    scheduled: bool = False


def _rows(changeset: ChangeSet, actor: Actor) -> list[tuple[ChangeSetEntry, CollectionSpec, EntryBase]]:
    """Every entry's locked row; the actor must have publish rights on each (own items, or editor+ for others')."""
    found = []
    for entry in changeset.entries.order_by("id"):
        spec, row, trashed = review.locate(entry)
        if row is None or trashed:
            raise ValidationError(f"'{entry.collection}/{entry.entry_id}' is gone or in the trash; remove it first")
        row = rows.find(spec, row.id, for_update=True)
        require_owner_or(actor, row.author_id, Perm.CONTENT_GO_LIVE, Perm.CONTENT_EDIT_ANY)
        found.append((entry, spec, row))
    return found


def _conflicts(found: list[tuple[ChangeSetEntry, CollectionSpec, EntryBase]]) -> None:
    stale = [f"{entry.collection}/{entry.entry_id}" for entry, _, row in found if review.is_stale(entry, row)]
    if stale:
        raise Conflict(
            f"{len(stale)} item(s) changed after the change set was approved: {', '.join(stale)}. "
            "Submit the set again so the changes are reviewed, then publish.",
            details={"items": stale},
        )


def snapshot(spec: CollectionSpec, row: EntryBase) -> dict[str, Any]:
    """The item as the public and the editors knew it, to go back to on revert."""
    return {
        "status": row.status,
        "slug": row.slug,
        "publishedAt": iso(row.published_at),
        "liveRevisionId": row.live_revision_id,
        "draftRevisionId": row.draft_revision_id,
        "values": rows.row_values(spec, row),
    }


def apply_entry(entry: ChangeSetEntry, spec: CollectionSpec, row: EntryBase, actor: Actor) -> None:
    """One entry's action on its locked row (a separate function so tests can inject a failure at any entry)."""
    entry.before = snapshot(spec, row)
    entry.live_revision_before = row.live_revision_id
    if entry.action == ChangeSetEntry.PUBLISH:
        publish_row(spec, row, actor)
    elif entry.action == ChangeSetEntry.UNPUBLISH:
        if row.status != "draft" or row.scheduled_at is not None:
            unpublish_row(spec, row, actor)
    else:
        status = "draft" if row.status == "scheduled" else row.status
        writes.save(spec, row, deleted_at=timezone.now(), scheduled_at=None, status=status)
        send_entry_changed(spec.slug, row.id, "trashed", actor)
    entry.version_after = row.version
    entry.reverted = False
    entry.save(update_fields=["before", "live_revision_before", "version_after", "reverted"])


def _publish_now(changeset: ChangeSet, actor: Actor) -> Outcome:
    """Inside the caller's transaction: check, then apply every entry; raises (rolling all back) on any problem."""
    found = _rows(changeset, actor)
    if not found:
        raise ValidationError(f"Change set '{changeset.id}' is empty; nothing to publish")
    _conflicts(found)
    blocked(changeset, "publish")
    for entry, spec, row in found:
        apply_entry(entry, spec, row, actor)
    move(changeset, state=ChangeSet.PUBLISHED, published_at=timezone.now(), scheduled_at=None, failure=None)
    announce(changeset, "published", actor)
    return Outcome(changeset, [f"{entry.collection}/{entry.entry_id}" for entry, _, _ in found])


def _approved(changeset: ChangeSet) -> None:
    if changeset.state != ChangeSet.APPROVED:
        raise ValidationError(
            f"Change set '{changeset.id}' is {changeset.state}; only an approved set can be published "
            "(submit it, then another editor approves it)",
            details={"state": changeset.state},
        )


def changeset_publish(*, actor: Actor, id: str, scheduled_at: str | None = None) -> Outcome:
    """Publish an approved set now (all entries or none), or schedule it (``scheduled_at``, in the future)."""
    require(actor, Perm.CHANGESET_PUBLISH)
    when = future_time(scheduled_at, hint=" (omit it to publish now)") if scheduled_at is not None else None
    with transaction.atomic():
        changeset = locked(id)
        _approved(changeset)
        if when is None:
            return _publish_now(changeset, actor)
        found = _rows(changeset, actor)  # the rights are checked now; the worker publishes as the system
        _conflicts(found)
        move(changeset, scheduled_at=when, failure=None)
        return Outcome(changeset, scheduled=True)


def publish_due_changesets(*, now: datetime | None = None) -> int:
    """The worker's sweep: publish every approved set whose time has come, each exactly once.

    The claim (clearing ``scheduled_at`` on the version read) and the publish commit together; a failed publish
    rolls back to a savepoint and records why on the set, which stays approved for a person to look at."""
    from audit.record import record  # the worker's audit rows; content sits above audit
    from emdash.call import Call, calling

    now = now or timezone.now()
    actor = Actor.system()
    done = 0
    due = ChangeSet.objects.filter(state=ChangeSet.APPROVED, scheduled_at__lte=now).values_list("id", "version")
    for changeset_id, version in list(due.order_by("scheduled_at")[:100]):
        with transaction.atomic():
            claimed = ChangeSet.objects.filter(
                id=changeset_id, version=version, state=ChangeSet.APPROVED, scheduled_at__lte=now
            ).update(scheduled_at=None, version=version + 1, updated_at=timezone.now())
            if claimed != 1:
                continue  # another worker (or a person) got there first
            changeset = ChangeSet.objects.get(id=changeset_id)
            call = Call.at("worker", actor)
            try:
                with calling(call), transaction.atomic():  # its revisions say "via the worker" (SPEC 9.3)
                    outcome = _publish_now(changeset, actor)
                    for item in outcome.items:
                        record(call, "changeset_publish", "ok", item)
                    record(call, "changeset_publish", "ok", f"changesets/{changeset_id}")
            except EmDashError as exc:
                changeset.refresh_from_db()
                failure: dict[str, Any] = {"at": iso(timezone.now()), "code": exc.code, "message": exc.message}
                if exc.details:
                    failure["details"] = exc.details
                move(changeset, failure=failure)
                record(call, "changeset_publish", exc.code, f"changesets/{changeset_id}")
                log.warning("scheduled change set %s not published: %s", changeset_id, exc.message)
                continue
            done += 1
            log.info("published scheduled change set %s", changeset_id)
    return done


def _revert_entry(entry: ChangeSetEntry, spec: CollectionSpec, row: EntryBase, actor: Actor) -> None:
    before = entry.before or {}
    if entry.action == ChangeSetEntry.DELETE:
        writes.save(spec, row, deleted_at=None)
        send_entry_changed(spec.slug, row.id, "restored", actor)
    elif entry.action == ChangeSetEntry.UNPUBLISH:
        published_at = parse_iso(before["publishedAt"]) if before.get("publishedAt") else timezone.now()
        if before.get("status") == "published":
            writes.save(spec, row, status="published", published_at=published_at)
            send_entry_changed(spec.slug, row.id, "published", actor)
    elif before.get("status") != "published":  # the set published it for the first time: unpublish
        writes.save(spec, row, status="draft", published_at=None, live_revision_id=before.get("liveRevisionId"))
        send_entry_changed(spec.slug, row.id, "unpublished", actor)
    else:  # back to the live values, slug and revision it had before, live again if unpublished since (force)
        values = rows.known_values(spec, before.get("values") or {})
        first_live = parse_iso(before["publishedAt"]) if before.get("publishedAt") else row.published_at
        writes.save(
            spec,
            row,
            **rows.column_changes(spec, values),
            slug=before.get("slug") or row.slug,
            status="published",
            published_at=first_live or timezone.now(),
            scheduled_at=None,
            live_revision_id=before.get("liveRevisionId"),
            draft_revision_id=None,
        )
        send_entry_changed(spec.slug, row.id, "published", actor)
    entry.reverted = True
    entry.save(update_fields=["reverted"])


def changeset_revert(*, actor: Actor, id: str, force: bool = False) -> Outcome:
    """Take a published set back in one transaction; items edited since are skipped and listed (``force`` too)."""
    require(actor, Perm.CHANGESET_PUBLISH)
    with transaction.atomic():
        changeset = locked(id)
        if changeset.state != ChangeSet.PUBLISHED:
            raise ValidationError(
                f"Change set '{changeset.id}' is {changeset.state}; only a published set can be reverted",
                details={"state": changeset.state},
            )
        outcome = Outcome(changeset)
        pending = list(changeset.entries.filter(reverted=False).order_by("id"))
        if not pending:
            raise ValidationError(f"Change set '{changeset.id}' is already reverted; nothing to take back")
        for entry in pending:
            label = f"{entry.collection}/{entry.entry_id}"
            try:
                spec = schema.get_collection(entry.collection)
                row = rows.find(spec, entry.entry_id, trashed=entry.action == ChangeSetEntry.DELETE, for_update=True)
            except (NotFound, EmDashError):
                outcome.skipped.append({"item": label, "reason": "the item no longer exists where the set left it"})
                continue
            require_owner_or(actor, row.author_id, Perm.CONTENT_GO_LIVE, Perm.CONTENT_EDIT_ANY)
            if row.version != entry.version_after and not force:
                outcome.skipped.append({"item": label, "reason": "edited since the set was published"})
                continue
            _revert_entry(entry, spec, row, actor)
            outcome.items.append(label)
        if outcome.items:
            move(changeset, reverted_at=timezone.now())
            announce(changeset, "reverted", actor)
    return outcome


__all__ = ["Outcome", "changeset_publish", "changeset_revert", "not_found", "publish_due_changesets"]
