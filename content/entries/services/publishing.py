"""Publishing, unpublishing, scheduling and discarding drafts; the worker's due-item run."""

from __future__ import annotations

import logging
import re
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from content.entries import revisions, rows, seo, writes
from content.entries.entry import Entry
from content.entries.rows import DRAFT_SEO, DRAFT_SLUG
from content.entries.services import drafts
from content.entries.services.ownership import editing
from content.models import EntryBase, Revision
from content.redirects import services as redirects
from content.schema import specs as schema
from content.schema.retry import schema_retry
from content.schema.specs import CollectionSpec
from content.schema.validation import check_publishable
from content.signals import entry_publishing, send_entry_changed
from emdash.actor import Actor
from emdash.call import Call, calling
from emdash.dates import parse_iso
from emdash.errors import Conflict, SlugConflict, ValidationError

log = logging.getLogger("emdash.publishing")
# "Z" or "+02:00" at the end: a publication date without a zone would silently mean UTC.
ZONED = re.compile(r"(Z|[+-]\d{2}:?\d{2})$", re.IGNORECASE)
FUTURE_SKEW = timedelta(minutes=5)  # clocks of migration tools differ a little


def publish_row(spec: CollectionSpec, row: EntryBase, actor: Actor, published_at: datetime | None = None) -> None:
    """Make the current values live: the draft (if any) goes into the row, with the slug and SEO waiting in it;
    status becomes published. A moved URL of an item published before leaves a redirect behind."""
    raw = rows.draft_raw(row)
    values = rows.known_values(spec, raw) if raw is not None else rows.row_values(spec, row)
    meta = rows.draft_meta(raw)
    changes: dict[str, Any] = {}
    if row.draft_revision_id:
        check_publishable(spec, values, row.id)
        changes.update(rows.column_changes(spec, values))
    old_slug, public = row.slug, drafts.was_public(row)
    new_slug = meta.get(DRAFT_SLUG)
    if new_slug and new_slug != old_slug:
        drafts.check_slug_free(spec, row, new_slug)
        changes["slug"] = new_slug
    if spec.supports_feature("revisions"):
        changes["live_revision_id"] = revisions.record(spec, row.id, values, Revision.KIND_PUBLISH, actor)
    try:
        with transaction.atomic():
            writes.save(
                spec,
                row,
                status="published",
                published_at=published_at or row.published_at or timezone.now(),
                scheduled_at=None,
                draft_revision_id=None,
                **changes,
            )
    except IntegrityError:  # a concurrent writer took the slug between the check and the update
        raise SlugConflict(f"Slug '{new_slug}' is already used in '{spec.slug}' ({row.locale})") from None
    entry_publishing.send(sender=None, spec=spec, row=row)
    if DRAFT_SEO in meta:
        seo.store(spec.slug, row.id, meta[DRAFT_SEO])
    if "slug" in changes and public:
        redirects.record_move(spec.slug, row.id, old_slug, changes["slug"], actor)
    if spec.supports_feature("revisions"):
        revisions.prune(spec, row)
    send_entry_changed(spec.slug, row.id, "published", actor)


def unpublish_row(spec: CollectionSpec, row: EntryBase, actor: Actor) -> None:
    writes.save(spec, row, status="draft", published_at=None, scheduled_at=None)
    send_entry_changed(spec.slug, row.id, "unpublished", actor)


def _published_at(value: Any) -> datetime | None:
    """An explicit publication date (migrations): ISO 8601 with a zone, not in the future."""
    if value is None:
        return None
    if not isinstance(value, str) or not ZONED.search(value.strip()):
        raise ValidationError.for_fields(
            {"publishedAt": "must be an ISO 8601 date-time with a zone, e.g. 2019-05-01T09:00:00Z"}
        )
    try:
        when = parse_iso(value)
    except ValueError as exc:
        raise ValidationError.for_fields({"publishedAt": str(exc)}) from None
    if when > timezone.now() + FUTURE_SKEW:
        raise ValidationError.for_fields(
            {"publishedAt": "must not be in the future; use content_schedule to publish later"}
        )
    return when


@schema_retry
def entry_publish(*, actor: Actor, collection: str, id: str, published_at: str | None = None) -> Entry:
    """Publish; ``published_at`` sets the publication date (kept from the first publication otherwise)."""
    spec = schema.get_collection(collection)
    when = _published_at(published_at)
    with editing(actor, spec, id, go_live=True) as row:
        publish_row(spec, row, actor, published_at=when)
    return Entry.load(spec, row)


