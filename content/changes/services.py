"""Undo (SPEC 9.3): take back everything one token, OAuth client or user did to content since a time.

The audit log says what the subject did (one ``ok`` row per content write, target ``collection/id``); the
revisions say what each item held before. Per item, the plan is one of:

- ``trash``: the subject created it (content_create, content_duplicate);
- ``untrash``: the subject trashed it;
- ``restore``: its values go back to the revision before the subject's first change (a pending draft the
  subject wrote is dropped when the live version is still the one from before); if the subject made the
  item live for the first time it is unpublished, if the subject published over an earlier live version
  that version is published again;
- ``skip``: someone else changed the item afterwards, by hand, through a change set or by an earlier undo (listed
  with who and when; ``force`` reverts it anyway),
  or nothing can be done (deleted permanently, no revision from before in a collection without revisions).

A dry run (the default) only plans. Applying runs every step in the caller's transaction (the operation
pipeline's): all items are reverted or, on any failure, none.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from audit.models import AuditLog
from audit.selectors import token_ref_of
from content import hooks
from content.entries import revisions, rows, writes
from content.entries.services.drafts import write_values
from content.entries.services.entries import entry_restore, entry_trash
from content.entries.services.publishing import publish_row, unpublish_row
from content.models import Revision
from content.schema import specs as schema
from content.schema.specs import CollectionSpec
from content.signals import send_entry_changed
from emdash.actor import Actor
from emdash.dates import iso, parse_iso
from emdash.errors import CollectionNotFound, ValidationError
from emdash.models import via_text
from emdash.numbers import plain_int
from emdash.permissions import Perm, require

# The audited content writes an undo takes back (operation names, as audit rows record them).
CREATING = {"content_create", "content_duplicate"}
TRASHING = {"content_delete"}
PUBLISHING = {"content_publish", "content_schedule"}
CONTENT_WRITES = (
    CREATING
    | TRASHING
    | PUBLISHING
    | {
        "content_update",
        "content_restore",
        "content_unpublish",
        "content_unschedule",
        "content_discard_draft",
        "revision_restore",
        "content_terms_set",
        "content_permanent_delete",
    }
)
# Writes that change items in bulk, audited once per item they changed: someone else's (another undo included)
# after the subject's change means the item moved on, so it is skipped unless forced.
BULK_WRITES = {"changeset_publish", "changeset_revert", "changes_revert"}


@dataclass(frozen=True)
class Subject:
    """Whose changes: ``field`` is the audit column that names them, ``value`` its value, ``label`` for people."""

    field: str
    value: Any
    label: str

    def rows(self) -> Q:
        return Q(**{self.field: self.value})


def subject_of(by: Any) -> Subject:
    """``{token: "pat:7"}`` | ``{client: "<client_id>"}`` | ``{user: "<email or id>"}``, exactly one."""
    given = {k: v for k, v in (by or {}).items() if v is not None}
    if len(given) != 1:
        raise ValidationError.for_fields({"by": "give exactly one of token, client or user"})
    kind, value = next(iter(given.items()))
    if kind == "token":
        if len(str(value)) > 64:
            raise ValidationError.for_fields({"by.token": "a token id is at most 64 characters, e.g. pat:7"})
        ref = token_ref_of(value)
        return Subject("token_ref", ref, f"token {ref}")
    if kind == "client":
        return Subject("oauth_client_id", str(value), f"OAuth client {value}")
    text = str(value).strip()
    user_id = plain_int(text)
    user = User.objects.filter(pk=user_id).first() if user_id is not None else None
    user = user or User.objects.filter(email=text.lower()).first()
    if user is None:
        raise ValidationError.for_fields({"by.user": f"no user '{text[:100]}' (give an email or a user id)"})
    return Subject("user_id", user.pk, f"user {user.email}")


def _since(value: str) -> datetime:
    try:
        when = parse_iso(value)
    except ValueError as exc:
        raise ValidationError.for_fields({"since": str(exc)}) from None
    if when > timezone.now():
        raise ValidationError.for_fields({"since": "must not be in the future: nothing has happened after now yet"})
    return when


@dataclass
class Plan:
    collection: str
    id: str
    action: str  # trash | untrash | restore | skip
    changes: int
    first_change: datetime
    revision_id: str | None = None
    unpublish: bool = False
    republish: bool = False
    discard_draft: bool = False
    restore_values: bool = False
    credits: list[Any] | None = None  # the credits to bring back (the revision kept others than today's)
    reason: str = ""
    title: str | None = None
    steps: list[str] = field(default_factory=list)

    def skipped(self) -> dict[str, Any]:
        return {"collection": self.collection, "id": self.id, "title": self.title, "reason": self.reason}

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "collection": self.collection,
            "id": self.id,
            "title": self.title,
            "action": self.action,
            "changes": self.changes,
            "firstChangeAt": iso(self.first_change),
        }
        if self.revision_id:
            out["revisionId"] = self.revision_id
        if self.steps:
            out["steps"] = self.steps
        return out


def changes_revert(*, actor: Actor, by: Any, since: str, dry_run: bool = True, force: bool = False) -> dict[str, Any]:
    require(actor, Perm.CONTENT_REVERT_CHANGES)
    subject = subject_of(by.model_dump(exclude_none=True) if hasattr(by, "model_dump") else by)
    when = _since(since)
    done = list(
        AuditLog.objects.filter(subject.rows(), created_at__gte=when, outcome="ok", action__in=CONTENT_WRITES).order_by(
            "created_at", "id"
        )
    )
    if not done:
        raise ValidationError(
            f"Nothing to undo: no content changes by {subject.label} since {iso(when)}. Check the id (the token "
            "list and the audit log show it) and pick an earlier time."
        )
    by_item: dict[str, list[AuditLog]] = defaultdict(list)
    for row in done:
        if "/" in row.target:
            by_item[row.target].append(row)
    plans = [_plan(subject, when, target, mine, force) for target, mine in by_item.items()]
    if not dry_run:
        for plan in plans:
            if plan.action != "skip":
                _apply(actor, plan)
    planned = [p for p in plans if p.action != "skip"]
    return {
        "dryRun": dry_run,
        "by": subject.label,
        "since": iso(when),
        "items": [p.to_dict() for p in planned],
        "skipped": [p.skipped() for p in plans if p.action == "skip"],
        "applied": 0 if dry_run else len(planned),
    }


def _spec(collection: str) -> CollectionSpec | None:
    try:
        return schema.get_collection(collection)
    except CollectionNotFound:
        return None


def _plan(subject: Subject, when: datetime, target: str, mine: list[AuditLog], force: bool) -> Plan:
    collection, entry_id = target.split("/", 1)
    first = mine[0].created_at
    actions = {row.action for row in mine}
    plan = Plan(collection, entry_id, "skip", len(mine), first)
    spec = _spec(collection)
    row = None
    if spec is not None:
        row = spec.model.objects.filter(id=entry_id).first()
    if spec is None or row is None:
        plan.reason = "deleted permanently since: nothing to restore"
        return plan
    plan.title = _title(spec, row)
    others = (
        AuditLog.objects.filter(
            target=target, created_at__gte=first, outcome="ok", action__in=CONTENT_WRITES | BULK_WRITES
        )
        .exclude(subject.rows())
        .select_related("user")
        .order_by("-created_at")
        .first()
    )
    if others is not None and not force:
        who = others.user.email if others.user is not None else "the system"
        plan.reason = (
            f"changed afterwards by {who} via {others.via_text()} at {iso(others.created_at)} "
            f"({others.action}); pass force: true to revert it anyway"
        )
        return plan
    trashed = row.deleted_at is not None
    if actions & CREATING:
        if trashed:
            plan.reason = "already in the trash"
            return plan
        plan.action, plan.steps = "trash", ["move to trash (the undone token created it)"]
        return plan
    if trashed and actions & TRASHING:
        plan.action, plan.steps = "untrash", ["restore from the trash"]
    elif trashed:
        plan.reason = "in the trash, put there by someone else"
        return plan
    _plan_values(spec, row, plan, _earlier(subject, when, spec, row.id, first), actions)
    if plan.action == "skip" and not plan.reason:
        plan.reason = "no revision from before the first change (this collection keeps none)"
    return plan


def _earlier(subject: Subject, when: datetime, spec: CollectionSpec, entry_id: str, first: datetime) -> Any:
    """The item's revisions from before the subject's first change. The audit row is written after the change
    it records, so the subject's own revisions in the window are left out by their provenance."""
    column = "author_id" if subject.field == "user_id" else subject.field
    mine = Q(**{column: subject.value}) & Q(created_at__gte=when)
    return Revision.objects.filter(collection=spec.slug, entry_id=entry_id, created_at__lt=first).exclude(mine)


