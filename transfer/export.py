"""Writing a whole site into an archive (transfer.archive), streaming: rows come from database iterators and go
through temporary files into the tar, media files are copied in chunks, so memory stays flat however big the site."""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

from django.db.models import Q, Subquery
from django.utils import timezone

from content.models import Collection, Field, Revision
from content.schema import specs as schema
from media import storage
from media.models import MediaItem
from transfer.archive import Writer
from transfer.kinds import KINDS, REVISIONS, USERS, Kind, columns
from transfer.progress import Progress, Silent

BATCH = 2000


def _counted(kind: str, rows: Iterator[dict[str, Any]], total: int, progress: Progress) -> Iterator[dict[str, Any]]:
    for done, row in enumerate(rows, 1):
        if done % 500 == 0 or done == total:
            progress.step(kind, done, total)
        yield row


def schema_rows() -> Iterator[dict[str, Any]]:
    """One line per collection, holding its fields (a table is created whole, from both)."""
    field_columns = [f.attname for f in Field._meta.concrete_fields if f.attname != "collection_id"]
    for row in Collection.objects.order_by("slug").values():
        fields = Field.objects.filter(collection_id=row["id"]).order_by("position", "id").values(*field_columns)
        yield {**row, "fields": list(fields)}


def entry_rows() -> Iterator[dict[str, Any]]:
    for spec in schema.current(fresh=True).collections.values():
        for row in spec.model.objects.order_by("id").values().iterator(chunk_size=BATCH):
            yield {"collection": spec.slug, **row}


def revision_query(history: bool) -> Any:
    """Every revision with ``history``; otherwise the ones entries point at (live and draft)."""
    query = Revision.objects.all()
    if not history:
        wanted = Q(pk__in=[])
        for spec in schema.current().collections.values():
            rows = spec.model.objects
            wanted |= Q(collection=spec.slug) & (
                Q(pk__in=Subquery(rows.exclude(live_revision_id=None).values("live_revision_id")))
                | Q(pk__in=Subquery(rows.exclude(draft_revision_id=None).values("draft_revision_id")))
            )
        query = query.filter(wanted)
    return query


def kind_rows(kind: Kind, query: Any = None) -> Iterator[dict[str, Any]]:
    query = kind.model._default_manager.all() if query is None else query
    return query.order_by(*kind.order_by).values(*columns(kind)).iterator(chunk_size=BATCH)


def _entry_total() -> int:
    return sum(spec.model.objects.count() for spec in schema.current(fresh=True).collections.values())


def site_export(out: IO[bytes], *, history: bool = False, progress: Progress | None = None) -> dict[str, Any]:
    """Write the site to ``out`` (a binary file open for writing); the manifest."""
    progress = progress or Silent()
    writer = Writer(out)
    revisions = revision_query(history)
    plan: list[tuple[str, Iterator[dict[str, Any]], int]] = [
        ("schema", schema_rows(), Collection.objects.count()),
        ("users", kind_rows(USERS), USERS.model._default_manager.count()),
        ("entries", entry_rows(), _entry_total()),
        ("revisions", kind_rows(REVISIONS, revisions), revisions.count()),
        *((kind.name, kind_rows(kind), kind.model._default_manager.count()) for kind in KINDS),
    ]
    for name, rows, total in plan:
        writer.jsonl(name, _counted(name, rows, total, progress))
    total = MediaItem.objects.count()
    keys = MediaItem.objects.order_by("created_at", "id").values_list("storage_key", flat=True)
    for done, key in enumerate(keys.iterator(chunk_size=BATCH), 1):
        with storage.open_file(key) as handle:
            writer.media(key, handle, storage.storage().size(key))
        progress.step("media files", done, total)
    progress.done()
    return writer.close(timezone.now())
