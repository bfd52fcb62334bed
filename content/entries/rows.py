"""Entry rows: finding them, converting columns to values and back, drafts, and the ``_rev`` token."""

from __future__ import annotations

import base64
import functools
import re
from datetime import datetime
from typing import Any, cast

from django.db import connection
from django.db.models import Case, Field, IntegerField, JSONField, OuterRef, QuerySet, Subquery, Value, When

from content import hooks
from content.models import EntryBase, EntrySeo, Revision
from content.schema.dynamic import field_attname
from content.schema.specs import CollectionSpec
from emdash import prepared
from emdash.conf import emdash_settings
from emdash.errors import NotFound, ValidationError
from emdash.prepared import Prepared

ULID_RE = re.compile(r"^[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26}$")
STATUSES = ("draft", "published", "scheduled")
# Keys a draft revision may hold besides field values; the leading "_" keeps them apart from field slugs.
DRAFT_SLUG = "_slug"
DRAFT_SEO = "_seo"
DRAFT_META = (DRAFT_SLUG, DRAFT_SEO)
# The timestamp columns every entry has (EntryBase), shown in every item's metadata.
SYSTEM_DATES = ("created_at", "updated_at", "published_at", "scheduled_at", "deleted_at")


def resolve_locale(locale: Any) -> str:
    if locale is None:
        return emdash_settings.default_locale
    if locale not in emdash_settings.LOCALES:
        allowed = ", ".join(emdash_settings.LOCALES)
        raise ValidationError.for_fields({"locale": f"must be one of the configured locales: {allowed}"})
    return str(locale)


def not_found(spec: CollectionSpec, ident: Any) -> NotFound:
    return NotFound(f"No item '{ident}' in collection '{spec.slug}' (content_list lists its items)")


def live_rows(spec: CollectionSpec) -> QuerySet[EntryBase]:
    return spec.model.objects.filter(deleted_at__isnull=True)


_TEXT_FIELDS = ("CharField", "TextField")


def published_by_id(spec: CollectionSpec, ids: list[str], *columns: str) -> list[tuple[Any, ...]]:
    """``columns`` (text fields: id, slug, a title) of those of ``ids`` that are published and not trashed. The
    status is checked here, not in SQL: given "status = ?" SQLite may prefer the status index and read every
    published row over looking these few ids up by primary key (14 ms instead of 0.1 at 100k items). Plain SQL:
    the search's live check runs it on every search, where Django's compiler cost as much as the statement."""
    if not ids:
        return []
    fields = [cast("Field[Any, Any]", spec.model._meta.get_field(name)) for name in ("status", *columns)]
    if any(field.get_internal_type() not in _TEXT_FIELDS for field in fields):
        by_orm = live_rows(spec).filter(id__in=ids).values_list("status", *columns)
        return [row[1:] for row in by_orm if row[0] == "published"]
    quote = connection.ops.quote_name
    marks = ", ".join(f"%(i{n})s" for n in range(len(ids)))
    sql = (
        f"SELECT {', '.join(quote(str(field.column)) for field in fields)} FROM {quote(spec.model._meta.db_table)} "
        f"WHERE {quote('deleted_at')} IS NULL AND {quote('id')} IN ({marks})"
    )
    found = prepared.read(sql, {f"i{n}": entry_id for n, entry_id in enumerate(ids)})
    return [tuple(row[1:]) for row in found if row[0] == "published"]


def trashed_rows(spec: CollectionSpec) -> QuerySet[EntryBase]:
    return spec.model.objects.filter(deleted_at__isnull=False)


@functools.lru_cache(maxsize=512)  # per model class, i.e. per collection and schema snapshot
def _by_id(model: type[EntryBase], collection: str, trashed: bool, for_read: bool) -> Prepared:
    """The entry-by-id query; the id is its last parameter (the subqueries' collection comes first)."""
    qs = model.objects.filter(deleted_at__isnull=not trashed, id="")
    if for_read:
        qs = _read_along(qs, collection)
    return Prepared(qs.order_by()[:1])


@functools.lru_cache(maxsize=512)  # per model class, i.e. per collection and schema snapshot
def _credits_by_id(model: type[EntryBase], collection: str) -> Prepared:
    """An entry's two credit columns (see ``hooks.credits_columns``) by id, its last parameter."""
    qs = model.objects.filter(id="").annotate(**hooks.credits_columns(collection))
    return Prepared(qs.order_by().values_list("credits_live", "byline_live")[:1])


def read_credits(spec: CollectionSpec, row: EntryBase) -> None:
    """Give a row read without them its credit columns (``hooks.row_credits`` then reads them): one statement
    compiled once, not the bylines app's two queries (a write's answer carries the item's credits)."""
    if hasattr(row, "credits_live") or not hooks.bylines_installed():
        return
    query = _credits_by_id(spec.model, spec.slug)
    found = query.rows([*query.params[:-1], row.id])
    row.credits_live, row.byline_live = found[0] if found else (None, None)  # type: ignore[attr-defined]


