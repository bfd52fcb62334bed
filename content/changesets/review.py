"""What a reviewer sees of one entry: the item, a field-level diff of the pinned draft against the live version,
the problems that would block publishing, and the public URLs the change touches."""

from __future__ import annotations

from typing import Any

from content.changesets.models import ChangeSetEntry
from content.entries import rows
from content.entries.dead_links import without_dead_links
from content.entries.rows import DRAFT_SLUG
from content.links import entry_path
from content.models import EntryBase, Revision
from content.schema import specs as schema
from content.schema.specs import CollectionSpec
from content.schema.validation import validate_data
from emdash.errors import CollectionNotFound, NotFound, ValidationError


def locate(entry: ChangeSetEntry) -> tuple[CollectionSpec, EntryBase | None, bool]:
    """The entry's collection, its row (live or trashed, None when gone) and whether it is in the trash."""
    spec = schema.get_collection(entry.collection)
    for trashed in (False, True):
        try:
            return spec, rows.find(spec, entry.entry_id, trashed=trashed), trashed
        except NotFound:
            continue
    return spec, None, False


def is_stale(entry: ChangeSetEntry, row: EntryBase) -> bool:
    """The item changed since it was pinned: a new draft revision, or (no draft revisions) a new row version."""
    if entry.pinned_revision_id or row.draft_revision_id:
        return row.draft_revision_id != entry.pinned_revision_id
    return row.version != entry.pinned_version


def proposed_values(spec: CollectionSpec, entry: ChangeSetEntry, row: EntryBase) -> tuple[dict[str, Any], str | None]:
    """The field values and slug the entry would make live: the pinned draft revision, else the row itself."""
    if entry.pinned_revision_id:
        raw = Revision.objects.filter(id=entry.pinned_revision_id).values_list("data", flat=True).first()
        if isinstance(raw, dict):
            return rows.known_values(spec, raw), raw.get(DRAFT_SLUG)
    return rows.row_values(spec, row), None


def live_values(spec: CollectionSpec, row: EntryBase) -> dict[str, Any]:
    """What the public sees now: the row's values while it is published, nothing otherwise."""
    return rows.row_values(spec, row) if row.status == "published" and row.deleted_at is None else {}


def diff(live: dict[str, Any], draft: dict[str, Any]) -> list[dict[str, Any]]:
    """``[{field, live, draft}]`` for every field whose value differs (absent and null are the same)."""
    return [
        {"field": name, "live": live.get(name), "draft": draft.get(name)}
        for name in dict.fromkeys([*live, *draft])
        if live.get(name) != draft.get(name)
    ]


def problems(spec: CollectionSpec, entry: ChangeSetEntry, row: EntryBase | None, trashed: bool) -> dict[str, str]:
    """What blocks the entry (``{path: problem}``): an item gone or in the trash, and, for a publish, the checks
    a new item must pass (required fields empty, broken references, values taken by another item)."""
    if row is None:
        return {"item": "the item no longer exists"}
    if trashed:
        return {"item": "the item is in the trash; restore it or remove it from the change set"}
    if entry.action != ChangeSetEntry.PUBLISH:
        return {}
    values, _ = proposed_values(spec, entry, row)
    # Links to items deleted since the draft was saved are hidden on reads, not problems (SPEC 10).
    values = without_dead_links(spec, values)
    present = {name: value for name, value in values.items() if value is not None}
    try:
        validate_data(spec, present, partial=False, entry_id=row.id)
    except ValidationError as exc:
        return dict((exc.details or {}).get("fields", {}))
    return {}


def title_of(spec: CollectionSpec, values: dict[str, Any], row: EntryBase) -> str:
    field = spec.title_field
    title = values.get(field.slug) if field is not None else None
    return str(title) if title else row.slug


def inspect(entry: ChangeSetEntry, *, settled: bool = False) -> dict[str, Any]:
    """The reviewer's view of one entry (the ``entries`` of changeset_get). In a ``settled`` set (published or
    cancelled) the pin has done its work: publishing made the pinned draft live, so the item's draft moved on
    without anything left to review."""
    base: dict[str, Any] = {"collection": entry.collection, "id": entry.entry_id, "action": entry.action}
    try:
        spec, row, trashed = locate(entry)
    except CollectionNotFound:
        return {**base, "diff": [], "problems": {"collection": "the collection no longer exists"}, "urls": []}
    found = problems(spec, entry, row, trashed)
    if row is None:
        return {**base, "diff": [], "problems": found, "urls": []}
    draft, new_slug = proposed_values(spec, entry, row)
    live = live_values(spec, row)
    changes = diff(live, draft) if entry.action == ChangeSetEntry.PUBLISH else []
    urls = [entry_path(spec.slug, row.slug)]
    if entry.action == ChangeSetEntry.PUBLISH and new_slug and new_slug != row.slug:
        urls.append(entry_path(spec.slug, new_slug))
        changes.append({"field": "slug", "live": row.slug, "draft": new_slug})
    return {
        **base,
        "item": {"id": row.id, "slug": row.slug, "title": title_of(spec, draft, row), "status": row.status},
        "pinnedRevisionId": entry.pinned_revision_id or "",
        "changedSincePinned": not settled and is_stale(entry, row),
        "diff": changes,
        "problems": found,
        "urls": urls,
    }
