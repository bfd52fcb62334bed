"""Byline reads: the paged list, one byline, its variants in other locales, and the credits of entries.

Bylines are public (published content shows them), like taxonomy terms.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from bylines import presenters
from bylines.models import Byline, ContentByline
from bylines.services import get_byline
from content.entries.outputs import BylineCredit, BylineSummary, Credits
from emdash import cursors
from emdash.actor import Actor
from emdash.cursors import Page
from emdash.permissions import Perm, require

QUERY_KEY = "bylines"


def byline_list(
    *,
    actor: Actor,
    search: str | None = None,
    is_guest: bool | None = None,
    user_id: int | None = None,
    locale: str | None = None,
    limit: int = 50,
    cursor: str | None = None,
) -> Page:
    """Bylines by display name then id (a total order, so pages never repeat or skip one that stays put)."""
    require(actor, Perm.BYLINES_READ)
    qs = Byline.objects.order_by("display_name", "id")
    if search:
        qs = qs.filter(Q(display_name__icontains=search) | Q(slug__icontains=search.lower()))
    if is_guest is not None:
        qs = qs.filter(is_guest=is_guest)
    if user_id is not None:
        qs = qs.filter(user_id=user_id)
    if locale is not None:
        qs = qs.filter(locale=locale)
    # The filters are part of the cursor's key: a cursor from another query is refused, not misread.
    key = f"{QUERY_KEY}:{search}:{is_guest}:{user_id}:{locale}"
    if cursor is not None:
        position = cursors.decode(cursor, key)
        if len(position) != 2 or not all(isinstance(p, str) for p in position):
            raise cursors.InvalidCursor("Invalid cursor: pass the nextCursor value from the previous page unchanged")
        name, last_id = position
        qs = qs.filter(Q(display_name__gt=name) | Q(display_name=name, id__gt=last_id))
    page = list(qs[: limit + 1])
    more = len(page) > limit
    page = page[:limit]
    next_cursor = cursors.encode(key, [page[-1].display_name, page[-1].id]) if more and page else None
    return Page([presenters.summary(b) for b in page], next_cursor)


def byline_get(*, actor: Actor, id: str) -> BylineSummary:
    require(actor, Perm.BYLINES_READ)
    return presenters.summary(get_byline(id))


def byline_translations(*, actor: Actor, id: str) -> dict[str, Any]:
    """Every locale variant of a byline (named by id, slug or translation group), as content_translations answers
    (``translations``) and as EmDash's tool does (``items``: the same list)."""
    require(actor, Perm.BYLINES_READ)
    group = Byline.objects.filter(translation_group=id).values_list("translation_group", flat=True).first()
    if group is None:
        group = get_byline(id).translation_group
    variants = Byline.objects.filter(translation_group=group).order_by("locale")
    found = [presenters.summary(b) for b in variants]
    return {"translationGroup": group, "translations": found, "items": found}


def display_names(ids: list[str]) -> dict[str, str]:
    """Display names of the bylines ``ids`` (one query; a deleted byline is simply absent)."""
    return dict(Byline.objects.filter(pk__in=ids).values_list("id", "display_name"))


def entry_credits(*, collection: str, entries: list[tuple[str, int | None, str]]) -> dict[str, Credits]:
    """Credits of many entries in two queries: explicit ones, then the authors' own bylines for the rest
    (the author's byline in the entry's locale, else any of theirs)."""
    ids = [entry_id for entry_id, _, _ in entries]
    explicit: dict[str, list[BylineCredit]] = {}
    rows = ContentByline.objects.filter(collection=collection, entry_id__in=ids).select_related("byline")
    for credit in rows.order_by("entry_id", "position"):
        explicit.setdefault(credit.entry_id, []).append(
            {
                "byline": presenters.summary(credit.byline),
                "sortOrder": credit.position,
                "roleLabel": credit.role_label or None,
                "source": "explicit",
            }
        )
    authors = {author for entry_id, author, _ in entries if author is not None and entry_id not in explicit}
    own: dict[tuple[int, str], Byline] = {}
    fallback: dict[int, Byline] = {}
    for byline in Byline.objects.filter(user_id__in=authors).order_by("created_at", "id") if authors else []:
        assert byline.user_id is not None
        own.setdefault((byline.user_id, byline.locale), byline)
        fallback.setdefault(byline.user_id, byline)
    out: dict[str, Credits] = {}
    for entry_id, author, locale in entries:
        if entry_id in explicit:
            credits = explicit[entry_id]
            out[entry_id] = {"bylines": credits, "byline": credits[0]["byline"]}
            continue
        mine = None if author is None else own.get((author, locale)) or fallback.get(author)
        if mine is None:
            out[entry_id] = {"bylines": [], "byline": None}
            continue
        summary = presenters.summary(mine)
        inferred: BylineCredit = {"byline": summary, "sortOrder": 0, "roleLabel": None, "source": "inferred"}
        out[entry_id] = {"bylines": [inferred], "byline": summary}
    return out
