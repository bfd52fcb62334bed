"""Creating, editing, trashing, restoring, deleting and duplicating entries."""

from __future__ import annotations

import zlib
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from content.entries import revisions, rows, slugs, writes
from content.entries.dead_links import forgiven, without_dead_links
from content.entries.entry import Entry
from content.entries.seo import forget as seo_forget
from content.entries.seo import store as seo_store
from content.entries.services.drafts import requested_seo, requested_slug, write_values
from content.entries.services.ownership import editing
from content.entries.services.publishing import publish_row, unpublish_row
from content.hooks import assigned_terms, credit_snapshot, replace_entry_bylines, replace_entry_terms
from content.models import EntryBase, Revision
from content.redirects.services import forget_moves
from content.schema import specs as schema
from content.schema.retry import schema_retry
from content.schema.specs import CollectionSpec
from content.schema.validation import validate_data
from content.signals import entry_deleting, send_entry_changed
from emdash import prepared
from emdash.actor import Actor
from emdash.errors import Conflict, NotFound, SlugConflict, ValidationError
from emdash.ids import new_id
from emdash.permissions import Perm, can, draft_only, require, require_go_live, require_owner_or

WRITE_STATUSES = ("draft", "published")
COPY_SUFFIX = " (Copy)"


def _check_status(status: Any) -> None:
    if status is not None and status not in WRITE_STATUSES:
        raise ValidationError.for_fields({"status": "must be 'draft' or 'published'"})


def _slug_source(spec: CollectionSpec, values: dict[str, Any], hint: str | None = None) -> str:
    """What a generated slug is made from: the title (or name), else the caller's hint, else "untitled"."""
    title = spec.title_field
    value = values.get(title.slug) if title else None
    return value if isinstance(value, str) and value.strip() else (hint or slugs.FALLBACK)


def _taken_slugs(spec: CollectionSpec, base: str, locale: str, exclude_id: str | None = None) -> set[str]:
    # Suffixed candidates cut a long base short to stay within the length cap (slugs.next_free), so
    # match on the part of the base that every candidate keeps, not on the whole base.
    prefix = base[: slugs.GENERATED_MAX_LENGTH - 20]
    qs = spec.model.objects.filter(locale=locale, slug__startswith=prefix)
    if exclude_id:
        qs = qs.exclude(id=exclude_id)
    return set(qs.values_list("slug", flat=True))


def _claim_slug(
    spec: CollectionSpec, explicit: Any, values: dict[str, Any], locale: str, hint: str | None = None
) -> str:
    if explicit is not None:
        slug = slugs.check_entry_slug(explicit)
        if spec.model.objects.filter(locale=locale, slug=slug).exists():
            raise SlugConflict(f"Slug '{slug}' is already used in '{spec.slug}' ({locale})")
        return slug
    # The title's own slug first, with no lookup: it is usually free, and _insert falls back to a queued
    # claim of the next free one when it is not.
    return slugs.next_free(slugs.slugify(_slug_source(spec, values, hint)), set())


def _serialise_slug_claims(spec: CollectionSpec, base: str, locale: str) -> None:
    """PostgreSQL: concurrent creates generating slugs from one base queue here until the holder commits,
    so each sees the others' slugs (otherwise N racers need N insert retries). SQLite's IMMEDIATE
    transactions already serialise writers."""
    if connection.vendor == "postgresql" and connection.in_atomic_block:
        key = zlib.crc32(f"{spec.table_name}\0{locale}\0{base}".encode())
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def _insert(
    spec: CollectionSpec, row: EntryBase, *, explicit_slug: bool, values: dict[str, Any], hint: str | None = None
) -> None:
    """Insert; a generated slug found taken (by an older item or a concurrent writer) becomes the next free one,
    claimed in the queue of _serialise_slug_claims."""
    for _ in range(5):
        # ON CONFLICT DO NOTHING rather than a savepoint to recover from: two round trips fewer on PostgreSQL.
        if prepared.insert(row, or_skip=True):
            return
        if explicit_slug or not spec.model.objects.filter(locale=row.locale, slug=row.slug).exists():
            raise SlugConflict(f"Slug '{row.slug}' is already used in '{spec.slug}' ({row.locale})")
        base = slugs.slugify(_slug_source(spec, values, hint))
        _serialise_slug_claims(spec, base, row.locale)
        row.slug = slugs.next_free(base, _taken_slugs(spec, base, row.locale))
    raise Conflict("Could not find a free slug; pass one explicitly")


