"""Restoring a revision: its values become the item's new draft (never published directly), and the credits it
kept become the item's credits (they apply at once, as a content_update's ``bylines`` do)."""

from __future__ import annotations

from django.db import transaction

from content.entries import revisions, rows
from content.entries.dead_links import without_dead_links
from content.entries.dead_media import without_dead_media
from content.entries.entry import Entry
from content.entries.services.drafts import write_values
from content.hooks import restore_credits
from content.models import Revision
from content.schema import specs as schema
from content.schema.retry import schema_retry
from content.schema.validation import validate_data
from content.signals import send_entry_changed
from emdash.actor import Actor
from emdash.errors import CollectionNotFound, NotFound, shown
from emdash.permissions import Perm, require, require_go_live, require_owner_or


@schema_retry
def revision_restore(*, actor: Actor, revision_id: str) -> Entry:
    require(actor, Perm.CONTENT_EDIT_OWN)
    usable = isinstance(revision_id, str) and "\x00" not in revision_id  # PostgreSQL rejects NUL in text
    revision = Revision.objects.filter(id=revision_id.upper()).first() if usable else None
    if revision is None:
        raise NotFound(f"No revision '{shown(revision_id)}' (revision_list lists an item's revisions)")
    try:
        spec = schema.get_collection(revision.collection)
    except CollectionNotFound:
        raise NotFound(f"No revision '{shown(revision_id)}' (revision_list lists an item's revisions)") from None
    with transaction.atomic():
        row = rows.find(spec, revision.entry_id, for_update=True)
        require_owner_or(actor, row.author_id, Perm.CONTENT_EDIT_OWN, Perm.CONTENT_EDIT_ANY)
        if row.status != "draft":  # SPEC 9.1: restoring a revision of a live item stays with content:write
            require_go_live(actor, "Restoring a revision of a live item")
        stored = {k: v for k, v in (revision.data or {}).items() if k in spec.field_map}
        stored = without_dead_links(spec, stored)  # items deleted since the revision was taken
        stored, dropped = without_dead_media(spec, stored)  # media items deleted since (forced media_delete)
        values = validate_data(spec, stored, partial=True, entry_id=row.id)
        # Fields added after the revision was taken are not in it and keep their current values.
        if (credits := revisions.kept_credits(revision.data)) is not None:
            restore_credits(spec.slug, row.id, credits)  # first: the draft revision written next keeps them
        write_values(spec, row, values, actor)
        send_entry_changed(spec.slug, row.id, "updated", actor, shown=row.status == "published")
    entry = Entry.load(spec, row)
    entry.dropped_media = dropped
    return entry
