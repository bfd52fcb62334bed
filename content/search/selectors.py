"""``search``: full-text search over published content, the one read every front door calls.

The query is parsed by ``content.search.query`` (word prefixes, "quoted phrases", OR); anything else (engine
operators, column filters, parentheses) is cut into plain words or nothing, never syntax. Hits are re-checked
against the entry tables, so only items that are published and not trashed right now come back, even if the
index lags a write.
"""

from __future__ import annotations

import html
import re
from typing import Any

from content.entries import rows
from content.schema import specs as schema
from content.schema.dynamic import field_attname
from content.schema.retry import schema_retry
from content.schema.specs import CollectionSpec
from content.search.backends import MARK_END, MARK_START, Hit, get_backend
from content.search.indexing import indexable
from content.search.outputs import SearchResult
from content.search.query import SearchQuery, parse, words_of
from emdash.actor import Actor
from emdash.errors import ValidationError
from emdash.permissions import Perm, require

MAX_QUERY_LENGTH = 1000
MAX_TERMS = 32
MAX_LIMIT = 50
MAX_COLLECTIONS = 50
# Extra candidates fetched so that hits dropped by the published re-check rarely shorten a page.
SLACK = 10
_MARKS = re.compile(f"([{MARK_START}{MARK_END}])")
_SPACE = re.compile(r"\s+")


def terms_of(query: str) -> list[str]:
    """The words of a query: runs of letters and digits (as Unicode sees them), lowercased; nothing else."""
    return words_of(query)


def render_snippet(raw: str) -> str:
    """Marked plain text -> HTML: every piece escaped first, then the marked pieces wrapped in ``<mark>``."""
    out: list[str] = []
    marked = False
    for piece in _MARKS.split(raw):
        if piece == MARK_START:
            marked = True
        elif piece == MARK_END:
            marked = False
        elif piece:
            text = html.escape(piece)
            out.append(f"<mark>{text}</mark>" if marked and text.strip() else text)
    return _SPACE.sub(" ", "".join(out)).strip()


def _check(
    query: Any, collections: Any, locale: Any, limit: Any
) -> tuple[SearchQuery, list[CollectionSpec], str | None]:
    problems: dict[str, str] = {}
    if not isinstance(query, str):
        problems["query"] = "must be a string"
    elif len(query) > MAX_QUERY_LENGTH:
        problems["query"] = f"must have at most {MAX_QUERY_LENGTH} characters"
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        problems["limit"] = f"must be an integer from 1 to {MAX_LIMIT}"
    if collections is not None and (
        not isinstance(collections, list)
        or not 1 <= len(collections) <= MAX_COLLECTIONS
        or not all(isinstance(c, str) for c in collections)
    ):
        problems["collections"] = f"must be a list of 1-{MAX_COLLECTIONS} collection slugs"
    terms = parse(query) if "query" not in problems else parse("")
    if len(terms.words) > MAX_TERMS:
        problems["query"] = f"must have at most {MAX_TERMS} words"
    if problems:
        raise ValidationError.for_fields(problems)
    resolved = rows.resolve_locale(locale) if locale is not None else None
    return terms, _searchable(collections), resolved


def _searchable(slugs: list[str] | None) -> list[CollectionSpec]:
    current = schema.current()
    if slugs is None:
        return [spec for spec in current.collections.values() if indexable(spec)]
    specs = [current.get(slug) for slug in dict.fromkeys(slugs)]  # COLLECTION_NOT_FOUND for unknown slugs
    unsupported = [spec.slug for spec in specs if not spec.supports_feature("search")]
    if unsupported:
        hint = "search is not enabled (add 'search' to the collection's supports)"
        raise ValidationError.for_fields({"collections": f"{', '.join(unsupported)}: {hint}"})
    return [spec for spec in specs if indexable(spec)]


def _live(specs: dict[str, CollectionSpec], hits: list[Hit]) -> dict[tuple[str, str], tuple[str, str]]:
    """``(collection, id) -> (slug, title)`` for the hits whose entries are published and not trashed now."""
    ids_by_collection: dict[str, list[str]] = {}
    for hit in hits:
        ids_by_collection.setdefault(hit.collection, []).append(hit.entry_id)
    live: dict[tuple[str, str], tuple[str, str]] = {}
    for slug, ids in ids_by_collection.items():
        spec = specs.get(slug)
        if spec is None:
            continue
        title = spec.title_field
        columns = ["id", "slug"] + ([field_attname(title.slug)] if title else [])
        for entry_id, entry_slug, *rest in rows.published_by_id(spec, ids, *columns):
            title_value = rest[0] if rest and isinstance(rest[0], str) else ""
            live[(slug, entry_id)] = (entry_slug, title_value or entry_slug)
    return live


@schema_retry
def search(
    *, actor: Actor, query: Any, collections: Any = None, locale: Any = None, limit: Any = 20
) -> list[SearchResult]:
    """Published items matching ``query`` (word prefixes, "phrases", OR), most relevant first. Anyone with the search
    permission (subscribers and anonymous visitors included) sees the same: published items only."""
    require(actor, Perm.SEARCH)
    terms, specs, resolved_locale = _check(query, collections, locale, limit)
    if not terms or not specs:
        return []
    backend = get_backend()
    terms = backend.resolve(terms)
    by_slug = {spec.slug: spec for spec in specs}
    # Without a filter the engine ranks the whole index (cheaper than filtering every match by collection);
    # documents of collections that are no longer searchable are dropped by the re-check below.
    only = sorted(by_slug) if collections is not None else None
    hits = backend.rank(terms, collections=only, locale=resolved_locale, limit=limit + SLACK)
    live = _live(by_slug, hits)
    hits = [hit for hit in hits if (hit.collection, hit.entry_id) in live][:limit]
    excerpts = backend.excerpts(terms, [hit.doc_id for hit in hits])
    results: list[SearchResult] = []
    for hit in hits:
        slug, title = live[(hit.collection, hit.entry_id)]
        results.append(
            {
                "collection": hit.collection,
                "id": hit.entry_id,
                "slug": slug,
                "locale": hit.locale,
                "title": title,
                "snippet": render_snippet(excerpts.get(hit.doc_id, "")),
                "score": float(f"{hit.score:.6g}"),
            }
        )
    return results
