"""The revision store: snapshots of an entry's field values, newest ``REVISIONS_KEEP`` kept per entry.

A revision also keeps the entry's credits as they were when it was saved (``_bylines``: ``[{bylineId,
roleLabel}]``), so restoring it brings them back. Credits apply at once, as terms do, so they are not draft
meta: publishing a draft does not touch them. Revisions saved before credits were kept have no ``_bylines``,
and restoring one leaves today's credits alone."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from content import hooks
from content.models import EntryBase, Revision
from content.schema.specs import CollectionSpec
from emdash import prepared
from emdash.actor import Actor
from emdash.call import for_actor
from emdash.conf import emdash_settings
from emdash.ids import new_id

CREDITS = "_bylines"


def _with_credits(
    spec: CollectionSpec, entry_id: str, data: dict[str, Any], *, uncredited: bool = False
) -> dict[str, Any]:
    """``uncredited``: the entry is known to hold no explicit credits (one just created without any), so
    none are read."""
    if not uncredited:
        credits = hooks.credit_snapshot(spec.slug, entry_id)
    else:
        credits = [] if hooks.bylines_installed() else None
    return data if credits is None else {**data, CREDITS: credits}


def kept_credits(data: Any) -> list[Any] | None:
    """The credits a revision's data kept, or None when it kept none (saved before they were, or no bylines app)."""
    found = data.get(CREDITS) if isinstance(data, dict) else None
    return found if isinstance(found, list) else None


def record(
    spec: CollectionSpec, entry_id: str, data: dict[str, Any], kind: str, actor: Actor, *, uncredited: bool = False
) -> str:
    """A new revision, with how it was made (the current call's door, token, client: SPEC 9.3). ``uncredited``:
    see :func:`_with_credits`."""
    revision = Revision(
        id=new_id(),
        collection=spec.slug,
        entry_id=entry_id,
        kind=kind,
        data=_with_credits(spec, entry_id, data, uncredited=uncredited),
        author_id=actor.user_id,
        created_at=timezone.now(),
        **Revision.fields_of(for_actor(actor)),
    )
    prepared.insert(revision)
    return revision.id


def record_draft(spec: CollectionSpec, entry_id: str, data: dict[str, Any], actor: Actor, *, autosave: bool) -> str:
    """Store an edit's values as a draft revision, coalescing an editing session's autosaves.

    While the newest revision is an autosave by the same user, an autosave overwrites it in place and an explicit
    save turns it into a plain draft revision (ending the session); otherwise a new revision is added. So a session
    of any number of autosaves ends as one revision, not one per pause in typing."""
    latest = Revision.objects.filter(collection=spec.slug, entry_id=entry_id).order_by("-created_at", "-id").first()
    kind = Revision.KIND_AUTOSAVE if autosave else Revision.KIND_DRAFT
    if latest is None or latest.kind != Revision.KIND_AUTOSAVE or latest.author_id != actor.user_id:
        return record(spec, entry_id, data, kind, actor)
    provenance = Revision.fields_of(for_actor(actor))
    data = _with_credits(spec, entry_id, data)
    Revision.objects.filter(id=latest.id).update(data=data, kind=kind, created_at=timezone.now(), **provenance)
    return latest.id


def end_autosave_session(spec: CollectionSpec, entry_id: str) -> None:
    """An explicit save without changes still ends the session: the next autosave starts a new revision."""
    Revision.objects.filter(collection=spec.slug, entry_id=entry_id, kind=Revision.KIND_AUTOSAVE).update(
        kind=Revision.KIND_DRAFT
    )


def prune(spec: CollectionSpec, row: EntryBase) -> None:
    """Drop revisions beyond the newest N; the live and draft revisions always stay."""
    keep = int(emdash_settings.REVISIONS_KEEP)
    if row.version * 2 <= keep:  # a write adds at most two revisions (create + publish): none to drop yet
        return
    surplus = list(
        Revision.objects.filter(collection=spec.slug, entry_id=row.id)
        .order_by("-created_at", "-id")
        .values_list("id", flat=True)[keep:]
    )
    protected = {row.live_revision_id, row.draft_revision_id}
    doomed = [rid for rid in surplus if rid not in protected]
    if doomed:
        Revision.objects.filter(id__in=doomed).delete()
