"""Keeping the search index in step with published content.

A collection is indexed when its ``supports`` include ``search`` and at least one field is ``searchable``.
Each published, non-trashed entry of such a collection has one :class:`SearchDocument` built from the values
in its row (the live version: a pending draft lives in a revision and is never read here). Everything else,
drafts, scheduled items, trashed items and collections without search, has no document.

Three ways in: :func:`reindex_entry` for one entry after a write commits, :func:`reconcile` after a schema
change (rebuilds or drops only collections whose indexed shape changed), and :func:`rebuild_collection` /
:func:`index_rows`, the bulk path the reindex command and the benchmark use.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from content.entries import rows
from content.models import EntryBase
from content.schema import specs as schema
from content.schema.specs import CollectionSpec, FieldSpec
from content.search.backends import get_backend
from content.search.models import SearchDocument, SearchIndexState
from emdash.locking import locked

log = logging.getLogger("emdash.search")

MAX_TEXT = 200_000  # characters per column: keeps PostgreSQL well below its 1 MB tsvector limit
MAX_TITLE = 500
CHUNK = 1000
# Control characters (the excerpt markers among them), NUL and lone surrogates never reach the index.
_UNSAFE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")
# Keys of non-text Portable Text blocks and media references whose strings are worth finding.
_TEXT_KEYS = ("text", "title", "alt", "caption", "description", "code", "content")
_NESTED_KEYS = ("children", "content", "blocks", "items", "rows", "cells")

Progress = Callable[[int, int], None]


def indexable(spec: CollectionSpec) -> bool:
    return spec.supports_feature("search") and any(f.searchable for f in spec.fields)


def signature(spec: CollectionSpec) -> str:
    """Everything a collection's documents depend on besides the entries themselves."""
    title = spec.title_field
    shape = {
        "table": spec.table_name,
        "created": spec.created_at.isoformat() if spec.created_at else None,
        "fields": [[f.slug, f.type] for f in spec.fields if f.searchable],
        "title": title.slug if title else None,
    }
    return hashlib.sha256(json.dumps(shape, sort_keys=True).encode()).hexdigest()


def clean(text: str, limit: int = MAX_TEXT) -> str:
    return _UNSAFE.sub(" ", unicodedata.normalize("NFC", text))[:limit].strip()


def portable_text(blocks: Any) -> Iterator[str]:
    """The words of Portable Text: span text of each block (one line per block), plus the text-like
    properties of custom blocks (image alt and caption, code, ...)."""
    for block in blocks if isinstance(blocks, list) else []:
        if not isinstance(block, dict):
            continue
        children = block.get("children")
        if isinstance(children, list) and block.get("_type") == "block":
            line = "".join(c["text"] for c in children if isinstance(c, dict) and isinstance(c.get("text"), str))
            if line.strip():
                yield line
            continue
        yield from _text_properties(block)


def _text_properties(node: dict[str, Any], depth: int = 0) -> Iterator[str]:
    if depth > 20:
        return
    for key in _TEXT_KEYS:
        value = node.get(key)
        if isinstance(value, str) and value.strip():
            yield value
    for key in _NESTED_KEYS:
        value = node.get(key)
        if isinstance(value, list):
            for child in value:
                if isinstance(child, dict):
                    if child.get("_type") == "block":
                        yield from portable_text([child])
                    else:
                        yield from _text_properties(child, depth + 1)


def _json_strings(value: Any) -> Iterator[str]:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item.strip():
                yield item
        elif isinstance(item, list):
            stack.extend(reversed(item))
        elif isinstance(item, dict):
            stack.extend(reversed(list(item.values())))


def field_text(field: FieldSpec, value: Any) -> str:
    """A field value as the plain text that gets indexed ("" for values with no words in them)."""
    if value is None or value == "":
        return ""
    kind = field.type
    if kind in {"string", "text", "slug", "select"}:
        return value if isinstance(value, str) else ""
    if kind in {"number", "integer"}:
        return str(value)
    if kind == "multiSelect":
        return " ".join(v for v in value if isinstance(v, str)) if isinstance(value, list) else ""
    if kind == "portableText":
        return "\n".join(portable_text(value))
    if kind in {"image", "file"}:
        return "\n".join(_text_properties(value)) if isinstance(value, dict) else ""
    if kind == "json":
        return "\n".join(_json_strings(value))
    return ""  # boolean, datetime, reference: nothing to search for


def document_for(spec: CollectionSpec, row: EntryBase) -> SearchDocument | None:
    """The document for an entry, or None when it must not be in the index."""
    if not indexable(spec) or row.status != "published" or row.deleted_at is not None:
        return None
    values = rows.row_values(spec, row)  # the live values; drafts are in revisions
    title_field = spec.title_field
    head = ""
    body: list[str] = []
    for field in spec.fields:
        if not field.searchable:
            continue
        text = field_text(field, values.get(field.slug))
        if field is title_field:
            head = text
        elif text:
            body.append(text)
    head, body_text = clean(head), clean("\n\n".join(body))
    if not head and not body_text:
        return None
    title = values.get(title_field.slug) if title_field else None
    return SearchDocument(
        collection=spec.slug,
        entry_id=row.id,
        locale=row.locale,
        slug=row.slug,
        title=clean(title, MAX_TITLE) if isinstance(title, str) else "",
        config=get_backend().config_for(row.locale),
        head=head,
        body=body_text,
    )


def _indexed_rows(spec: CollectionSpec) -> Any:
    return rows.live_rows(spec).filter(status="published")


