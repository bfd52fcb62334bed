"""Restoring an archive into an empty site with the same ids, slugs, dates, statuses and media bytes.

The archive is verified whole first (transfer.archive.verify); only then is anything written. Collections are
created one schema change each (on SQLite DDL cannot run inside an outer transaction); everything else is written
in one transaction, so a failure leaves the tables empty and the created collections are dropped again.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from itertools import islice
from typing import IO, Any, cast

from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.files.base import File
from django.core.management.color import no_style
from django.db import DatabaseError, connection, models, transaction

from accounts.models import User
from content import stamps
from content.models import Collection, Field
from content.schema import specs as schema
from content.schema.ddl import model_from_registry, run_ddl
from content.search import indexing
from media import storage, usage_repair
from media.models import MediaItem
from menus.models import Menu
from settings_app.models import SiteSettings
from taxonomy.models import TaxonomyDefinition, Term
from transfer.archive import ArchiveError, read_rows, verify
from transfer.kinds import KINDS, ORDER, REVISIONS, USERS, Kind
from transfer.progress import Progress, Silent
from webhooks.models import Webhook

log = logging.getLogger("emdash.transfer")
BATCH = 1000
BY_NAME = {kind.name: kind for kind in (USERS, REVISIONS, *KINDS)}


class SiteNotEmpty(Exception):
    """Importing would mix two sites; the message names what is already there."""


MEDIA_FILES = "media files"  # the key counting the archive's media files in an import's counts


def site_contents() -> dict[str, int]:
    """What a site holds that an import would collide with (defaults of a fresh install do not count)."""
    found = {
        "collections": Collection.objects.count(),
        "terms": Term.objects.count(),
        "menus": Menu.objects.count(),
        "media": MediaItem.objects.count(),
        "webhooks": Webhook.objects.count(),
    }
    return {name: count for name, count in found.items() if count}


def _decode(model: type[models.Model], row: dict[str, Any], users: dict[int, int], kind: Kind | None) -> Any:
    fields = {f.attname: f for f in model._meta.concrete_fields}
    values = {name: fields[name].to_python(value) for name, value in row.items() if name in fields}
    for column in kind.user_columns if kind else ("author_id",):
        if values.get(column) is not None:
            values[column] = users.get(values[column])
    return model(**values)


def _batches(items: Iterable[Any]) -> Iterator[list[Any]]:
    iterator = iter(items)
    while batch := list(islice(iterator, BATCH)):
        yield batch


@dataclass
class Restore:
    progress: Progress
    users: dict[int, int] = field(default_factory=dict)
    created: list[str] = field(default_factory=list)
    media_keys: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    current: str = ""  # the kind being written, for the refusal of rows that do not fit the site

    def collection(self, line: dict[str, Any]) -> None:
        fields = line.pop("fields")

        def body(editor: Any) -> None:
            row = _decode(Collection, line, {}, None)
            row.save(force_insert=True)
            Field.objects.bulk_create(_decode(Field, {**f, "collection_id": row.pk}, {}, None) for f in fields)
            editor.create_model(model_from_registry(row))

        run_ddl(f"create the table for '{line['slug']}'", body)
        self.created.append(line["slug"])

    def user_rows(self, rows: Iterator[dict[str, Any]]) -> int:
        done = 0
        for row in rows:
            existing = User.objects.filter(email__iexact=row["email"]).values_list("pk", flat=True).first()
            if existing is None:
                user = _decode(User, {k: v for k, v in row.items() if k != "id"}, {}, USERS)
                user.pk = row["id"] if not User.objects.filter(pk=row["id"]).exists() else None
                user.set_unusable_password()  # passwords never travel: users reset theirs
                user.save(force_insert=True)
                existing = user.pk
            self.users[row["id"]] = existing
            done += 1
        return done

    def entry_rows(self, rows: Iterator[dict[str, Any]]) -> int:
        done, models_by_slug = 0, {slug: spec.model for slug, spec in schema.current(fresh=True).collections.items()}
        for batch in _batches(rows):
            by_collection: dict[str, list[Any]] = {}
            for row in batch:
                model = models_by_slug[row.pop("collection")]
                by_collection.setdefault(model._meta.db_table, []).append(_decode(model, row, self.users, None))
            for objects in by_collection.values():
                type(objects[0]).objects.bulk_create(objects)
            done += len(batch)
            self.progress.step("entries", done)
        return done

    def kind_rows(self, kind: Kind, rows: Iterator[dict[str, Any]]) -> int:
        done = 0
        for batch in _batches(rows):
            objects = [_decode(kind.model, row, self.users, kind) for row in batch]
            if kind.model is Webhook:
                for hook in objects:
                    hook.secret = secrets.token_hex(32)  # secrets never travel: rotate it to tell receivers
            kind.model._default_manager.bulk_create(objects)
            _keep_auto_times(kind.model, batch)
            done += len(batch)
            self.progress.step(kind.name, done)
        return done

    def media_file(self, key: str, handle: IO[bytes]) -> None:
        if storage.key_problem(key) is not None:
            raise ArchiveError(f"the media path {key!r} is not a safe storage key")
        store = storage.storage()
        if store.exists(key):
            store.delete(key)  # a leftover file of an earlier attempt; the archive's bytes were verified
        saved = store.save(key, File(handle, name=key))
        self.media_keys.append(saved)
        if saved != key:
            raise ArchiveError(f"the storage renamed {key!r} to {saved!r}; the media cannot keep its address")


def _keep_auto_times(model: type[models.Model], rows: list[dict[str, Any]]) -> None:
    """``auto_now`` columns are overwritten on insert; put the archive's times back."""
    auto = [
        f for f in model._meta.concrete_fields if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]
    for row in rows if auto else ():
        model._default_manager.filter(pk=row["id"]).update(**{f.attname: f.to_python(row[f.attname]) for f in auto})


