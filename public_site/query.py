"""The query API for templates: published collections and entries, menus, terms, settings, search.

Everything here reads as an anonymous visitor would (published content only), through the selectors,
so a template can never show a draft. Previews go through :mod:`public_site.preview` instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from content import stamps
from content.entries import selectors, seo
from content.entries.outputs import Item, Terms
from content.hooks import rows_credits, shown_terms
from content.links import entry_path
from content.schema import specs as schema
from content.search import selectors as search_selectors
from emdash.actor import Actor
from emdash.conf import emdash_settings
from emdash.errors import CollectionNotFound, EmDashError, NotFound
from media import presenters as media_presenters
from media import selectors as media_selectors
from media.outputs import Media
from menus import selectors as menu_selectors
from settings_app import selectors as settings_selectors
from taxonomy import selectors as taxonomy_selectors
from taxonomy.links import term_path
from taxonomy.outputs import Definition, Term

PUBLIC = Actor.anonymous()


@dataclass
class EntryPage:
    """One numbered page of entries."""

    items: list[dict[str, Any]]
    number: int
    has_next: bool

    @property
    def has_previous(self) -> bool:
        return self.number > 1


def _with_url(item: Mapping[str, Any]) -> dict[str, Any]:
    return {**item, "url": entry_path(item["collection"], item["slug"])}


def collections() -> list[Any]:
    """The collection specs (label, slug, fields)."""
    return list(schema.current().collections.values())


def collection(slug: str) -> Any | None:
    return schema.current().collections.get(slug)


def entries(
    collection: str, *, page: int = 1, per_page: int = 10, locale: str | None = None, terms: bool = False
) -> EntryPage:
    """Published entries of a collection, newest first, by page number; ``terms`` adds each item's terms as its
    locale shows them (one query for the page)."""
    found, more = selectors.published_page(collection=collection, page=page, per_page=per_page, locale=locale)
    items = [_with_url(i) for i in found.present().items]
    if terms:
        for item, shown in zip(items, shown_terms(collection, found.rows), strict=True):
            item["terms"] = _linked(shown, item.get("locale"))
    return EntryPage(items, page, more)


def _linked(terms: Terms, locale: Any) -> Terms:
    """Terms with their archive ``url``: the variant's own archive, asked in the page's locale when the variant
    is another locale's (the default-locale fallback), so the archive lists the page locale's items."""
    for taxonomy, refs in terms.items():
        for ref in refs:
            shown_in = str(ref.get("locale") or "") or None
            asked = locale if locale and shown_in and shown_in != locale else shown_in
            ref["url"] = term_path(taxonomy, ref["slug"], asked)  # type: ignore[typeddict-unknown-key]
    return terms


def entry_list(
    collection: str,
    *,
    order_by: str = "published_at",
    order: str = "desc",
    limit: int = 10,
    cursor: str | None = None,
    locale: str | None = None,
) -> dict[str, Any]:
    """Published entries with any list order and cursor pagination: ``{items, nextCursor?}`` (the API shape)."""
    page = selectors.entry_list(
        actor=PUBLIC,
        collection=collection,
        order_by=order_by,
        order=order,
        limit=limit,
        cursor=cursor,
        locale=locale,
        full=True,
    ).to_dict()
    page["items"] = [_with_url(i) for i in page["items"]]
    return page


def noindex_ids(collection: str) -> set[str]:
    """IDs of the collection's items that ask search engines not to index them."""
    return seo.noindex_ids(collection)


def entry(collection: str, slug: str, *, locale: str | None = None) -> dict[str, Any] | None:
    """One published entry by slug (or ID) with its terms, or None."""
    try:
        found = selectors.entry_get(actor=PUBLIC, collection=collection, id=slug, locale=locale)
    except (NotFound, CollectionNotFound):
        return None
    # In the entry's locale's variants (SPEC 10), read with the row (rows.find for_read), else one query.
    terms = _linked(shown_terms(collection, [found.row])[0], found.row.locale)
    credits = rows_credits(collection, [found.row])  # {bylines, byline} (SPEC 10), read with the row too
    return {**_with_url(found.to_dict()), "terms": terms, **(credits[0] if credits else {})}


def _tagged_ids(taxonomy: str, term: str, collection: str, locale: str | None) -> list[str]:
    """Entries carrying ``term``; with a ``locale``, carrying any of its variants (an archive in one locale)."""
    if locale is None:
        return taxonomy_selectors.term_entry_ids(actor=PUBLIC, taxonomy=taxonomy, term=term, collection=collection)
    return taxonomy_selectors.group_entry_ids(
        actor=PUBLIC, taxonomy=taxonomy, term=term, collection=collection, locale=locale
    )


def term_entries(
    taxonomy: str,
    term: str,
    collection: str = "posts",
    *,
    page: int = 1,
    per_page: int = 10,
    locale: str | None = None,
) -> EntryPage:
    """Published entries carrying a term (a category or tag archive); with a ``locale``, that locale's entries
    carrying the term or any of its variants in other locales."""
    ids = _tagged_ids(taxonomy, term, collection, locale)
    found, more = selectors.published_page(collection=collection, ids=ids, page=page, per_page=per_page, locale=locale)
    return EntryPage([_with_url(i) for i in found.present().items], page, more)