def _plan_values(spec: CollectionSpec, row: Any, plan: Plan, earlier: Any, actions: set[str]) -> None:
    """The value and status steps: back to the newest of the ``earlier`` revisions."""
    if not actions - TRASHING - {"content_restore"}:
        return  # only trashed (and maybe restored): nothing else to take back
    before = earlier.order_by("-created_at", "-id").first()
    if before is None:
        if plan.action != "skip":
            plan.steps.append("values not restored: no revision from before (the collection keeps none)")
        return
    plan.revision_id = before.id
    steps: list[str] = []
    if row.live_revision_id == before.id:
        # The subject wrote only a draft over the live version: dropping the draft is the whole undo.
        plan.discard_draft = row.draft_revision_id is not None
        if plan.discard_draft:
            steps.append("drop the pending draft (the live version is the one from before)")
    else:
        plan.restore_values = True
        steps.append(f"restore the values of revision {before.id}")
    kept = revisions.kept_credits(before.data)
    if kept is not None and kept != hooks.credit_snapshot(spec.slug, row.id):
        plan.credits = kept
        steps.append(f"restore the credits (bylines) of revision {before.id}")
    if actions & PUBLISHING and row.status != "draft":
        if earlier.filter(kind=Revision.KIND_PUBLISH).exists():
            plan.republish = True
            steps.append("publish those values again (the live version was replaced)")
        else:
            plan.unpublish = True
            steps.append("unpublish (it was not live before)")
    plan.action = "restore" if plan.action == "skip" else plan.action
    plan.steps += steps or ["nothing left to change (already as before)"]


