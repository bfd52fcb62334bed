"""Running a schema change: registry rows, DDL and the version stamp commit together or not at all.

The schema editor owns the transaction (``atomic=True``): on SQLite it cannot run inside an outer
transaction, and on PostgreSQL DDL is transactional, so one ``with`` block covers both the registry
writes and the table change, and the version stamp bump that tells other processes to reload.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar, cast

from django.apps.registry import Apps
from django.db import DatabaseError, IntegrityError, connection, models, transaction
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.models import F

from content.models import Collection, EntryBase, SchemaState
from content.schema import specs as schema
from content.schema.dynamic import build_model, field_attname
from content.schema.specs import CollectionSpec
from content.signals import schema_changed
from emdash import purge
from emdash.errors import Conflict, EmDashError
from emdash.http_cache import CONTENT_KEY, collection_key

log = logging.getLogger("emdash.schema")

T = TypeVar("T")


@contextmanager
def _ddl() -> Iterator[BaseDatabaseSchemaEditor]:
    """One transaction for DDL plus registry rows plus the version stamp."""
    if connection.vendor == "sqlite" and connection.in_atomic_block:
        raise RuntimeError("SQLite schema changes must not run inside an outer transaction")
    try:
        with connection.schema_editor(atomic=True) as editor:
            before = set(Collection.objects.values_list("slug", flat=True))
            yield editor
            updated = SchemaState.objects.filter(pk=1).update(version=F("version") + 1)
            if not updated:
                SchemaState.objects.create(pk=1, version=1)
            # A field added, changed or dropped changes every item's data: shared caches drop the collections'
            # reads (the ETags moved with the version). Collections before and after: deleted or created ones too.
            after = set(Collection.objects.values_list("slug", flat=True))
            purge.schedule([CONTENT_KEY, *(collection_key(slug) for slug in sorted(before | after))])
    finally:
        schema.invalidate()  # never keep a snapshot read inside a transaction that may have rolled back
    transaction.on_commit(lambda: schema_changed.send(sender=None))


def model_from_registry(row: Collection) -> type[EntryBase]:
    """The table's model as the registry says inside this transaction, not as this process last cached it:
    SQLite rebuilds a table from the model when altering it, so a stale copy would lose columns another
    process added."""
    return build_model(CollectionSpec.from_rows(row, list(row.fields.order_by("position", "id"))), Apps())


def column(model: type[EntryBase], field_slug: str) -> models.Field:
    return cast(models.Field, model._meta.get_field(field_attname(field_slug)))


def run_ddl(action: str, body: Callable[[BaseDatabaseSchemaEditor], T]) -> T:
    try:
        with _ddl() as editor:
            return body(editor)
    except (EmDashError, IntegrityError):
        raise
    except DatabaseError:
        log.exception("schema change failed: %s", action)
        raise Conflict(f"The database refused to {action}; nothing was changed") from None