@schema_retry
def entry_create(
    *,
    actor: Actor,
    collection: str,
    data: dict[str, Any],
    slug: str | None = None,
    status: str | None = None,
    locale: str | None = None,
    translation_of: str | None = None,
    slug_hint: str | None = None,
    terms: dict[str, list[str]] | None = None,
    bylines: Any = None,
    seo: Any = None,
) -> Entry:
    """Create an entry. ``slug_hint`` seeds the generated slug when the values have no title; ``terms``
    (``{taxonomy: [term slug, ...]}``) assigns taxonomy terms in the same transaction."""
    spec = schema.get_collection(collection)
    require(actor, Perm.CONTENT_CREATE)
    _check_status(status)
    if status == "published":
        require_go_live(actor, "Creating an item as published")
    if status is None:
        status = "draft"  # SPEC 7: a new item is a draft unless published is asked, whatever the collection supports
    locale = rows.resolve_locale(locale)
    with transaction.atomic(savepoint=False):  # a failure fails the caller's transaction (or its own savepoint)
        source = None
        if translation_of is not None:
            source = _translation_source(actor, spec, translation_of, locale)
            data = _with_shared_values(spec, source, data)
        values = validate_data(spec, data, partial=False)
        new_slug = _claim_slug(spec, slug, values, locale, slug_hint)
        now = timezone.now()
        entry_id = new_id()
        row = spec.model(
            id=entry_id,
            slug=new_slug,
            status="draft",
            author_id=actor.user_id,
            created_at=now,
            updated_at=now,
            version=1,
            locale=locale,
            translation_group=source.translation_group if source else entry_id,
            **rows.column_changes(spec, values),
        )
        _insert(spec, row, explicit_slug=slug is not None, values=values, hint=slug_hint)
        live_seo = {} if seo is None else requested_seo(spec, row, seo) or {}
        if seo is not None:
            seo_store(spec.slug, row.id, live_seo)
        if terms is not None:
            _set_terms(spec, row, terms)
        if bylines is not None:
            _set_bylines(spec, row.id, bylines)
        if spec.supports_feature("revisions"):
            kept = rows.row_values(spec, row)  # a new item holds no credits unless given some: none to read
            revisions.record(spec, row.id, kept, Revision.KIND_DRAFT, actor, uncredited=bylines is None)
        send_entry_changed(spec.slug, row.id, "created", actor, shown=False, written=(row, live_seo))  # a draft yet
        if status == "published":
            publish_row(spec, row, actor)
    return Entry.load(spec, row, live_seo=live_seo)  # a new item's SEO is what it was given


def _translation_source(actor: Actor, spec: CollectionSpec, ident: Any, locale: str) -> EntryBase:
    """The item being translated. Joining its group means sharing its non-translatable values, so the
    caller needs edit rights on it (SPEC 7): authors translate their own items, editors any."""
    try:
        source = rows.find(spec, ident)
    except NotFound:
        raise ValidationError.for_fields({"translationOf": f"no item '{ident}' in '{spec.slug}'"}) from None
    require_owner_or(actor, source.author_id, Perm.CONTENT_EDIT_OWN, Perm.CONTENT_EDIT_ANY)
    if spec.model.objects.filter(translation_group=source.translation_group, locale=locale).exists():
        raise Conflict(f"This item already has a '{locale}' translation")
    return source


def _with_shared_values(spec: CollectionSpec, source: EntryBase, data: Any) -> Any:
    """A translation starts with the source's non-translatable values unless the caller gave them."""
    if not isinstance(data, dict):
        return data
    shared = {f.slug for f in spec.fields if not f.translatable}
    if not shared:
        return data
    base = without_dead_links(spec, rows.current_values(spec, source))
    return {**{k: v for k, v in base.items() if k in shared and v is not None}, **data}


def _share_across_translations(spec: CollectionSpec, row: EntryBase, values: dict[str, Any], actor: Actor) -> None:
    """Copy non-translatable values to the other items of the group, but only to those the caller may
    edit: a value is never written into someone else's item on the strength of editing one's own."""
    shared = {k: v for k, v in values.items() if not spec.field_map[k].translatable}
    if not shared:
        return
    siblings = rows.live_rows(spec).filter(translation_group=row.translation_group).exclude(id=row.id)
    if not can(actor, Perm.CONTENT_EDIT_ANY):
        siblings = siblings.filter(author_id=actor.user_id) if actor.user_id is not None else siblings.none()
    if draft_only(actor) and any(writes_live(spec, sibling) for sibling in siblings):
        require_go_live(actor, "Sharing values with a live translation of a collection without drafts")
    for sibling in siblings:
        write_values(spec, sibling, shared, actor)
        send_entry_changed(spec.slug, sibling.id, "updated", actor, shown=sibling.status == "published")


