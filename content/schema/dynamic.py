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
from django.db.models import Q

from content.field_types import FIELD_TYPES
from content.models import EntryBase

if TYPE_CHECKING:
    from content.schema.specs import CollectionSpec, FieldSpec

# Indexes earlier versions declared, dropped by add_missing_indexes (see build_model).
OBSOLETE_INDEX_SUFFIXES = ("del",)
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
            # Our services run the DDL (never Django's migrations: these classes live in their own Apps), but the
            # schema editor only creates a model's declared indexes (create_model, SQLite's table rebuilds on
            # alter/remove) for managed models: unmanaged tables had only their primary key and slug index.
            "managed": True,
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
                # Partial: only trashed rows. A plain deleted_at index made SQLite answer "deleted_at IS NULL
                # ORDER BY created_at" through it and sort the whole table instead of walking (created_at, id).
                models.Index(
                    fields=["deleted_at"], name=_index_name(table, "trash"), condition=Q(deleted_at__isnull=False)
                ),
            ],
        },
    )
    attrs: dict[str, object] = {"__module__": "content.schema.dynamic", "Meta": meta}
    for field in spec.fields:
        attrs[field_attname(field.slug)] = make_field_column(field)
    class_name = "Entry_" + "".join(part.capitalize() for part in spec.slug.split("_"))
    return type(class_name, (EntryBase,), attrs)


def add_missing_indexes(model: type[EntryBase]) -> list[str]:
    """Create the model's declared indexes its table lacks (tables made before they were created, or rebuilt
    without them) and drop obsolete ones; returns the names created. Idempotent: ``migrate`` runs it for
    every collection."""
    table = model._meta.db_table
    with connection.cursor() as cursor:
        if table not in connection.introspection.table_names(cursor):
            return []
        existing = set(connection.introspection.get_constraints(cursor, table))
    missing = [index for index in model._meta.indexes if index.name not in existing]
    obsolete = [name for s in OBSOLETE_INDEX_SUFFIXES if (name := _index_name(table, s)) in existing]
    if missing or obsolete:
        with connection.schema_editor(atomic=True) as editor:
            for name in obsolete:
                editor.remove_index(model, models.Index(fields=["deleted_at"], name=name))
            for index in missing:
                editor.add_index(model, index)
    return [str(index.name) for index in missing]
