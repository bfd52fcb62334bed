"""Byline writes and an entry's credits. Public functions take an ``actor`` and check the permission table first.

Bylines are credits, not accounts: a byline may be linked to a user (the author's own byline, which an item
without explicit credits falls back to) or stand alone as a guest. Variants of one byline in other locales share
a ``translation_group``; a slug is unique per locale.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from bylines.models import Byline, ContentByline
from content import hooks, stamps
from content.entries import rows
from content.entries.outputs import CreditRef
from content.schema import specs as schema
from emdash import purge
from emdash.actor import Actor
from emdash.errors import Conflict, NotFound, SlugConflict, ValidationError
from emdash.http_cache import BYLINES_KEY, CONTENT_KEY, collection_key, item_key
from emdash.ids import new_id
from emdash.permissions import Perm, require
from emdash.prepared import Prepared
from emdash.safe_urls import url_problem

SLUG = re.compile(r"^[a-z][a-z0-9-]*$")
SLUG_MAX_LENGTH = 200
NAME_MAX_LENGTH = 200
BIO_MAX_LENGTH = 5000
ROLE_LABEL_MAX_LENGTH = 100
MAX_CREDITS = 20  # per item
UNSET: Any = object()  # "argument not given", as opposed to None ("clear")


def get_byline(ident: Any, *, for_update: bool = False) -> Byline:
    """A byline by id (or, failing that, by slug in the default locale)."""
    if not isinstance(ident, str) or not ident or len(ident) > SLUG_MAX_LENGTH:
        raise NotFound(f"Byline '{ident}' not found")
    qs = Byline.objects.select_for_update() if for_update else Byline.objects.all()
    found = qs.filter(pk=ident).first() or qs.filter(slug=ident, locale=rows.resolve_locale(None)).first()
    if found is None:
        raise NotFound(f"Byline '{ident}' not found; byline_list shows the bylines")
    return found


def _check(problems: dict[str, str], values: dict[str, Any]) -> dict[str, Any]:
    """The model's column values for the wire values given; problems keyed by the wire name."""
    out: dict[str, Any] = {}
    if "slug" in values:
        slug = values["slug"]
        if not isinstance(slug, str) or not SLUG.match(slug) or len(slug) > SLUG_MAX_LENGTH:
            problems["slug"] = "must start with a-z and hold only a-z, 0-9 and - (e.g. jane-doe)"
        out["slug"] = slug
    if "displayName" in values:
        name = values["displayName"]
        if not isinstance(name, str) or not name.strip() or len(name) > NAME_MAX_LENGTH:
            problems["displayName"] = f"is required, 1 to {NAME_MAX_LENGTH} characters"
        out["display_name"] = name.strip() if isinstance(name, str) else name
    if "bio" in values:
        out["bio"] = values["bio"] or None
    if "websiteUrl" in values:
        url = values["websiteUrl"]
        if url is not None and (url_problem(url) is not None or not url.lower().startswith(("http://", "https://"))):
            problems["websiteUrl"] = "must be an http(s) URL, e.g. https://example.com/"
        out["website_url"] = url or None
    if "avatarMediaId" in values:
        media_id = values["avatarMediaId"]
        if media_id is not None and not hooks.existing_media_ids({media_id}):
            problems["avatarMediaId"] = f"no media item '{media_id}' (media_list shows them)"
        out["avatar_media_id"] = media_id
    if "userId" in values:
        user_id = values["userId"]
        if user_id is not None and not User.objects.filter(pk=user_id).exists():
            problems["userId"] = f"no user {user_id}"
        out["user_id"] = user_id
    if "isGuest" in values:
        out["is_guest"] = bool(values["isGuest"])
    return out


def _save(byline: Byline, *, insert: bool) -> None:
    try:
        with transaction.atomic():
            byline.save(force_insert=insert)
    except IntegrityError:
        raise SlugConflict(f"Slug '{byline.slug}' is already used by a byline in locale '{byline.locale}'") from None


