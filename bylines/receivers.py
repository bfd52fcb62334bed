"""Credits follow their entries: a permanent delete takes them along, and so does dropping a collection. A
deleted user's items lose their author (content.entries.deleted_authors) and the byline inferred from it (the
byline's user link is SET NULL, which no service sees), so the ``bylines`` stamp, part of every item read's
validators and cache token, moves."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import DatabaseError
from django.db.models.signals import pre_delete
from django.dispatch import receiver

from bylines import services
from content import stamps
from content.models import Collection
from content.signals import entry_deleting, schema_changed

log = logging.getLogger(__name__)


@receiver(entry_deleting, dispatch_uid="bylines.entry_deleting")
def drop_entry_credits(sender: Any, collection: str, entry_id: str, **kwargs: Any) -> None:
    services.remove_entry_credits(collection=collection, entry_id=entry_id)


@receiver(schema_changed, dispatch_uid="bylines.schema_changed")
def drop_orphaned_credits(sender: Any, **kwargs: Any) -> None:
    # Runs after the schema change committed: a failure here must not turn that success into an error.
    try:
        services.remove_orphaned_credits(set(Collection.objects.values_list("slug", flat=True)))
    except DatabaseError:
        log.exception("could not drop the credits of deleted collections")


@receiver(pre_delete, sender=settings.AUTH_USER_MODEL, dispatch_uid="bylines.user_deleting")
def user_deleting(sender: Any, **kwargs: Any) -> None:
    # In the deleting transaction, so the stamp commits with the SET NULL updates.
    stamps.bump("bylines")
