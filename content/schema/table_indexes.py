"""``migrate`` gives every collection table the indexes ``content.schema.dynamic`` declares.

Tables created before the entry models were managed got only their primary key and slug index, so list pages
sorted the whole table; ``add_missing_indexes`` creates what each table lacks, on SQLite and PostgreSQL alike.
"""

from __future__ import annotations

import logging
from typing import Any

from content.schema import specs as schema
from content.schema.dynamic import add_missing_indexes

log = logging.getLogger("emdash.content")


def ensure_all() -> dict[str, list[str]]:
    """The indexes created per collection slug (empty when every table already has them)."""
    schema.invalidate()
    created = {}
    for slug, spec in schema.current().collections.items():
        names = add_missing_indexes(spec.model)
        if names:
            log.info("collection %s: created missing indexes %s", slug, ", ".join(names))
            created[slug] = names
    return created


def on_post_migrate(sender: Any, **kwargs: Any) -> None:
    if getattr(sender, "name", None) != "content":
        return
    try:
        kwargs["apps"].get_model("content", "SchemaState")
    except (KeyError, LookupError):
        return  # migrated back to before the registry existed
    ensure_all()
