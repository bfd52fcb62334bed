"""Content writes. Every function takes an ``actor`` and checks the permission table first."""

from content.entries.services.entries import (
    entry_create,
    entry_delete_permanently,
    entry_duplicate,
    entry_restore,
    entry_translate,
    entry_trash,
    entry_update,
)
from content.entries.services.publishing import (
    entry_discard_draft,
    entry_publish,
    entry_schedule,
    entry_unpublish,
    entry_unschedule,
    publish_due,
)
from content.entries.services.revisions import revision_restore

__all__ = [
    "entry_create",
    "entry_delete_permanently",
    "entry_discard_draft",
    "entry_duplicate",
    "entry_publish",
    "entry_restore",
    "entry_schedule",
    "entry_translate",
    "entry_trash",
    "entry_unpublish",
    "entry_unschedule",
    "entry_update",
    "publish_due",
    "revision_restore",
]
