"""Entries as the outside world sees them (MCP, REST and templates share these shapes, typed in outputs)."""

from __future__ import annotations

from typing import Any, cast

from content.entries.outputs import Item, ItemMeta, Seo, Status
from content.entries.rows import DRAFT_SEO, DRAFT_SLUG, known_values, row_values, summary_fields
from content.models import EntryBase
from content.schema.specs import CollectionSpec
from emdash.dates import iso


def _meta(spec: CollectionSpec, row: EntryBase) -> ItemMeta:
    body: ItemMeta = {
        "id": row.id,
        "collection": spec.slug,
        "slug": row.slug,
        "status": cast(Status, row.status),  # services write only rows.STATUSES
        "locale": row.locale,
        "translationGroup": row.translation_group,
        "authorId": row.author_id,
        "createdAt": iso(row.created_at),
        "updatedAt": iso(row.updated_at),
        "publishedAt": iso(row.published_at),
        "scheduledAt": iso(row.scheduled_at),
    }
    if row.deleted_at is not None:
        body["deletedAt"] = iso(row.deleted_at)
    return body


def entry(spec: CollectionSpec, row: EntryBase, *, draft: dict[str, Any] | None, show_draft: bool) -> Item:
    """The full item. With ``show_draft`` a pending draft is the item's ``data`` and the live values go to
    ``liveData``; without it (subscribers, the public) only the live values are shown."""
    live = row_values(spec, row)
    if show_draft and draft is not None:
        return {**_meta(spec, row), "hasDraft": True, "data": known_values(spec, draft), "liveData": live}
    if show_draft:
        return {**_meta(spec, row), "hasDraft": False, "data": live}
    return {**_meta(spec, row), "data": live}


def summary(
    spec: CollectionSpec, row: EntryBase, *, draft: dict[str, Any] | None, show_draft: bool, full: bool = False
) -> Item:
    """A list item: metadata and small fields only, unless ``full``."""
    shown = spec.fields if full else summary_fields(spec)
    if show_draft and draft is not None:
        values = known_values(spec, draft)
        values = values if full else {f.slug: values[f.slug] for f in shown}
    else:
        values = row_values(spec, row, shown)  # a summary page does not load the long columns
    if show_draft:
        return {**_meta(spec, row), "hasDraft": draft is not None, "data": values}
    return {**_meta(spec, row), "data": values}


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
