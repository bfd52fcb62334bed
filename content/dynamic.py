"""Model classes for the per-collection tables, built at run time from registry rows.

Each snapshot of the schema gets its own isolated ``Apps`` registry, so rebuilding never collides
with classes from an older snapshot and Django's migration machinery never sees these models.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from django.apps.registry import Apps
from django.db import connection, models
from django.db.backends.utils import truncate_name

from content.field_types import FIELD_TYPES
from content.models import EntryBase

if TYPE_CHECKING:
    from content.schema import CollectionSpec, FieldSpec

# Column names every entry table has; field slugs may not take them.
SYSTEM_COLUMNS: tuple[str, ...] = tuple(f.name for f in EntryBase._meta.get_fields())
# Field slugs also kept back: "terms" is the taxonomy argument on content writes.
RESERVED_FIELD_SLUGS: frozenset[str] = frozenset((*SYSTEM_COLUMNS, "terms"))


def table_name_for(slug: str) -> str:
    """``ec_<slug>``, shortened with a hash when the database limits identifier length."""
    return truncate_name(f"ec_{slug}", connection.ops.max_name_length())


def field_attname(field_slug: str) -> str:
    """Python attribute for a field's column; prefixed so a field named ``save`` or ``pk`` is harmless."""
    return f"f_{field_slug}"


def _index_name(table: str, suffix: str) -> str:
    # Index names are global per schema on PostgreSQL and Django caps them at 30 characters.
    digest = hashlib.sha1(table.encode(), usedforsecurity=False).hexdigest()[:12]
    return f"ec{digest}_{suffix}"


def make_field_column(spec: FieldSpec) -> models.Field:
    return FIELD_TYPES[spec.type].column(db_column=spec.slug, unique=spec.unique)


def build_model(spec: CollectionSpec, apps: Apps) -> type[EntryBase]:
    table = spec.table_name
    meta = type(
        "Meta",
        (),
        {
            "db_table": table,
            "app_label": "emdash_entries",
            "apps": apps,
            "managed": False,  # our services own the DDL
            "constraints": [
                models.UniqueConstraint(fields=["slug", "locale"], name=_index_name(table, "slug_loc")),
            ],
            "indexes": [
                models.Index(fields=["status", "created_at", "id"], name=_index_name(table, "st_cr")),
                models.Index(fields=["created_at", "id"], name=_index_name(table, "cr")),
                models.Index(fields=["updated_at", "id"], name=_index_name(table, "up")),
                models.Index(fields=["published_at", "id"], name=_index_name(table, "pub")),
                models.Index(fields=["scheduled_at"], name=_index_name(table, "sched")),
                models.Index(fields=["translation_group"], name=_index_name(table, "tg")),
                models.Index(fields=["deleted_at"], name=_index_name(table, "del")),
            ],
        },
    )
    attrs: dict[str, object] = {"__module__": "content.dynamic", "Meta": meta}
    for field in spec.fields:
        attrs[field_attname(field.slug)] = make_field_column(field)
    class_name = "Entry_" + "".join(part.capitalize() for part in spec.slug.split("_"))
    return type(class_name, (EntryBase,), attrs)
