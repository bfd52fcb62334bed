"""Content reads with their visibility rules: subscribers and the public see published items only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from django.db.models import Count, F, Q, QuerySet

from content.entries import filters, pages, revisions, rows, seo
from content.entries.entry import Entry, EntryRows
from content.entries.outputs import Compare, Revisions, SavedRevision, Seo, Translations
from content.models import EntryBase, Revision
from content.schema import specs as schema
from content.schema.dynamic import field_attname
from content.schema.retry import schema_retry
from content.schema.specs import CollectionSpec
from emdash.actor import Actor
from emdash.dates import iso
from emdash.errors import ValidationError
from emdash.permissions import Perm, can, require

ORDER_FIELDS = {
    "created_at": "created_at",
    "createdAt": "created_at",
    "updated_at": "updated_at",
    "updatedAt": "updated_at",
    "published_at": "published_at",
    "publishedAt": "published_at",
    "scheduled_at": "scheduled_at",
    "scheduledAt": "scheduled_at",
    "title": "title",
    "slug": "slug",
    "status": "status",
}


def sees_unpublished(actor: Actor) -> bool:
    return can(actor, Perm.CONTENT_READ_UNPUBLISHED)


def _check_limit(limit: Any, maximum: int = 100) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= maximum:
        raise ValidationError.for_fields({"limit": f"must be an integer from 1 to {maximum}"})
    return limit


@schema_retry
def entry_get(*, actor: Actor, collection: str, id: str, locale: str | None = None) -> Entry:
    spec = schema.get_collection(collection)
    require(actor, Perm.CONTENT_READ)
    row = rows.find(spec, id, locale=locale, for_read=True)
    show_draft = sees_unpublished(actor)
    if not show_draft and row.status != "published":
        raise rows.not_found(spec, id)  # no hint that an unpublished item exists
    return Entry.load(spec, row, show_draft=show_draft)


def _order_column(spec: CollectionSpec, order_by: Any) -> str:
    name = ORDER_FIELDS.get(order_by) if isinstance(order_by, str) else None
    if name is None:
        allowed = ", ".join(k for k in ORDER_FIELDS if "_" in k or k in {"title", "slug", "status"})
        raise ValidationError.for_fields({"orderBy": f"must be one of: {allowed} (camelCase also accepted)"})
    if name == "title":
        title = spec.title_field
        if title is None:
            raise ValidationError.for_fields({"orderBy": f"collection '{spec.slug}' has no title field"})
        return field_attname(title.slug)
    return name


# The FilterSet's form validation costs about as much as the list query; a list narrowed only by status and
# locale (nearly every call) reuses its result, per collection model (i.e. per schema snapshot).
_plain_lists: dict[tuple[Any, ...], tuple[QuerySet[EntryBase], str]] = {}


def _filtered(spec: CollectionSpec, given: dict[str, Any]) -> tuple[QuerySet[EntryBase], str]:
    if given.keys() - {"status", "locale"}:
        return filters.apply(spec, rows.live_rows(spec), given)
    key = (spec.model, given.get("status"), given.get("locale"))
    found = _plain_lists.get(key)
    if found is None:
        if len(_plain_lists) >= 512:
            _plain_lists.clear()
        found = _plain_lists[key] = filters.apply(spec, rows.live_rows(spec), given)
    return found


@schema_retry
def entry_list(
    *,
    actor: Actor,
    collection: str,
    status: str | None = None,
    locale: str | None = None,
    order_by: str = "created_at",
    order: str = "desc",
    limit: int = 50,
    cursor: str | None = None,
    full: bool = False,
    search: Any = None,
    filter: Mapping[str, Any] | None = None,
) -> EntryRows:
    """A page of items narrowed by the collection's FilterSet (``filter``: see content/entries/filters.py);
    ``search`` keeps items whose title (or slug) contains the text, case-insensitively."""
    spec = schema.get_collection(collection)
    require(actor, Perm.CONTENT_READ)
    limit = _check_limit(limit)
    if status is not None and status not in rows.STATUSES:
        raise ValidationError.for_fields({"status": "must be one of: draft, published, scheduled"})
    if order not in ("asc", "desc"):
        raise ValidationError.for_fields({"order": "must be 'asc' or 'desc'"})
    column = _order_column(spec, order_by)
    show_draft = sees_unpublished(actor)
    if locale is not None:
        locale = rows.resolve_locale(locale)
    given = {**filters.flatten(filter), "locale": locale}
    if not show_draft:
        if status not in (None, "published"):
            filters.apply(spec, rows.live_rows(spec), given)  # bad filters are refused for everyone alike
            return EntryRows(spec, [], {})
        status = "published"
    qs, digest = _filtered(spec, {**given, "status": status})
    if search is not None:
        qs = qs.filter(_title_contains(spec, search))
    query_key = f"list:{spec.slug}:{status}:{locale}:{column}:{order}:{show_draft}:{search}:{digest}"
    return pages.page(
        spec,
        qs,
        column=column,
        descending=order == "desc",
        limit=limit,
        cursor=cursor,
        query_key=query_key,
        show_draft=show_draft,
        full=full,
    )


def _title_contains(spec: CollectionSpec, search: Any) -> Q:
    if not isinstance(search, str) or len(search) > 200 or "\x00" in search:
        raise ValidationError.for_fields({"search": "must be text of at most 200 characters"})
    match = Q(slug__icontains=search)
    if spec.title_field is not None:
        match |= Q(**{f"{field_attname(spec.title_field.slug)}__icontains": search})
    return match


@schema_retry
def entry_list_trashed(*, actor: Actor, collection: str, limit: int = 50, cursor: str | None = None) -> EntryRows:
    spec = schema.get_collection(collection)
    require(actor, Perm.CONTENT_READ_UNPUBLISHED)
    limit = _check_limit(limit)
    return pages.page(
        spec,
        rows.trashed_rows(spec),
        column="deleted_at",
        descending=True,
        limit=limit,
        cursor=cursor,
        query_key=f"trash:{spec.slug}",
        show_draft=True,
        full=False,
    )


@schema_retry
def entry_compare(*, actor: Actor, collection: str, id: str) -> Compare:
    """``{hasChanges, live, draft}`` (live is None for items never published), plus the slug and SEO on each
    side: a new slug or SEO waits in the draft like the values."""
    spec = schema.get_collection(collection)
    require(actor, Perm.CONTENT_READ_UNPUBLISHED)
    row = rows.find(spec, id)
    published_once = row.live_revision_id is not None or row.status == "published"
    raw = rows.draft_raw(row)
    meta = rows.draft_meta(raw)
    live = rows.row_values(spec, row) if published_once else None
    draft = rows.known_values(spec, raw) if raw is not None else rows.row_values(spec, row)
    live_seo = seo.live(spec.slug, row.id)
    live_slug, draft_slug = row.slug if published_once else None, meta.get(rows.DRAFT_SLUG, row.slug)
    shown_seo, draft_seo = live_seo if published_once else None, meta.get(rows.DRAFT_SEO, live_seo)
    return {
        "hasChanges": live != draft or live_slug != draft_slug or shown_seo != draft_seo,
        "live": live,
        "draft": draft,
        "liveSlug": live_slug,
        "draftSlug": draft_slug,
        "liveSeo": cast(Seo | None, shown_seo),  # stored SEO, checked by seo.merge when written
        "draftSeo": draft_seo,
    }


@schema_retry
def entry_translations(*, actor: Actor, collection: str, id: str) -> Translations:
    spec = schema.get_collection(collection)
    require(actor, Perm.CONTENT_READ)
    row = rows.find(spec, id)
    show_all = sees_unpublished(actor)
    if not show_all and row.status != "published":
        raise rows.not_found(spec, id)
    group = rows.live_rows(spec).filter(translation_group=row.translation_group).order_by("locale")
    if not show_all:
        group = group.filter(status="published")
    return {
        "translationGroup": row.translation_group,
        "translations": [
            {"id": r.id, "locale": r.locale, "slug": r.slug, "status": r.status, "updatedAt": iso(r.updated_at)}
            for r in group
        ],
    }


@schema_retry
def revision_list(*, actor: Actor, collection: str, id: str, limit: int = 20) -> Revisions:
    spec = schema.get_collection(collection)
    require(actor, Perm.CONTENT_READ_UNPUBLISHED)
    limit = _check_limit(limit, 50)
    row = rows.find(spec, id)
    qs = Revision.objects.filter(collection=spec.slug, entry_id=row.id)
    items: list[SavedRevision] = []
    for r in qs.order_by("-created_at", "-id")[:limit]:
        item: SavedRevision = {
            "id": r.id,
            "kind": r.kind,
            "createdAt": iso(r.created_at),
            "authorId": r.author_id,
            "via": r.via,  # type: ignore[typeddict-item]
            "data": rows.known_values(spec, r.data or {}),
        }
        if (credits := revisions.kept_credits(r.data)) is not None:
            item["bylines"] = credits
        items.append(item)
    return {"items": items, "total": qs.count()}


@schema_retry
def entry_status_counts(*, actor: Actor, collection: str) -> dict[str, int]:
    """``{draft, published, scheduled, trash}`` item counts, for dashboards (contributors and up)."""
    spec = schema.get_collection(collection)
    require(actor, Perm.CONTENT_READ_UNPUBLISHED)
    counts = dict.fromkeys((*rows.STATUSES, "trash"), 0)
    for status, count in rows.live_rows(spec).values_list("status").annotate(n=Count("id")).order_by():
        counts[status] = count
    counts["trash"] = rows.trashed_rows(spec).count()
    return counts


@schema_retry
def published_page(
    *, collection: str, ids: list[str] | None = None, locale: Any = None, page: int = 1, per_page: int = 10
) -> tuple[EntryRows, bool]:
    """For the public site: one numbered page of published items (newest first, full values) and whether
    another page follows. ``ids`` narrows it to those items (taxonomy archives)."""
    spec = schema.get_collection(collection)
    require(Actor.anonymous(), Perm.CONTENT_READ)
    per_page = _check_limit(per_page)
    if isinstance(page, bool) or not isinstance(page, int) or page < 1:
        raise ValidationError.for_fields({"page": "must be a positive integer"})
    qs = rows.live_rows(spec).filter(status="published")
    if ids is not None:
        qs = qs.filter(id__in=ids)
    if locale is not None:
        qs = qs.filter(locale=rows.resolve_locale(locale))
    start = (page - 1) * per_page
    found = list(qs.order_by(F("published_at").desc(nulls_last=True), "-id")[start : start + per_page + 1])
    return EntryRows(spec, found[:per_page], {}, full=True), len(found) > per_page
