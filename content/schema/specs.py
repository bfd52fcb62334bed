"""The schema as each process sees it: immutable specs of collections and fields plus their model classes.

:func:`current` checks the database's version stamp (one indexed read) and rebuilds the snapshot only
when another process, or this one, changed the schema.
"""

from __future__ import annotations

import functools
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from django.apps.registry import Apps
from django.db import DEFAULT_DB_ALIAS, connections

from content.field_types import FIELD_TYPES, FieldRules, FieldType
from content.models import Collection, EntryBase, Field, SchemaState
from content.schema.dynamic import build_model
from emdash import prepared
from emdash.conf import emdash_settings
from emdash.dates import iso
from emdash.errors import CollectionNotFound

SUPPORTS = ("drafts", "revisions", "preview", "scheduling", "search")
DEFAULT_SUPPORTS = ("drafts", "revisions")


# The columns of a field's registry row that its FieldSpec mirrors.
FIELD_COLUMNS = (
    "slug",
    "label",
    "type",
    "required",
    "unique",
    "default_value",
    "validation",
    "options",
    "searchable",
    "translatable",
)


@dataclass(frozen=True)
class FieldSpec:
    slug: str
    label: str
    type: str
    required: bool = False
    unique: bool = False
    default_value: Any = None
    validation: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    searchable: bool = False
    translatable: bool = True
    created_at: Any = None

    @functools.cached_property
    def kind(self) -> FieldType:
        """The type object, looked up once per field definition (specs live as long as their schema snapshot)."""
        return FIELD_TYPES[self.type]

    @functools.cached_property
    def rules(self) -> FieldRules:
        v = self.validation
        return FieldRules(
            min=v.get("min"),
            max=v.get("max"),
            min_length=v.get("minLength"),
            max_length=v.get("maxLength"),
            pattern=v.get("pattern"),
            options=tuple(v.get("options") or ()),
        )

    @classmethod
    def from_row(cls, row: Field) -> FieldSpec:
        values = {column: getattr(row, column) for column in FIELD_COLUMNS}
        values.update(validation=row.validation or {}, options=row.options or {})
        return cls(**values, created_at=row.created_at)

    def row_values(self) -> dict[str, Any]:
        """The registry row's columns for this definition (``content.models.Field``, less collection and position)."""
        return {column: getattr(self, column) for column in FIELD_COLUMNS}

    def as_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "slug": self.slug,
            "label": self.label,
            "type": self.type,
            "required": self.required,
            "unique": self.unique,
            "searchable": self.searchable,
            "translatable": self.translatable,
        }
        if self.default_value is not None:
            body["defaultValue"] = self.default_value
        if self.validation:
            body["validation"] = self.validation
        if self.options:
            body["options"] = self.options
        return body


@dataclass(frozen=True)
class CollectionSpec:
    slug: str
    label: str
    label_singular: str
    description: str
    icon: str
    supports: tuple[str, ...]
    table_name: str
    fields: tuple[FieldSpec, ...]
    created_at: Any = None
    updated_at: Any = None
    model: type[EntryBase] = field(default=EntryBase, compare=False, repr=False)  # type: ignore[type-abstract]

    def supports_feature(self, feature: str) -> bool:
        return feature in self.supports

    @property
    def field_map(self) -> dict[str, FieldSpec]:
        return {f.slug: f for f in self.fields}

    def get_field(self, slug: str) -> FieldSpec | None:
        return next((f for f in self.fields if f.slug == slug), None)

    @property
    def title_field(self) -> FieldSpec | None:
        """The field slugs are generated from: ``title``, else ``name``."""
        return self.get_field("title") or self.get_field("name")

    @classmethod
    def from_rows(cls, row: Collection, fields: list[Field]) -> CollectionSpec:
        return cls(
            slug=row.slug,
            label=row.label,
            label_singular=row.label_singular,
            description=row.description,
            icon=row.icon,
            supports=tuple(row.supports or ()),
            table_name=row.table_name,
            fields=tuple(FieldSpec.from_row(f) for f in fields),
            created_at=row.created_at,
            updated_at=row.updated_at,
        )

    def as_dict(self, *, with_fields: bool = True) -> dict[str, Any]:
        body: dict[str, Any] = {
            "slug": self.slug,
            "label": self.label,
            "labelSingular": self.label_singular,
            "description": self.description,
            "icon": self.icon,
            "supports": list(self.supports),
            "createdAt": iso(self.created_at),
            "updatedAt": iso(self.updated_at),
        }
        if with_fields:
            body["fields"] = [f.as_dict() for f in self.fields]
        return body