def byline_create(
    *,
    actor: Actor,
    slug: str,
    display_name: str,
    bio: str | None = None,
    avatar_media_id: str | None = None,
    website_url: str | None = None,
    user_id: int | None = None,
    is_guest: bool | None = None,
    locale: str | None = None,
    translation_of: str | None = None,
) -> Byline:
    require(actor, Perm.BYLINES_MANAGE)
    problems: dict[str, str] = {}
    values: dict[str, Any] = {"slug": slug, "displayName": display_name, "bio": bio, "avatarMediaId": avatar_media_id}
    values |= {
        "websiteUrl": website_url,
        "userId": user_id,
        "isGuest": user_id is None if is_guest is None else is_guest,
    }
    columns = _check(problems, values)
    resolved = rows.resolve_locale(locale)
    with transaction.atomic():
        group = None
        if translation_of is not None:
            try:
                source = get_byline(translation_of)
            except NotFound:
                problems["translationOf"] = f"no byline '{translation_of}'"
            else:
                group = source.translation_group
                if Byline.objects.filter(translation_group=group, locale=resolved).exists():
                    # Without locale the new variant is the default locale's (SPEC), so say how to ask for another.
                    hint = "" if locale is not None else "; pass locale for a variant in another locale"
                    raise Conflict(f"Byline '{source.slug}' already has a '{resolved}' variant{hint}")
        if problems:
            raise ValidationError.for_fields(problems)
        byline_id = new_id()
        now = timezone.now()
        byline = Byline(
            id=byline_id, locale=resolved, translation_group=group or byline_id, created_at=now, updated_at=now
        )
        for name, value in columns.items():
            setattr(byline, name, value)
        _save(byline, insert=True)
        _shown_elsewhere()  # a byline linked to a user becomes the inferred credit of that user's items
    return byline


def byline_update(*, actor: Actor, id: str, **changes: Any) -> Byline:
    """Change the fields given (wire names); null clears bio, avatar, website and the linked user."""
    require(actor, Perm.BYLINES_MANAGE)
    problems: dict[str, str] = {}
    columns = _check(problems, changes)
    if problems:
        raise ValidationError.for_fields(problems)
    with transaction.atomic():
        byline = get_byline(id, for_update=True)
        for name, value in columns.items():
            setattr(byline, name, value)
        byline.updated_at = timezone.now()
        _save(byline, insert=False)
        _shown_elsewhere()
    return byline


def byline_delete(*, actor: Actor, id: str) -> str:
    """Delete a byline; items crediting it lose that credit, and the next one becomes primary. Returns its id
    (the tool answers ``{deleted: id}``, as EmDash's does, even when the byline was named by slug)."""
    require(actor, Perm.BYLINES_MANAGE)
    with transaction.atomic():
        byline = get_byline(id, for_update=True)
        byline_id = byline.id  # delete() clears the instance's primary key
        entries = list(ContentByline.objects.filter(byline=byline).values_list("collection", "entry_id"))
        byline.delete()
        for collection, entry_id in entries:
            _renumber(collection, entry_id)
        _shown_elsewhere()
    return byline_id


def _shown_elsewhere() -> None:
    """In the writing transaction: a byline shows on every item crediting it, and (as the inferred credit) on
    its user's items without credits, so the ``bylines`` stamp (part of every item, list, feed and page
    validator) moves and every collection's cached pages go (docs/caching.md). Bylines change rarely; tracking
    the exact items is not worth its queries."""
    stamps.bump("bylines")
    purge.schedule([BYLINES_KEY, CONTENT_KEY, *(collection_key(slug) for slug in schema.current().collections)])


def _renumber(collection: str, entry_id: str) -> None:
    """Positions 0..n-1 again after a credit left (the first stays primary)."""
    credits = list(ContentByline.objects.filter(collection=collection, entry_id=entry_id).order_by("position"))
    for index, credit in enumerate(credits):
        if credit.position != index:
            ContentByline.objects.filter(pk=credit.pk).update(position=index)


