"""Entries as the outside world sees them (MCP, REST and templates share these shapes)."""

from __future__ import annotations

from typing import Any

from content.entries.rows import DRAFT_SEO, DRAFT_SLUG, known_values, row_values, summary_fields
from content.models import EntryBase
from content.schema.specs import CollectionSpec
from emdash.dates import iso


def _meta(spec: CollectionSpec, row: EntryBase) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": row.id,
        "collection": spec.slug,
        "slug": row.slug,
        "status": row.status,
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


def entry(spec: CollectionSpec, row: EntryBase, *, draft: dict[str, Any] | None, show_draft: bool) -> dict[str, Any]:
    """The full item. With ``show_draft`` a pending draft is the item's ``data`` and the live values go to
    ``liveData``; without it (subscribers, the public) only the live values are shown."""
    body = _meta(spec, row)
    live = row_values(spec, row)
    if show_draft and draft is not None:
        body["hasDraft"] = True
        body["data"] = known_values(spec, draft)
        body["liveData"] = live
    else:
        if show_draft:
            body["hasDraft"] = False
        body["data"] = live
    return body


def summary(
    spec: CollectionSpec, row: EntryBase, *, draft: dict[str, Any] | None, show_draft: bool, full: bool = False
) -> dict[str, Any]:
    """A list item: metadata and small fields only, unless ``full``."""
    body = _meta(spec, row)
    shown = spec.fields if full else summary_fields(spec)
    if show_draft and draft is not None:
        values = known_values(spec, draft)
        values = values if full else {f.slug: values[f.slug] for f in shown}
    else:
        values = row_values(spec, row, shown)  # a summary page does not load the long columns
    if show_draft:
        body["hasDraft"] = draft is not None
    body["data"] = values
    return body


def with_seo(body: dict[str, Any], row: EntryBase, *, live_seo: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
    """Add ``seo`` (the draft's when one is pending, with the live one in ``liveSeo``) and ``draftSlug`` (a new
    slug waiting for publish; ``slug`` stays the live one, which is the item's URL and what ``id`` lookups match)."""
    body["seo"] = live_seo
    if DRAFT_SEO in meta and meta[DRAFT_SEO] != live_seo:
        body["seo"] = meta[DRAFT_SEO]
        body["liveSeo"] = live_seo
    if meta.get(DRAFT_SLUG) not in (None, row.slug):
        body["draftSlug"] = meta[DRAFT_SLUG]
    return body