@dataclass(frozen=True)
class Schema:
    version: int
    collections: dict[str, CollectionSpec]

    def get(self, slug: object) -> CollectionSpec:
        spec = self.collections.get(slug) if isinstance(slug, str) else None
        if spec is None:
            raise CollectionNotFound(f"Collection '{slug}' not found")
        return spec


_lock = threading.Lock()
_snapshot: Schema | None = None
_checked_at = 0.0  # time.monotonic() of the last stamp read that matched _snapshot


@functools.cache
def _version_sql() -> str:
    return (
        f"SELECT version FROM {connections[DEFAULT_DB_ALIAS].ops.quote_name(SchemaState._meta.db_table)} WHERE id = 1"
    )


def stored_version() -> int:
    # Plain SQL on the driver's cursor: every write's transaction reads it, and the ORM's compiler cost several
    # times SQLite's own work.
    found = prepared.read(_version_sql(), {})
    return int(found[0][0]) if found else 0


def load(version: int) -> Schema:
    """Build a snapshot from the registry rows (two queries) with fresh model classes."""
    apps = Apps()
    rows = list(Collection.objects.order_by("slug"))
    fields_by_collection: dict[int, list[Field]] = {}
    for f in Field.objects.order_by("position", "id"):
        fields_by_collection.setdefault(f.collection_id, []).append(f)
    collections = {}
    for row in rows:
        spec = CollectionSpec.from_rows(row, fields_by_collection.get(row.pk, []))
        object.__setattr__(spec, "model", build_model(spec, apps))
        collections[row.slug] = spec
    return Schema(version=version, collections=collections)


def as_of(version: int | None, snapshot: Schema) -> Schema:
    """The schema matching ``version`` (read with the change stamps), from ``snapshot`` when it is that version,
    else reloaded: a process trusts its snapshot for SCHEMA_CHECK_SECONDS, but an answer or validators built from
    an older snapshot than the stamps' would pair the old shape with the new change token."""
    return snapshot if version is None or version == snapshot.version else current(fresh=True)


def current(*, fresh: bool = False) -> Schema:
    """The schema snapshot matching the database's version stamp.

    The stamp is read at most once per SCHEMA_CHECK_SECONDS (default 1 s): a warm read call costs no schema
    query, and a change made by another process is seen within that window (a call that meets a dropped or
    added column meanwhile is retried by ``schema_retry``). Changes made by this process call
    :func:`invalidate`, so they are seen at once; inside a transaction, or with ``fresh`` (schema changes, which
    run outside one), the stamp is always read.
    """
    global _snapshot, _checked_at
    snapshot = _snapshot
    now = time.monotonic()
    window = float(emdash_settings.SCHEMA_CHECK_SECONDS or 0)
    # Writes never trust a possibly stale window: a field another process added a moment ago must be found.
    # connections[...] once: each read through django.db.connection looks the thread's connection up again.
    atomic = connections[DEFAULT_DB_ALIAS].in_atomic_block
    trusted = window > 0 and now - _checked_at < window and not (fresh or atomic)
    if snapshot is not None and trusted:
        return snapshot
    from content import stamps  # late: stamps imports the models, which this module's callers load first

    pinned = None if fresh or atomic else stamps.schema_version()
    version = stored_version() if pinned is None else pinned  # a public page read it with its change stamps
    if snapshot is not None and snapshot.version == version:
        _checked_at = now
        return snapshot
    with _lock:
        if _snapshot is None or _snapshot.version != version:
            _snapshot = load(version)
        _checked_at = now
        return _snapshot


def get_collection(slug: str) -> CollectionSpec:
    """The collection, from a snapshot checked against the stamp if the window's one does not have it: a
    collection another process created a moment ago is found (a miss costs one stamp read)."""
    try:
        return current().get(slug)
    except CollectionNotFound:
        return current(fresh=True).get(slug)


def invalidate() -> None:
    global _snapshot, _checked_at
    with _lock:
        _snapshot = None
        _checked_at = 0.0