# --------------------------------------------------------------------------------------- an entry's credits


def replace_entry_bylines(*, collection: str, entry_id: str, bylines: Any) -> None:
    """Replace the entry's credits with ``[{bylineId, roleLabel?}, ...]`` in order; the caller's write already
    checked who may change the entry. Every problem is reported and nothing changes."""
    if not isinstance(bylines, list) or len(bylines) > MAX_CREDITS:
        raise ValidationError.for_fields({"bylines": f"must be a list of at most {MAX_CREDITS} credits"})
    problems: dict[str, str] = {}
    wanted: list[tuple[int, str, str | None]] = []
    for index, credit in enumerate(bylines):
        ident = credit.get("bylineId") if isinstance(credit, dict) else None
        role = credit.get("roleLabel") if isinstance(credit, dict) else None
        if not isinstance(ident, str) or not ident:
            problems[f"bylines.{index}.bylineId"] = "is required: a byline id from byline_list"
            continue
        if role is not None and (not isinstance(role, str) or len(role) > ROLE_LABEL_MAX_LENGTH):
            problems[f"bylines.{index}.roleLabel"] = f"must be text of at most {ROLE_LABEL_MAX_LENGTH} characters"
        wanted.append((index, ident, role or None))
    found = set(Byline.objects.filter(pk__in=[i for _, i, _ in wanted]).values_list("pk", flat=True))
    seen: set[str] = set()
    for index, ident, _role in wanted:
        if ident not in found:
            problems[f"bylines.{index}.bylineId"] = (
                f"no byline '{ident}' (byline_list shows them; byline_create adds one)"
            )
        elif ident in seen:
            problems[f"bylines.{index}.bylineId"] = f"byline '{ident}' is credited twice"
        seen.add(ident)
    if problems:
        raise ValidationError.for_fields(problems)
    with transaction.atomic():
        ContentByline.objects.filter(collection=collection, entry_id=entry_id).delete()
        ContentByline.objects.bulk_create(
            ContentByline(byline_id=ident, collection=collection, entry_id=entry_id, position=i, role_label=role)
            for i, (_, ident, role) in enumerate(wanted)
        )
        # The item's credits are part of its reads but not of its row (content/caching.py ATTACHED).
        stamps.bump("bylines")
        purge.schedule([item_key(entry_id), collection_key(collection), CONTENT_KEY])


@functools.cache
def _credit_refs_query() -> Prepared:
    # Compiled once: every revision a write records reads it, and Django's compiler cost more than the query.
    found = ContentByline.objects.filter(collection="").filter(entry_id="").order_by("position")
    return Prepared(found.values_list("byline_id", "role_label"))


def entry_credit_refs(*, collection: str, entry_id: str) -> list[CreditRef]:
    """The entry's explicit credits, in order, as a revision keeps them (one query)."""
    found = _credit_refs_query().rows([collection, entry_id])
    return [{"bylineId": b, "roleLabel": role or None} for b, role in found]


def restore_entry_bylines(*, collection: str, entry_id: str, credits: Any) -> None:
    """Make kept credits the entry's again. A byline deleted since stays gone (deleting it took its credits, and a
    restore brings back values, not bylines); the others keep their order and roles."""
    kept = [c for c in credits if isinstance(c, dict)] if isinstance(credits, list) else []
    alive = set(Byline.objects.filter(pk__in=[c.get("bylineId") for c in kept]).values_list("pk", flat=True))
    wanted = [c for c in kept if c.get("bylineId") in alive]
    if wanted != entry_credit_refs(collection=collection, entry_id=entry_id):
        replace_entry_bylines(collection=collection, entry_id=entry_id, bylines=wanted)


def remove_entry_credits(*, collection: str, entry_id: str) -> None:
    ContentByline.objects.filter(collection=collection, entry_id=entry_id).delete()


def remove_orphaned_credits(existing: set[str]) -> None:
    """Credits of collections that no longer exist."""
    ContentByline.objects.exclude(collection__in=existing).delete()