def _write_all(job: Restore, path: str, manifest: dict[str, Any]) -> None:
    in_transaction: transaction.Atomic | None = None
    try:
        for name, member in read_rows(path, manifest, ORDER):
            job.current = name
            if name == "schema":
                for line in cast(Iterator[dict[str, Any]], member):
                    job.collection(line)
                continue
            if in_transaction is None:
                in_transaction = transaction.atomic()
                in_transaction.__enter__()
                TaxonomyDefinition.objects.all().delete()  # a fresh install's defaults; the archive has the site's
                SiteSettings.objects.all().delete()
            # Media files are counted together: one key per file made summaries as long as the media library.
            key = name if name in BY_NAME or name in ("users", "entries") else MEDIA_FILES
            job.counts[key] = job.counts.get(key, 0) + _dispatch(job, name, member)
    except BaseException as exc:
        if in_transaction is not None:
            in_transaction.__exit__(type(exc), exc, exc.__traceback__)
        raise
    if in_transaction is not None:
        in_transaction.__exit__(None, None, None)


def _dispatch(job: Restore, name: str, member: Any) -> int:
    if name == "users":
        return job.user_rows(member)
    if name == "entries":
        return job.entry_rows(member)
    if name in BY_NAME:
        return job.kind_rows(BY_NAME[name], member)
    if "/" in name or "." in name:  # a media file (keys have a directory and an extension)
        job.media_file(name, member)
        return 1
    raise ArchiveError(f"unknown member {name!r}")


def _undo(job: Restore) -> None:
    for key in job.media_keys:
        storage.delete_quietly(key)
    for slug in reversed(job.created):
        row = Collection.objects.filter(slug=slug).first()
        if row is not None:
            run_ddl(f"drop the table of '{slug}'", partial(_drop, row=row))


def _drop(editor: Any, *, row: Collection) -> None:
    model = model_from_registry(row)
    row.delete()
    editor.delete_model(model)


def _after(job: Restore) -> None:
    """Sequences past the imported ids (PostgreSQL), and the search and media usage indexes from the imported
    content (derived data: the archive does not carry them)."""
    with connection.cursor() as cursor:
        for statement in connection.ops.sequence_reset_sql(
            no_style(), [User, Collection, Field, TaxonomyDefinition, Menu, *(k.model for k in KINDS)]
        ):
            cursor.execute(statement)
    schema.invalidate()
    collections = schema.current(fresh=True).collections
    for spec in collections.values():
        indexing.rebuild_collection(spec)
    usage_repair.repair()
    # The rows went in around the services: move every change stamp so validators and per-process caches of
    # menus and settings (content/stamps.py, docs/caching.md) see the restored site.
    stamps.bump("menus", "settings", "terms", *(f"content:{slug}" for slug in collections))


def site_import(path: str, *, progress: Progress | None = None, on_verified: Callable[[], None] | None = None) -> dict:
    """Verify ``path`` and restore it into this (empty) site; the counts written, per kind."""
    manifest = verify(path)
    if on_verified:
        on_verified()
    found = site_contents()
    if found:
        listed = ", ".join(f"{count} {name}" for name, count in found.items())
        raise SiteNotEmpty(f"this site is not empty ({listed}); import into a fresh site")
    job = Restore(progress or Silent())
    try:
        _write_all(job, path, manifest)
    except BaseException as exc:
        log.warning("import of %s failed; undoing what was written", path)
        _undo(job)
        if isinstance(exc, (KeyError, ValueError, TypeError, DatabaseError, DjangoValidationError)):
            # The archive verified against its manifest, yet its rows do not fit together (a hand-edited export):
            # a refusal naming the kind, never a traceback.
            reason = f"unknown reference {exc.args[0]!r}" if isinstance(exc, KeyError) else str(exc)[:300]
            raise ArchiveError(f"the archive's {job.current or 'data'} rows cannot be restored: {reason}") from exc
        raise
    _after(job)
    job.progress.done()
    return job.counts
