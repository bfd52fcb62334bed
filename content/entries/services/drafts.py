"""Where an edit goes: into a draft revision when the item has a live version, else straight into the row.

A new slug and new SEO follow the same rule as field values (SPEC 7): on an item with a live version they
wait in the draft (``rows.DRAFT_META``) and go live on publish, so the public URL never moves on a save.
"""

from __future__ import annotations

from typing import Any

from content.entries import revisions, rows, seo, slugs, writes
from content.entries.rows import DRAFT_SEO, DRAFT_SLUG
from content.models import EntryBase
from content.redirects import services as redirects
from content.schema.specs import CollectionSpec
from emdash.actor import Actor
from emdash.errors import SlugConflict


def check_slug_free(spec: CollectionSpec, row: EntryBase, slug: str) -> None:
    if spec.model.objects.filter(locale=row.locale, slug=slug).exclude(id=row.id).exists():
        raise SlugConflict(f"Slug '{slug}' is already used in '{spec.slug}' ({row.locale})")


def _pending(spec: CollectionSpec, row: EntryBase) -> dict[str, Any]:
    return rows.draft_meta(rows.draft_raw(row)) if rows.has_live_version(spec, row) else {}


def requested_slug(spec: CollectionSpec, row: EntryBase, slug: Any) -> str | None:
    """The checked new slug an edit asks for; None when the item already has (or is about to get) it."""
    if slug == _pending(spec, row).get(DRAFT_SLUG, row.slug):
        return None
    new_slug = slugs.check_entry_slug(slug)
    check_slug_free(spec, row, new_slug)
    return new_slug


def requested_seo(spec: CollectionSpec, row: EntryBase, changes: Any) -> dict[str, Any] | None:
    """The item's SEO after applying ``changes`` (an input model or a dict; a key set to null is cleared)."""
    if changes is None:
        return None
    if hasattr(changes, "model_dump"):
        changes = changes.model_dump(exclude_unset=True)
    pending = _pending(spec, row)
    current = pending[DRAFT_SEO] if DRAFT_SEO in pending else seo.live(spec.slug, row.id)
    return seo.merge(current, dict(changes))


def was_public(row: EntryBase) -> bool:
    """Published now or before: its URL may be linked and indexed, so moving it leaves a redirect."""
    return row.status == "published" or row.live_revision_id is not None


def write_values(
    spec: CollectionSpec,
    row: EntryBase,
    values: dict[str, Any],
    actor: Actor,
    *,
    slug: str | None = None,
    seo_value: dict[str, Any] | None = None,
    autosave: bool = False,
) -> None:
    """Store edited values (and a new slug / SEO): into a new draft revision when the item has a live
    version, else into the row. A draft keeps the slug and SEO an earlier save left pending; an autosave updates
    its editing session's revision in place (:func:`content.entries.revisions.record_draft`)."""
    if rows.has_live_version(spec, row):
        raw = rows.draft_raw(row)
        base = rows.known_values(spec, raw) if raw is not None else rows.row_values(spec, row)
        merged = {**base, **rows.draft_meta(raw), **values}
        if slug is not None:
            merged[DRAFT_SLUG] = slug
        if seo_value is not None:
            merged[DRAFT_SEO] = seo_value
        if merged.get(DRAFT_SLUG) == row.slug:
            del merged[DRAFT_SLUG]  # back to the live slug: nothing waits
        draft_id = revisions.record_draft(spec, row.id, merged, actor, autosave=autosave)
        writes.save(spec, row, draft_revision_id=draft_id)
    else:
        old_slug, public = row.slug, was_public(row)
        writes.save(spec, row, **rows.column_changes(spec, values), **({"slug": slug} if slug else {}))
        if seo_value is not None:
            seo.store(spec.slug, row.id, seo_value)
        if spec.supports_feature("revisions"):
            revisions.record_draft(spec, row.id, rows.row_values(spec, row), actor, autosave=autosave)
        if slug and public:  # no drafts in this collection: the URL moves now
            redirects.record_move(spec.slug, row.id, old_slug, slug, actor)
    if spec.supports_feature("revisions"):
        revisions.prune(spec, row)