@schema_retry
def entry_update(
    *,
    actor: Actor,
    collection: str,
    id: str,
    data: dict[str, Any] | None = None,
    slug: str | None = None,
    status: str | None = None,
    rev: str | None = None,
    terms: dict[str, list[str]] | None = None,
    bylines: Any = None,
    seo: Any = None,
    autosave: bool = False,
) -> Entry:
    """Edit an entry. ``terms`` replaces the entry's terms of each taxonomy it names (others are kept);
    ``seo`` changes the keys it names (null clears one). ``autosave``: the edit is an editor's background
    save, coalesced with the session's other autosaves."""
    spec = schema.get_collection(collection)
    require(actor, Perm.CONTENT_EDIT_OWN)
    _check_status(status)
    with transaction.atomic():
        row = rows.find(spec, id, for_update=True)
        require_owner_or(actor, row.author_id, Perm.CONTENT_EDIT_OWN, Perm.CONTENT_EDIT_ANY)
        if rev is not None and rev != rows.rev_token(row):
            raise Conflict("Stale _rev: the item changed since you read it; fetch it again and reapply your edit")
        if draft_only(actor):
            changes = data is not None or slug is not None or seo is not None
            _refuse_live_edit(
                actor, spec, row, status=status, writes=changes, terms=terms is not None, bylines=bylines is not None
            )
        # Ids the item already held, of items deleted since, are dropped rather than refused.
        data = forgiven(spec, data, lambda: rows.current_values(spec, row))
        values = validate_data(spec, data, partial=True, entry_id=row.id)
        # A new slug or SEO on an item with a live version waits in the draft, like the values (SPEC 7).
        new_slug = requested_slug(spec, row, slug) if slug is not None else None
        new_seo = requested_seo(spec, row, seo)
        if bylines is not None:  # first, so the revision this edit saves keeps the new credits
            _set_bylines(spec, row.id, bylines)
        if values or new_slug or new_seo is not None:
            try:
                with transaction.atomic():
                    write_values(spec, row, values, actor, slug=new_slug, seo_value=new_seo, autosave=autosave)
            except IntegrityError:
                raise SlugConflict("Slug or unique value already taken by another item") from None
            _share_across_translations(spec, row, values, actor)
            send_entry_changed(spec.slug, row.id, "updated", actor, shown=row.status == "published")
        else:
            if not autosave and spec.supports_feature("revisions"):
                revisions.end_autosave_session(spec, row.id)
            if terms is not None or bylines is not None:
                # Terms and credits are written to the item at once (no draft holds them): a new version says the
                # item changed, so a change set approved before this edit cannot publish it unreviewed (SPEC 9.2).
                writes.save(spec, row)
        if terms is not None:
            _set_terms(spec, row, terms)
        if status == "published":
            publish_row(spec, row, actor)
        elif status == "draft" and row.status != "draft":
            unpublish_row(spec, row, actor)
    return Entry.load(spec, row)


def _refuse_live_edit(
    actor: Actor, spec: CollectionSpec, row: EntryBase, *, status: Any, writes: bool, terms: bool, bylines: bool
) -> None:
    """A draft-only token (SPEC 9.1) edits only where the edit waits in a draft: an item not live, or any item of
    a collection with drafts (revisions). Publishing or unpublishing through ``status`` and changing a live item's
    terms or bylines (which apply at once: no draft holds them) are refused too."""
    if status == "published":
        require_go_live(actor, "Publishing an item (status: published)")
    if status == "draft" and row.status != "draft":
        require_go_live(actor, "Unpublishing an item (status: draft)")
    if writes and writes_live(spec, row):
        if row.status == "scheduled" and spec.supports_feature("revisions"):
            # Never published: its row is what the schedule will publish, so the edit would go live then.
            require_go_live(actor, "Editing an item scheduled to be published (the edit would go live with it)")
        require_go_live(actor, f"Editing a live item of '{spec.slug}' (a collection without drafts)")
    if terms and row.status != "draft":  # published, or scheduled to be
        require_go_live(actor, "Changing a live item's terms")
    if bylines and row.status != "draft":
        require_go_live(actor, "Changing a live item's bylines")


def writes_live(spec: CollectionSpec, row: EntryBase) -> bool:
    """An edit of ``row`` would change what the public sees now or at its scheduled time (no draft to hold it)."""
    return row.status != "draft" and not rows.has_live_version(spec, row)


def _set_terms(spec: CollectionSpec, row: EntryBase, terms: Any) -> None:
    """Term assignments live in the taxonomy app, reached through the hook it registers (content sits below it).
    Term slugs mean the terms of the item's locale (slugs are unique per taxonomy and locale)."""
    replace_entry_terms(collection=spec.slug, entry_id=row.id, terms=terms, locale=row.locale)