def _title(spec: CollectionSpec, row: Any) -> str | None:
    title = spec.title_field
    value = rows.row_values(spec, row).get(title.slug) if title else None
    return value if isinstance(value, str) else None


def _apply(actor: Actor, plan: Plan) -> None:
    spec = schema.get_collection(plan.collection)
    if plan.action == "trash":
        entry_trash(actor=actor, collection=spec.slug, id=plan.id)
        return
    if plan.action == "untrash":
        entry_restore(actor=actor, collection=spec.slug, id=plan.id)
    if plan.revision_id is None:
        return
    row = rows.find(spec, plan.id, for_update=True)
    if plan.discard_draft:
        writes.save(spec, row, draft_revision_id=None)
    if plan.credits is not None:  # before the values: the draft revision they write keeps the credits
        hooks.restore_credits(spec.slug, row.id, plan.credits)
    if plan.restore_values:
        revision = Revision.objects.get(id=plan.revision_id)
        stored = {k: v for k, v in (revision.data or {}).items() if k in spec.field_map}
        write_values(spec, row, stored, actor)
    if plan.unpublish:
        unpublish_row(spec, row, actor)
    elif plan.republish:
        publish_row(spec, row, actor)
    send_entry_changed(spec.slug, row.id, "updated", actor)


def describe_subject(row: AuditLog) -> str:
    """How the admin names an audit row's author: "by alice@example.com via Claude Code (MCP)"."""
    who = row.user.email if row.user is not None else "the system"
    return f"by {who} via {via_text(row.source, row.client, row.token_name)}"
