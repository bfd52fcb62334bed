"""Entries as the outside world sees them (MCP, REST and templates share these shapes, typed in outputs)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import attrgetter
from typing import Any, cast

from content.entries.outputs import Item, ItemMeta, Seo
from content.entries.rows import DRAFT_SEO, DRAFT_SLUG, SYSTEM_DATES, known_values, row_values, summary_fields
from content.field_types.base import FieldType
from content.models import EntryBase
from content.schema.dynamic import field_attname
from content.schema.specs import CollectionSpec
from emdash.dates import iso

_DATES = attrgetter(*SYSTEM_DATES)


def _as_iso(row: Any) -> tuple[str | None, ...]:
    return tuple(iso(value) for value in _DATES(row))


def _meta(spec: CollectionSpec, row: Any, dates: tuple[str | None, ...]) -> Any:
    """The item's system fields (an ItemMeta, typed ``Any`` for the list loop's sake): ``dates`` are the row's
    timestamps in the wire's text (``_DATES``' order)."""
    body = {
        "id": row.id,
        "collection": spec.slug,
        "slug": row.slug,
        "status": row.status,  # services write only rows.STATUSES
        "locale": row.locale,
        "translationGroup": row.translation_group,
        "authorId": row.author_id,
        "createdAt": dates[0],
        "updatedAt": dates[1],
        "publishedAt": dates[2],
        "scheduledAt": dates[3],
    }
    if dates[4] is not None:
        body["deletedAt"] = dates[4]
    return body


def entry(spec: CollectionSpec, row: EntryBase, *, draft: dict[str, Any] | None, show_draft: bool) -> Item:
    """The full item. With ``show_draft`` a pending draft is the item's ``data`` and the live values go to
    ``liveData``; without it (subscribers, the public) only the live values are shown."""
    live = row_values(spec, row)
    meta: ItemMeta = _meta(spec, row, _as_iso(row))
    if show_draft and draft is not None:
        return {**meta, "hasDraft": True, "data": known_values(spec, draft), "liveData": live}
    if show_draft:
        return {**meta, "hasDraft": False, "data": live}
    return {**meta, "data": live}


def summaries(
    spec: CollectionSpec, rows: Sequence[Any], drafts: Mapping[str, dict[str, Any]], *, show_draft: bool, full: bool
) -> list[Item]:
    """List items: metadata and small fields only, unless ``full`` (a summary page does not load the long
    columns). ``drafts``: pending drafts' data by revision id, shown in place of the row's values with
    ``show_draft``. The fields' columns and conversions are looked up once for the page, not per item."""
    shown = spec.fields if full else summary_fields(spec)
    slugs = [f.slug for f in shown]
    read = attrgetter(*(field_attname(slug) for slug in slugs)) if slugs else None
    # Most types store the JSON value as it is: only the others are called per value.
    converts = [None if type(f.kind).from_db is FieldType.from_db else f.kind.from_db for f in shown]
    plain = not any(converts)
    # A list page's records hold the timestamps as the wire's text already (emdash/wire_dates.py, created_at is
    # never NULL); model rows (the public site's pages) hold datetimes.
    as_text = bool(rows) and isinstance(rows[0].created_at, str)
    items: list[Any] = []
    for row in rows:
        draft = drafts.get(row.draft_revision_id or "") if show_draft else None
        if draft is not None:
            values = known_values(spec, draft)
            values = values if full else {slug: values[slug] for slug in slugs}
        elif read is None:
            values = {}
        else:
            found = read(row) if len(slugs) > 1 else (read(row),)
            if plain:
                values = dict(zip(slugs, found, strict=True))
            else:
                values = {
                    slug: value if convert is None else convert(value)
                    for slug, value, convert in zip(slugs, found, converts, strict=True)
                }
        item = _meta(spec, row, _DATES(row) if as_text else _as_iso(row))
        if show_draft:
            item["hasDraft"] = draft is not None
        item["data"] = values
        items.append(item)
    return cast(list[Item], items)


def with_seo(body: Item, row: EntryBase, *, live_seo: dict[str, Any], meta: dict[str, Any]) -> Item:
    """Add ``seo`` (the draft's when one is pending, with the live one in ``liveSeo``) and ``draftSlug`` (a new
    slug waiting for publish; ``slug`` stays the live one, which is the item's URL and what ``id`` lookups match)."""
    # Stored SEO was checked by seo.merge when written, so it has Seo's shape.
    body["seo"] = cast(Seo, live_seo)
    if DRAFT_SEO in meta and meta[DRAFT_SEO] != live_seo:
        body["seo"] = meta[DRAFT_SEO]
        body["liveSeo"] = cast(Seo, live_seo)
    if meta.get(DRAFT_SLUG) not in (None, row.slug):
        body["draftSlug"] = meta[DRAFT_SLUG]
    return body