def _set_bylines(spec: CollectionSpec, entry_id: str, bylines: Any) -> None:
    """Credits live in the bylines app, reached through the hook it registers (content sits below it).
    ``bylines``: ``[{bylineId, roleLabel?}]`` as dicts or as the operation's input models."""
    wire = [c.model_dump(by_alias=True, exclude_none=True) if hasattr(c, "model_dump") else c for c in bylines]
    replace_entry_bylines(collection=spec.slug, entry_id=entry_id, bylines=wire)


@schema_retry
def entry_trash(*, actor: Actor, collection: str, id: str) -> None:
    """Soft delete. A pending schedule is cancelled so a restored item never publishes by surprise."""
    spec = schema.get_collection(collection)
    with editing(actor, spec, id, go_live=True) as row:
        status = "draft" if row.status == "scheduled" else row.status
        writes.save(spec, row, deleted_at=timezone.now(), scheduled_at=None, status=status)
        send_entry_changed(spec.slug, row.id, "trashed", actor, shown=row.status == "published")


@schema_retry
def entry_restore(*, actor: Actor, collection: str, id: str) -> Entry:
    spec = schema.get_collection(collection)
    with editing(actor, spec, id, trashed=True, go_live=True) as row:
        writes.save(spec, row, deleted_at=None)
        send_entry_changed(spec.slug, row.id, "restored", actor, shown=row.status == "published")
    return Entry.load(spec, row)


def _is_live(spec: CollectionSpec, ident: Any) -> bool:
    try:
        rows.find(spec, ident)
    except NotFound:
        return False
    return True


@schema_retry
def entry_delete_permanently(*, actor: Actor, collection: str, id: str) -> None:
    """Remove a trashed entry with its revisions (and, through ``entry_deleting``, its term assignments)."""
    spec = schema.get_collection(collection)
    require(actor, Perm.CONTENT_DELETE_PERMANENT)
    with transaction.atomic():
        try:
            row = rows.find(spec, id, trashed=True, for_update=True)
        except NotFound:
            if _is_live(spec, id):
                raise ValidationError(
                    "Only items in the trash can be deleted permanently; call content_delete first"
                ) from None
            raise
        entry_deleting.send(sender=None, collection=spec.slug, entry_id=row.id)
        seo_forget(spec.slug, [row.id])
        forget_moves(spec.slug, row.id)
        Revision.objects.filter(collection=spec.slug, entry_id=row.id).delete()
        spec.model.objects.filter(pk=row.pk).delete()
        send_entry_changed(spec.slug, row.id, "deleted", actor, shown=row.status == "published")


@schema_retry
def entry_duplicate(*, actor: Actor, collection: str, id: str) -> Entry:
    """A draft copy: same values, terms, credits and locale, title + " (Copy)", a fresh slug and translation group
    (SEO is left out: two items with one canonical URL and description are what SEO tools warn about)."""
    spec = schema.get_collection(collection)
    require(actor, Perm.CONTENT_CREATE)
    source = rows.find(spec, id)
    values = without_dead_links(spec, rows.current_values(spec, source))
    title = spec.title_field
    if title and isinstance(values.get(title.slug), str):
        values[title.slug] = values[title.slug] + COPY_SUFFIX
    # Unique values cannot be copied; the copy starts without them.
    data = {k: v for k, v in values.items() if v is not None and not spec.field_map[k].unique}
    terms = {
        name: [t["slug"] for t in found]
        for name, found in assigned_terms(collection=spec.slug, entry_id=source.id).items()
    }
    credits = [{k: v for k, v in c.items() if v is not None} for c in credit_snapshot(spec.slug, source.id) or ()]
    return entry_create(
        actor=actor,
        collection=spec.slug,
        data=data,
        status="draft",
        locale=source.locale,
        slug_hint=f"{source.slug}-copy",
        terms=terms or None,
        bylines=credits or None,
    )


@schema_retry
def entry_translate(*, actor: Actor, collection: str, id: Any, locale: Any) -> Entry:
    """The admin's "translate" button: ``translationOf`` with the source's current values as the starting
    text (unique values left out), so it has the rights and sharing rules of every other door."""
    spec = schema.get_collection(collection)
    require(actor, Perm.CONTENT_CREATE)
    source = rows.find(spec, id)
    values = without_dead_links(spec, rows.current_values(spec, source))
    data = {k: v for k, v in values.items() if v is not None and not spec.field_map[k].unique}
    return entry_create(actor=actor, collection=spec.slug, data=data, locale=locale, translation_of=source.id)