def _read_along(qs: QuerySet[EntryBase], collection: str) -> QuerySet[EntryBase]:
    """The live SEO (``seo_live``), the terms (``terms_live``) and the credits (SPEC 10) as columns of the
    row's query."""
    seo = EntrySeo.objects.filter(collection=collection, entry_id=OuterRef("id")).values("data")[:1]
    qs = qs.annotate(seo_live=Subquery(seo, output_field=JSONField()))
    if (terms := hooks.terms_column(collection)) is not None:
        qs = qs.annotate(terms_live=terms)
    return qs.annotate(**hooks.credits_columns(collection))


def find(
    spec: CollectionSpec,
    ident: Any,
    *,
    locale: Any = None,
    trashed: bool = False,
    for_update: bool = False,
    for_read: bool = False,
) -> EntryBase:
    """An entry by ULID or slug (slugs prefer ``locale``, else the default locale). Raises NOT_FOUND.
    ``for_read`` fetches what a read shows in the same query: the live SEO (``row.seo_live``) and the terms
    (``row.terms_live``, for ``hooks.row_terms``) and the credits (``hooks.row_credits``)."""
    if not isinstance(ident, str) or not ident or len(ident) > 200 or "\x00" in ident:
        raise not_found(spec, ident)
    locked = for_update and connection.features.has_select_for_update
    if ULID_RE.match(ident) and not locked:  # the read path: compiled once per collection
        by_id = _by_id(spec.model, spec.slug, trashed, for_read)
        row = next(iter(by_id.objects([*by_id.params[:-1], ident.upper()])), None)
        if row is not None:
            return row
    qs = trashed_rows(spec) if trashed else live_rows(spec)
    if locked:
        qs = qs.select_for_update()
        if ULID_RE.match(ident) and (row := qs.filter(id=ident.upper()).first()) is not None:
            return row
    by_slug = qs.filter(slug=ident)
    if for_read:  # a public page finds its entry by slug: the SEO and terms come with the row, as by id
        by_slug = _read_along(by_slug, spec.slug)
    if locale is not None:
        by_slug = by_slug.filter(locale=resolve_locale(locale))
    else:
        default = emdash_settings.default_locale
        by_slug = by_slug.order_by(
            Case(When(locale=default, then=Value(0)), default=Value(1), output_field=IntegerField()), "locale"
        )
    row = by_slug.first()
    if row is None:
        raise not_found(spec, ident)
    return row


def row_values(spec: CollectionSpec, row: EntryBase, fields: Any = None) -> dict[str, Any]:
    """Field values stored in the row's columns (``fields``, default all), in their JSON form."""
    return {
        f.slug: f.kind.from_db(getattr(row, field_attname(f.slug))) for f in (spec.fields if fields is None else fields)
    }


def summary_fields(spec: CollectionSpec) -> tuple[Any, ...]:
    """The fields a list item shows (no long text or rich text)."""
    return tuple(f for f in spec.fields if f.kind.in_summary)


def long_columns(spec: CollectionSpec) -> list[str]:
    """Attribute names of the columns a list page need not load (it shows summaries)."""
    return [field_attname(f.slug) for f in spec.fields if not f.kind.in_summary]


def column_changes(spec: CollectionSpec, values: dict[str, Any]) -> dict[str, Any]:
    """``{attname: db value}`` for writing field values into a row."""
    fields = spec.field_map
    return {
        field_attname(slug): (None if value is None else fields[slug].kind.to_db(value))
        for slug, value in values.items()
        if slug in fields
    }


def known_values(spec: CollectionSpec, data: dict[str, Any]) -> dict[str, Any]:
    """Revision data restricted to fields that still exist, with every current field present."""
    return {f.slug: data.get(f.slug) for f in spec.fields}


def drafts_for(rows: list[EntryBase]) -> dict[str, dict[str, Any]]:
    """Draft data by revision id for a page of rows, in one query."""
    ids = [r.draft_revision_id for r in rows if r.draft_revision_id]
    if not ids:
        return {}
    return dict(Revision.objects.filter(id__in=ids).values_list("id", "data"))


def draft_raw(row: EntryBase) -> dict[str, Any] | None:
    """The pending draft revision's stored data (field values plus the DRAFT_META keys), or None."""
    if not row.draft_revision_id:
        return None
    data = Revision.objects.filter(id=row.draft_revision_id).values_list("data", flat=True).first()
    return data if isinstance(data, dict) else None


def draft_meta(raw: dict[str, Any] | None) -> dict[str, Any]:
    """What the draft changes besides field values: a new slug and SEO, applied on publish (SPEC 7)."""
    return {key: raw[key] for key in DRAFT_META if key in raw} if raw else {}


def draft_values(spec: CollectionSpec, row: EntryBase) -> dict[str, Any] | None:
    raw = draft_raw(row)
    return None if raw is None else known_values(spec, raw)


def current_values(spec: CollectionSpec, row: EntryBase) -> dict[str, Any]:
    """What an editor is working on: the draft when there is one, else the row."""
    draft = draft_values(spec, row)
    return draft if draft is not None else row_values(spec, row)


def has_live_version(spec: CollectionSpec, row: EntryBase) -> bool:
    """Published at least once in a collection with revisions: edits must go to a draft."""
    return spec.supports_feature("revisions") and row.live_revision_id is not None


def rev_token(row: EntryBase) -> str:
    return rev_of(row.version, row.updated_at)


def rev_of(version: int, updated_at: datetime) -> str:
    raw = f"{version}.{int(updated_at.timestamp() * 1_000_000)}"
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")