def _newest(collection: str, ids: list[str], count: int, locale: str | None) -> list[Item]:
    """The ``count`` newest published items of ``collection`` among ``ids`` (pages of 100)."""
    found: list[Item] = []
    number, more = 1, True
    while more and len(found) < count:
        rows, more = selectors.published_page(collection=collection, ids=ids, page=number, per_page=100, locale=locale)
        found += rows.present().items
        number += 1
    return found[:count]


def term_archive(
    taxonomy: str,
    term: str,
    collections: list[str],
    *,
    page: int = 1,
    per_page: int = 10,
    locale: str | None = None,
) -> EntryPage:
    """Published entries carrying a term, in every listed collection, newest first (one taxonomy archive); with a
    ``locale``, that locale's entries carrying any variant of the term."""
    if len(collections) == 1:
        return term_entries(taxonomy, term, collections[0], page=page, per_page=per_page, locale=locale)
    window = page * per_page + 1  # enough of each collection to fill this page and see whether one follows
    merged: list[Item] = []
    for collection in collections:
        ids = _tagged_ids(taxonomy, term, collection, locale)
        if ids:
            merged += _newest(collection, ids, window, locale)
    merged.sort(key=lambda i: (i.get("publishedAt") or "", i["id"]), reverse=True)
    start = (page - 1) * per_page
    return EntryPage([_with_url(i) for i in merged[start : start + per_page]], page, len(merged) > start + per_page)


def taxonomy(name: str) -> Definition | None:
    # Definitions come from migrations (taxonomy/defaults.py); their collections follow the schema.
    return _taxonomies.get((name, schema.current().version), lambda: _taxonomy(name))


def _taxonomy(name: str) -> Definition | None:
    try:
        return taxonomy_selectors.taxonomy_get(actor=PUBLIC, name=name)
    except EmDashError:
        return None


_taxonomies = stamps.PerProcess("taxonomies")


def taxonomies() -> list[Definition]:
    return taxonomy_selectors.taxonomy_list(actor=PUBLIC)


def term(taxonomy: str, slug: str, *, locale: str | None = None) -> Term | None:
    """A term by slug (or id); with a ``locale``, the variant of its group that locale shows (its own, else the
    default locale's, else the term named)."""
    try:
        return taxonomy_selectors.term_get(actor=PUBLIC, taxonomy=taxonomy, term=slug, locale=locale)
    except EmDashError:
        return None


def terms(taxonomy: str, *, locale: str | None = None) -> list[dict[str, Any]]:
    """A taxonomy's terms as a tree (each with ``children`` and ``path``); [] for an unknown taxonomy. With a
    ``locale``, one variant per term: that locale's, else the default locale's."""
    try:
        return taxonomy_selectors.term_tree(actor=PUBLIC, taxonomy=taxonomy, locale=locale)
    except EmDashError:
        return []


def menu(name: str, *, locale: str | None = None) -> dict[str, Any] | None:
    """A menu as a tree (``items`` with ``children``) in ``locale``, else the default locale's; None when there
    is no such menu."""
    return _menus.get((name, locale), lambda: _menu_tree(name, locale))


def _menu_tree(name: str, locale: str | None) -> dict[str, Any] | None:
    try:
        return menu_selectors.menu_tree(actor=PUBLIC, name=name, locale=locale)
    except EmDashError:
        return None


def page_locale(item: Any, asked: Any = None) -> str | None:
    """The language of the page: the shown item's locale, else a configured ``?locale=``, else None (default)."""
    if isinstance(item, Mapping) and isinstance(item.get("locale"), str):
        return str(item["locale"])
    return asked if isinstance(asked, str) and asked in emdash_settings.LOCALES else None


def site_settings() -> dict[str, Any]:
    return _settings.get("site", settings_selectors.site_settings)


# Built once per process and rebuilt when a change stamp moved (content/stamps.py): a menu's links follow
# the items' slugs, so content changes rebuild menus too. Templates only read these values.
_menus = stamps.PerProcess("menus", "content", "terms")
_settings = stamps.PerProcess("settings")


def search(query: str, *, collections: list[str] | None = None, limit: int = 20) -> list[dict[str, Any]]:
    """Published matches, most relevant first, each with a ``url``; bad queries give no results."""
    try:
        results = search_selectors.search(actor=PUBLIC, query=query, collections=collections, limit=limit)
    except EmDashError:
        return []
    return [{**r, "url": entry_path(r["collection"], r["slug"])} for r in results]


def media(media_id: Any) -> Media | None:
    """A media item (with ``url``) by ID, or None."""
    try:
        return media_presenters.item(media_selectors.media_get(actor=PUBLIC, id=media_id))
    except EmDashError:
        return None