@schema_retry
def entry_unpublish(*, actor: Actor, collection: str, id: str) -> Entry:
    spec = schema.get_collection(collection)
    with editing(actor, spec, id, go_live=True) as row:
        if row.status != "draft" or row.scheduled_at is not None:
            unpublish_row(spec, row, actor)
    return Entry.load(spec, row)


@schema_retry
def entry_schedule(*, actor: Actor, collection: str, id: str, scheduled_at: str) -> Entry:
    """Publish later. Drafts become ``scheduled``; published items keep serving the live version and
    their pending draft goes live at that time."""
    spec = schema.get_collection(collection)
    when = future_time(scheduled_at)
    # Any collection can schedule (SPEC 7); the 'scheduling' capability only shows the admin's controls.
    return _set_schedule(actor, spec, id, when)


def future_time(value: str, *, hint: str = "") -> datetime:
    """``scheduledAt`` as a time after now (items and change sets schedule alike); ``hint`` ends the refusal."""
    try:
        when = parse_iso(value)
    except ValueError as exc:
        raise ValidationError.for_fields({"scheduledAt": str(exc)}) from None
    if when <= timezone.now():
        raise ValidationError.for_fields({"scheduledAt": f"must be in the future{hint}"})
    return when


@schema_retry
def entry_unschedule(*, actor: Actor, collection: str, id: str) -> Entry:
    """Cancel a pending schedule; a no-op when there is none."""
    return _set_schedule(actor, schema.get_collection(collection), id, None)


def _set_schedule(actor: Actor, spec: CollectionSpec, id: str, when: datetime | None) -> Entry:
    """Set or clear (``when`` None) the publish time. A published item stays published (its live version
    serves until then); any other is ``scheduled`` while a time is set, a draft once it is cleared."""
    with editing(actor, spec, id, go_live=True) as row:
        if when is not None or row.scheduled_at is not None:
            status = "published" if row.status == "published" else "scheduled" if when else "draft"
            writes.save(spec, row, status=status, scheduled_at=when)
            # A published item keeps serving its live version; any other stays hidden until the worker publishes it.
            action = "scheduled" if when else "unscheduled"
            send_entry_changed(spec.slug, row.id, action, actor, shown=row.status == "published")
    return Entry.load(spec, row)


@schema_retry
def entry_discard_draft(*, actor: Actor, collection: str, id: str) -> Entry:
    spec = schema.get_collection(collection)
    with editing(actor, spec, id) as row:
        if not rows.has_live_version(spec, row):
            raise ValidationError(
                "Only items published at least once (in a collection with revisions) have a draft to discard"
            )
        if row.draft_revision_id:
            # A pending schedule was for this draft; with the draft gone there is nothing left to publish.
            status = "draft" if row.status == "scheduled" else row.status
            writes.save(spec, row, draft_revision_id=None, scheduled_at=None, status=status)
            send_entry_changed(spec.slug, row.id, "draft_discarded", actor, shown=row.status == "published")
    return Entry.load(spec, row)


@schema_retry
def publish_due(*, now: datetime | None = None, limit: int = 500) -> int:
    """Publish every item whose time has come, each exactly once however many workers run.

    Each item is claimed inside its own transaction: PostgreSQL locks the row (``skip_locked`` lets other
    workers take other rows) and re-checks the due condition; SQLite's IMMEDIATE transactions serialise
    writers. The publish itself is a conditional update on the version, so a lost race writes nothing.
    """
    now = now or timezone.now()
    actor = Actor.system()
    with calling(Call.at("worker", actor)):  # its revisions say "via the worker" (SPEC 9.3)
        return _publish_due(actor, now, limit)


def _publish_due(actor: Actor, now: datetime, limit: int) -> int:
    published = 0
    for spec in schema.current().collections.values():
        due = list(
            rows.live_rows(spec)
            .filter(scheduled_at__lte=now)
            .order_by("scheduled_at")
            .values_list("id", flat=True)[:limit]
        )
        for entry_id in due:
            with transaction.atomic():
                qs = rows.live_rows(spec).filter(id=entry_id, scheduled_at__lte=now)
                if connection.features.has_select_for_update_skip_locked:
                    qs = qs.select_for_update(skip_locked=True)
                row = qs.first()
                if row is None:
                    continue  # another worker (or an unschedule) got there first
                try:
                    with transaction.atomic():
                        publish_row(spec, row, actor, published_at=row.published_at or row.scheduled_at)
                except Conflict:
                    continue
                except ValidationError as exc:  # e.g. a unique value taken since the draft was saved
                    log.warning("cannot publish scheduled item %s/%s: %s", spec.slug, entry_id, exc.message)
                    continue
                published += 1
                log.info("published scheduled item %s/%s", spec.slug, entry_id)
    return published
