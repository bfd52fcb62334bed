"""Assignments follow their entries: a permanent delete takes them along (inside its transaction), and so
does dropping a collection (after the schema change commits), which also detaches it from every taxonomy."""

from __future__ import annotations

import logging
from typing import Any

from django.db import DatabaseError
from django.dispatch import receiver

from content.signals import entry_deleting, schema_changed
from taxonomy import definitions, services

log = logging.getLogger(__name__)


@receiver(entry_deleting, dispatch_uid="taxonomy.entry_deleting")
def drop_entry_assignments(sender: Any, collection: str, entry_id: str, **kwargs: Any) -> None:
    services.remove_entry_assignments(collection=collection, entry_id=entry_id)


@receiver(schema_changed, dispatch_uid="taxonomy.schema_changed")
def drop_orphaned_assignments(sender: Any, **kwargs: Any) -> None:
    # Runs after the schema change committed: a failure here must not turn that success into an error.
    try:
        services.remove_orphaned_assignments()
        definitions.detach_missing_collections()
    except DatabaseError:
        log.exception("could not detach deleted collections from their taxonomies")