def reindex_entry(collection: str, entry_id: str, *, compare: bool = True) -> None:
    """Bring one entry's document in line with its row: written when published and searchable, else removed.

    The row is read and the document written in one transaction holding the row (PostgreSQL) or the database
    write lock (SQLite), so a write committed meanwhile is indexed after this by its own call, never before.
    ``compare`` first checks, without a write transaction, whether the stored document already matches.
    """
    if compare and _up_to_date(collection, entry_id):
        return
    with transaction.atomic():
        spec = schema.current().collections.get(collection)
        row = None
        if spec is not None and indexable(spec):
            row = locked(spec.model.objects.filter(pk=entry_id)).first()
        if spec is None or row is None:
            remove_entry(collection, entry_id)
        else:
            write_document(spec, row)


def write_document(spec: CollectionSpec, row: EntryBase) -> None:
    """Replace the entry's document with the one ``row`` gives (none when it must not be indexed); the caller's
    transaction holds the row."""
    SearchDocument.objects.filter(collection=spec.slug, entry_id=row.id).delete()
    if (document := document_for(spec, row)) is not None:
        document.save(force_insert=True)


_DOCUMENT_FIELDS = ("locale", "slug", "title", "config", "head", "body")


def _up_to_date(collection: str, entry_id: str) -> bool:
    """Whether the stored document (or its absence) already matches the entry: then there is nothing to write and no
    write transaction to open (on SQLite, no second turn at the write lock). A draft saved, or a create that is then
    published in the same transaction (two changes, one state), costs two reads instead of a write. Read without
    locks: a change committed after these reads sends its own signal, which brings the document in line."""
    spec = schema.current().collections.get(collection)
    row = _indexed_rows(spec).filter(pk=entry_id).first() if spec is not None and indexable(spec) else None
    wanted = document_for(spec, row) if spec is not None and row is not None else None
    stored = SearchDocument.objects.filter(collection=collection, entry_id=entry_id).first()
    if wanted is None or stored is None:
        return wanted is None and stored is None
    return all(getattr(stored, name) == getattr(wanted, name) for name in _DOCUMENT_FIELDS)


def remove_entry(collection: str, entry_id: str) -> None:
    SearchDocument.objects.filter(collection=collection, entry_id=entry_id).delete()


def index_rows(spec: CollectionSpec, entries: Iterable[EntryBase], *, replace: bool = True) -> int:
    """The bulk path: documents for many rows in a few statements. Rows that must not be indexed are skipped;
    with ``replace`` their existing documents go first (pass False when the collection's are already gone)."""
    batch = list(entries)
    documents = [d for d in (document_for(spec, row) for row in batch) if d is not None]
    if replace:
        ids = [row.id for row in batch]
        SearchDocument.objects.filter(collection=spec.slug, entry_id__in=ids).delete()
    SearchDocument.objects.bulk_create(documents, batch_size=500)
    return len(documents)


def _published_in_chunks(spec: CollectionSpec, chunk: int) -> Iterator[list[EntryBase]]:
    last = ""
    qs = _indexed_rows(spec).order_by("id")
    while True:
        page = list(qs.filter(id__gt=last)[:chunk])
        if not page:
            return
        yield page
        last = page[-1].id


def _hold_writers(spec: CollectionSpec) -> None:
    """PostgreSQL: keep writers of the collection out until the rebuild commits, so its reads are the final
    state (SQLite's write lock already does that)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"LOCK TABLE {connection.ops.quote_name(spec.table_name)} IN SHARE MODE")


def rebuild_collection(spec: CollectionSpec, *, progress: Progress | None = None, chunk: int = CHUNK) -> int:
    """Replace every document of a collection in one transaction; returns how many were written."""
    written = 0
    with transaction.atomic():
        SearchDocument.objects.filter(collection=spec.slug).delete()
        if not indexable(spec):
            SearchIndexState.objects.filter(collection=spec.slug).delete()
            return 0
        _hold_writers(spec)
        total = _indexed_rows(spec).count()
        done = 0
        if progress:
            progress(0, total)
        for page in _published_in_chunks(spec, chunk):
            written += index_rows(spec, page, replace=False)
            done += len(page)
            if progress:
                progress(done, total)
        SearchIndexState.objects.update_or_create(
            collection=spec.slug, defaults={"signature": signature(spec), "built_at": timezone.now()}
        )
    log.debug("search index: rebuilt %s (%d documents)", spec.slug, written)
    return written


def drop_collection(slug: str) -> None:
    with transaction.atomic():
        SearchDocument.objects.filter(collection=slug).delete()
        SearchIndexState.objects.filter(collection=slug).delete()
    log.debug("search index: dropped %s", slug)


def reconcile() -> list[str]:
    """After a schema change: rebuild the collections whose indexed shape changed, drop the ones no longer
    indexed (deleted, search support removed, no searchable field left). Returns the slugs touched."""
    collections = schema.current().collections
    expected = {slug: signature(spec) for slug, spec in collections.items() if indexable(spec)}
    stored = dict(SearchIndexState.objects.values_list("collection", "signature"))
    touched = []
    for slug in sorted(stored.keys() - expected.keys()):
        drop_collection(slug)
        touched.append(slug)
    for slug, sig in sorted(expected.items()):
        if stored.get(slug) != sig:
            rebuild_collection(collections[slug])
            touched.append(slug)
    return touched


def drop_orphans() -> int:
    """Documents of collections that no longer exist or are no longer indexed (left by a crash between a
    schema change and its reconcile, or by edits behind the application's back)."""
    keep = [slug for slug, spec in schema.current().collections.items() if indexable(spec)]
    deleted, _ = SearchDocument.objects.exclude(collection__in=keep).delete()
    SearchIndexState.objects.exclude(collection__in=keep).delete()
    return deleted
