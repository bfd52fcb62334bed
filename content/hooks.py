"""What content needs from the apps above it, plugged in by those apps (content never imports them).

Content sits below taxonomy and media (they import content, never the reverse), yet an entry write can
carry ``terms``, an entry's output shows them, and image/file values must name existing media. The
taxonomy and media apps register their functions in ``ready()``; without them, entries have no terms
and no media reference is valid.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from content.outputs import Terms
from emdash.errors import ValidationError

Replace = Callable[..., None]
Assigned = Callable[..., Terms]

_hooks: dict[str, Any] = {}


def register_terms(
    *,
    replace: Replace,
    assigned: Assigned,
    taxonomies: Callable[[str], list[str]],
    tagged: Callable[..., Any],
    column: Callable[[str], Any],
    of_column: Callable[[Any], Terms],
) -> None:
    _hooks["replace"] = replace
    _hooks["assigned"] = assigned
    _hooks["terms_column"] = column
    _hooks["terms_of_column"] = of_column
    _hooks["taxonomies"] = taxonomies
    _hooks["tagged"] = tagged


def register_media(
    *,
    existing_ids: Callable[[set[str]], set[str]],
    urls_by_id: Callable[[set[str]], dict[str, str]],
    ids_by_url: Callable[[set[str]], dict[str, str]],
) -> None:
    _hooks["media_ids"] = existing_ids
    _hooks["urls_by_id"] = urls_by_id
    _hooks["ids_by_url"] = ids_by_url


def media_urls_by_id(ids: set[str]) -> dict[str, str]:
    """Public URLs of media items (Markdown output of inline images); empty without a media app."""
    found = _hooks.get("urls_by_id")
    return found(ids) if found is not None and ids else {}


def media_ids_by_url(urls: set[str]) -> dict[str, str]:
    """This site's media URLs among ``urls``, mapped to their ids (Markdown input); empty without a media app."""
    found = _hooks.get("ids_by_url")
    return found(urls) if found is not None and urls else {}


def existing_media_ids(ids: set[str]) -> set[str]:
    """Which of ``ids`` name media items (none, when no media app is installed)."""
    existing = _hooks.get("media_ids")
    return existing(ids) if existing is not None else set()


def replace_entry_terms(*, collection: str, entry_id: str, terms: Any) -> None:
    """Replace the entry's assignments; VALIDATION_ERROR when no taxonomy app is installed to hold them."""
    replace = _hooks.get("replace")
    if replace is None:
        raise ValidationError.for_fields({"terms": "taxonomies are not installed"})
    replace(collection=collection, entry_id=entry_id, terms=terms)


def assigned_terms(*, collection: str, entry_id: str) -> Terms:
    assigned = _hooks.get("assigned")
    return assigned(collection=collection, entry_id=entry_id) if assigned is not None else {}


def terms_column(collection: str) -> Any | None:
    """An expression an entry query can select (on ``OuterRef("id")``) to read the entry's terms in the same
    statement; None without a taxonomy app."""
    column = _hooks.get("terms_column")
    return column(collection) if column is not None else None


def row_terms(collection: str, row: Any) -> Terms:
    """The terms of an entry row: from its ``terms_live`` column when its query read them, else one query."""
    of_column = _hooks.get("terms_of_column")
    if of_column is not None and hasattr(row, "terms_live"):
        return of_column(row.terms_live)
    return assigned_terms(collection=collection, entry_id=row.id)


def taxonomies_for(collection: str) -> list[str]:
    """Names of the taxonomies that apply to ``collection`` (none without a taxonomy app)."""
    found = _hooks.get("taxonomies")
    return found(collection) if found is not None else []


def tagged_entries(*, collection: str, taxonomy: str, slugs: list[str]) -> Any:
    """A subquery of the ids of entries carrying any of the terms ``slugs`` of ``taxonomy`` (for ``id__in``)."""
    return _hooks["tagged"](collection=collection, taxonomy=taxonomy, slugs=slugs)
