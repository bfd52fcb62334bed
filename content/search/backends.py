"""The two search backends behind one interface, chosen by the database vendor.

Both read the index that ``content.search.indexing`` writes (``content_search_document`` and the full-text
structure the triggers keep beside it) and answer two questions: which documents match the terms, best first
(:meth:`SearchBackend.rank`), and a matching excerpt of each (:meth:`SearchBackend.excerpts`). Excerpts come
back as plain text with the matches between :data:`MARK_START` and :data:`MARK_END`; the indexed text never
holds those two characters, so the selector can escape the text and only then add the ``<mark>`` tags.

User input never reaches the query language as syntax: the selector passes a parsed
:class:`~content.search.query.SearchQuery` (word prefixes, phrases, OR) whose words are letters and digits only;
the SQLite backend quotes each word in an FTS5 expression and the PostgreSQL backend builds a ``to_tsquery`` text
(``word:*`` prefixes keep the GIN index usable).
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection

from content.search import sqlite_terms
from content.search.query import SearchQuery, of_terms
from emdash.conf import emdash_settings

MARK_START = "\x02"
MARK_END = "\x03"
ELLIPSIS = "…"
EXCERPT_TOKENS = 24  # FTS5 snippet() size; ts_headline gets a similar word budget
UNACCENT_PREFIX = "emdash_"  # accent-insensitive configurations created by migration content.0003 (PostgreSQL)
# PostgreSQL parses text with "<", ">" and "&" swapped for these (content_search_plain), so markup-like text is
# read as words and kept in excerpts rather than dropped as tags; the swap is undone on the excerpts.
_PG_UNSWAP = str.maketrans({"\x04": "<", "\x05": ">", "\x06": "&"})

# ISO 639-1 language -> PostgreSQL text search configuration (used when the server has it; else "simple").
PG_LANGUAGES = {
    "ar": "arabic",
    "hy": "armenian",
    "eu": "basque",
    "ca": "catalan",
    "da": "danish",
    "nl": "dutch",
    "en": "english",
    "fi": "finnish",
    "fr": "french",
    "de": "german",
    "el": "greek",
    "hi": "hindi",
    "hu": "hungarian",
    "id": "indonesian",
    "ga": "irish",
    "it": "italian",
    "lt": "lithuanian",
    "ne": "nepali",
    "no": "norwegian",
    "nb": "norwegian",
    "nn": "norwegian",
    "pt": "portuguese",
    "ro": "romanian",
    "ru": "russian",
    "sr": "serbian",
    "es": "spanish",
    "sv": "swedish",
    "ta": "tamil",
    "tr": "turkish",
    "yi": "yiddish",
}


@dataclass(frozen=True)
class Hit:
    doc_id: int
    collection: str
    entry_id: str
    locale: str
    score: float


class SearchBackend(ABC):
    """What the selector and the indexing code need from a full-text engine."""

    vendor: str

    def config_for(self, locale: str) -> str:
        """The text search configuration stored with a document of ``locale`` ("simple" where unused)."""
        return "simple"

    @abstractmethod
    def rank(
        self, terms: SearchQuery, *, collections: Sequence[str] | None, locale: str | None, limit: int
    ) -> list[Hit]:
        """Documents matching the query, most relevant first; only of ``collections`` and ``locale`` when given.
        (Documents of collections no longer searchable may come back: the selector re-checks every hit.)"""

    def resolve(self, terms: SearchQuery) -> SearchQuery:
        """The query as this engine runs it best (once per search, before :meth:`rank` and :meth:`excerpts`)."""
        return terms

    @abstractmethod
    def excerpts(self, terms: SearchQuery, doc_ids: Sequence[int]) -> dict[int, str]:
        """A short excerpt of each document with the matches between MARK_START and MARK_END."""

    @abstractmethod
    def optimize(self) -> None:
        """Compact the index and refresh planner statistics after a full rebuild."""


FTS = "content_search_fts"
_DOCS = "content_search_document"
_HIT_COLUMNS = "SELECT d.id, d.collection, d.entry_id, d.locale, m.r"


def candidate_cap() -> int:
    """How many matches per OR-alternative are ranked (0: all); see ``SEARCH_CANDIDATES``."""
    return max(0, int(emdash_settings.SEARCH_CANDIDATES))


def _placeholders(values: Sequence[object]) -> str:
    return ", ".join(["%s"] * len(values))


class SQLiteBackend(SearchBackend):
    """FTS5 with the porter stemmer over unicode61 (case- and accent-insensitive); ranked by bm25 with the
    title column weighted above the rest."""

    vendor = "sqlite"
    HEAD_WEIGHT = 5.0
    BODY_WEIGHT = 1.0

    @staticmethod
    def match_expression(terms: SearchQuery | Sequence[str]) -> str:
        """The FTS5 expression; every word is a quoted string, so nothing in it is read as syntax."""
        query = terms if isinstance(terms, SearchQuery) else of_terms(list(terms))
        return query.fts5()

    def resolve(self, terms: SearchQuery) -> SearchQuery:
        """Each prefix with the few whole terms it stands for in the index, if it stands for few
        (``sqlite_terms``): FTS5 walks those lazily where it merges a prefix's every list first."""
        return terms.covering(sqlite_terms.covered)

    def rank(
        self, terms: SearchQuery, *, collections: Sequence[str] | None, locale: str | None, limit: int
    ) -> list[Hit]:
        cap = candidate_cap()
        rows = self._rank_all(terms, collections, locale, limit) if not cap else None
        if rows is None:
            rows = self._rank_newest(terms, collections, locale, limit, cap)
        return [Hit(row[0], row[1], row[2], row[3], -float(row[4])) for row in rows]

    @staticmethod
    def _filters(collections: Sequence[str] | None, locale: str | None) -> tuple[str, list[Any]]:
        sql, params = "", []
        if collections is not None:
            sql += f" AND d.collection IN ({_placeholders(collections)})"
            params += list(collections)
        if locale is not None:
            sql += " AND d.locale = %s"
            params.append(locale)
        return sql, params

    def _rank_all(
        self, terms: SearchQuery, collections: Sequence[str] | None, locale: str | None, limit: int
    ) -> list[tuple[Any, ...]]:
        """One stage: bm25 of every match (what SEARCH_CANDIDATES = 0 asks for)."""
        params: list[Any] = [self.HEAD_WEIGHT, self.BODY_WEIGHT, self.match_expression(terms)]
        ranked = f"SELECT rowid AS id, bm25({FTS}, %s, %s) AS r FROM {FTS} WHERE {FTS} MATCH %s"
        if collections is None and locale is None:
            # Rank inside FTS5 and join only the winners: half the time of joining every match first.
            sql = f"{_HIT_COLUMNS} FROM ({ranked} ORDER BY r LIMIT %s) m JOIN {_DOCS} d ON d.id = m.id"
            params.append(limit)
        else:
            filters, more = self._filters(collections, locale)
            sql = f"{_HIT_COLUMNS} FROM ({ranked}) m JOIN {_DOCS} d ON d.id = m.id WHERE 1 = 1{filters}"
            params += more
        with connection.cursor() as cursor:
            cursor.execute(f"{sql} ORDER BY m.r, d.id LIMIT %s", [*params, limit])
            return cursor.fetchall()

    def _rank_newest(
        self, terms: SearchQuery, collections: Sequence[str] | None, locale: str | None, limit: int, cap: int
    ) -> list[tuple[Any, ...]]:
        """Two stages: the ``cap`` newest matches of each OR-alternative (rowid order, which FTS5 walks without
        scoring), then bm25 of the whole query on those candidates only. bm25 needs the full-text cursor, so the
        second stage walks the whole query's matches from the oldest candidate on and scores only candidates."""
        filters, more = self._filters(collections, locale)
        join = f" CROSS JOIN {_DOCS} d ON d.id = {FTS}.rowid" if filters else ""
        newest = f"FROM {FTS}{join} WHERE {FTS} MATCH %s{filters} ORDER BY {FTS}.rowid DESC LIMIT %s"
        weights = [self.HEAD_WEIGHT, self.BODY_WEIGHT]
        alternatives = [SearchQuery((alt,)) for alt in terms.alternatives]
        if len(alternatives) == 1:  # one walk: score the newest matches as they come
            ranked = f"SELECT {FTS}.rowid AS id, bm25({FTS}, %s, %s) AS r {newest}"
            params = [*weights, self.match_expression(terms), *more, cap]
        else:
            arms = " UNION ".join(f"SELECT id FROM (SELECT {FTS}.rowid AS id {newest})" for _ in alternatives)
            ranked = (
                f"WITH c AS ({arms}) SELECT rowid AS id, bm25({FTS}, %s, %s) AS r FROM {FTS} "
                f"WHERE {FTS} MATCH %s AND +rowid IN (SELECT id FROM c) AND rowid >= (SELECT min(id) FROM c)"
            )
            params = [p for alt in alternatives for p in (self.match_expression(alt), *more, cap)]
            params += [*weights, self.match_expression(terms)]
        with connection.cursor() as cursor:
            cursor.execute(
                f"{_HIT_COLUMNS} FROM ({ranked}) m JOIN {_DOCS} d ON d.id = m.id ORDER BY m.r, d.id LIMIT %s",
                [*params, limit],
            )
            return cursor.fetchall()

    def excerpts(self, terms: SearchQuery, doc_ids: Sequence[int]) -> dict[int, str]:
        if not doc_ids:
            return {}
        # "+rowid IN" keeps the list away from FTS5, which would otherwise run the whole query once per id (for a
        # prefix of a common word, ~5 ms each); the range lets it seek to the ids and walk the matches between them.
        sql = (
            f"SELECT rowid, snippet({FTS}, -1, %s, %s, %s, %s) FROM {FTS} WHERE {FTS} MATCH %s "
            f"AND +rowid IN ({_placeholders(doc_ids)}) AND rowid BETWEEN %s AND %s"
        )
        params: list[Any] = [MARK_START, MARK_END, ELLIPSIS, EXCERPT_TOKENS, self.match_expression(terms), *doc_ids]
        params += [min(doc_ids), max(doc_ids)]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return {int(row[0]): row[1] or "" for row in cursor.fetchall()}

    def optimize(self) -> None:
        with connection.cursor() as cursor:
            cursor.execute("INSERT INTO content_search_fts(content_search_fts) VALUES ('optimize')")


class PostgresBackend(SearchBackend):
    """``tsvector`` + GIN with a text search configuration per locale (english for en, french for fr, ...,
    "simple" where PostgreSQL has none). The query goes through ``to_tsquery`` (prefixes ``word:*``, phrases
    ``a <-> b``, ``&``/``|``): stemmed, stop words dropped. Ranked by ``ts_rank`` (title weight A, the rest B)
    normalised by document length."""

    vendor = "postgresql"
    HEADLINE_OPTIONS = (
        f'StartSel="{MARK_START}", StopSel="{MARK_END}", MaxWords={EXCERPT_TOKENS + 6}, MinWords=12, '
        f'MaxFragments=2, FragmentDelimiter=" {ELLIPSIS} "'
    )
    WHOLE_OPTIONS = f'StartSel="{MARK_START}", StopSel="{MARK_END}", HighlightAll=true'
    SHORT_TEXT = 160  # characters
    _configs: frozenset[str] | None = None
    _lock = threading.Lock()

    def available_configs(self) -> frozenset[str]:
        if PostgresBackend._configs is None:
            with self._lock, connection.cursor() as cursor:
                cursor.execute("SELECT cfgname FROM pg_catalog.pg_ts_config")
                PostgresBackend._configs = frozenset(row[0] for row in cursor.fetchall())
        return PostgresBackend._configs

    def config_for(self, locale: str) -> str:
        """The language's configuration, preferring the accent-insensitive copy made by the migration."""
        language = locale.replace("_", "-").split("-", 1)[0].lower()
        available = self.available_configs()
        for name in (PG_LANGUAGES.get(language), "simple"):
            if name and UNACCENT_PREFIX + name in available:
                return UNACCENT_PREFIX + name
            if name and name in available:
                return name
        return "simple"

    def _locale_groups(self, locale: str | None) -> dict[str, list[str]]:
        """Locales by configuration: a document only matches a query built with its own configuration."""
        locales = [locale] if locale is not None else list(dict.fromkeys(emdash_settings.LOCALES))
        groups: dict[str, list[str]] = {}
        for code in locales:
            groups.setdefault(self.config_for(code), []).append(code)
        return groups

    def rank(
        self, terms: SearchQuery, *, collections: Sequence[str] | None, locale: str | None, limit: int
    ) -> list[Hit]:
        """With a cap, per configuration and OR-alternative: the ``cap`` newest matches (the planner walks the primary
        key backwards and stops early for a common word, or reads the GIN index for a rare one), each ranked by
        ``ts_rank`` of the whole query as it is read (one pass over the rows; reading the candidates' ids first and
        their rows again to rank them cost twice as much), then the best of all candidates."""
        text, cap = _tsquery(terms), candidate_cap()
        alternatives = [_tsquery(SearchQuery((alt,))) for alt in terms.alternatives] if cap else [text]
        rank = (
            "SELECT d.id, d.collection, d.entry_id, d.locale, ts_rank(d.vector, to_tsquery(%s::regconfig, %s), 1) AS r"
        )
        arm = f"{rank} FROM {_DOCS} d WHERE d.vector @@ to_tsquery(%s::regconfig, %s) AND d.locale = ANY(%s)"
        if collections is not None:
            arm += " AND d.collection = ANY(%s)"
        if cap:
            arm = f"({arm} ORDER BY d.id DESC LIMIT %s)"
        parts: list[str] = []
        params: list[Any] = []
        for config, locales in self._locale_groups(locale).items():
            scope = [locales] + ([list(collections)] if collections is not None else [])
            for alternative in alternatives:
                parts.append(arm)
                params += [config, text, config, alternative, *scope] + ([cap] if cap else [])
        # An item matching two alternatives is a candidate of both: UNION keeps it once (same row, same rank).
        union = (" UNION " if len(alternatives) > 1 else " UNION ALL ").join(parts)
        sql = f"SELECT * FROM ({union}) c ORDER BY r DESC, id LIMIT %s"
        with connection.cursor() as cursor:
            cursor.execute(sql, [*params, limit])
            return [Hit(row[0], row[1], row[2], row[3], float(row[4])) for row in cursor.fetchall()]

    def excerpts(self, terms: SearchQuery, doc_ids: Sequence[int]) -> dict[int, str]:
        if not doc_ids:
            return {}
        # The excerpt comes from the title only when the match is there and not in the body: the A-weighted
        # lexemes of the stored vector are the title's, so no text is parsed twice to find out. Short texts are
        # shown whole (fragments would trim punctuation after the last word).
        sql = """
            SELECT d.id, ts_headline(
                d.config::regconfig, content_search_plain(t.text), q.query,
                CASE WHEN length(t.text) <= %s THEN %s ELSE %s END)
            FROM content_search_document d
            CROSS JOIN LATERAL (SELECT to_tsquery(d.config::regconfig, %s) AS query) q
            CROSS JOIN LATERAL (
                SELECT CASE WHEN d.body = '' OR (ts_filter(d.vector, '{a}') @@ q.query
                                                 AND NOT ts_filter(d.vector, '{b}') @@ q.query)
                            THEN d.head ELSE d.body END AS text
            ) t
            WHERE d.id = ANY(%s)
        """
        params: list[Any] = [self.SHORT_TEXT, self.WHOLE_OPTIONS, self.HEADLINE_OPTIONS, _tsquery(terms), list(doc_ids)]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return {int(row[0]): (row[1] or "").translate(_PG_UNSWAP) for row in cursor.fetchall()}

    def optimize(self) -> None:
        """VACUUM as well where it can run (outside a transaction): a rebuild leaves every old row dead and every new
        one unmarked, which each search would otherwise pay for until autovacuum comes by (if it runs at all)."""
        with connection.cursor() as cursor:
            vacuum = "VACUUM (ANALYZE) " if not connection.in_atomic_block else "ANALYZE "
            cursor.execute(vacuum + _DOCS)


def _tsquery(terms: SearchQuery | Sequence[str]) -> str:
    return (terms if isinstance(terms, SearchQuery) else of_terms(list(terms))).tsquery()


_backend: SearchBackend | None = None


def get_backend() -> SearchBackend:
    """The backend for the default database's vendor."""
    global _backend
    if _backend is None or _backend.vendor != connection.vendor:
        if connection.vendor == "postgresql":
            _backend = PostgresBackend()
        elif connection.vendor == "sqlite":
            _backend = SQLiteBackend()
        else:
            raise RuntimeError(f"No search backend for the {connection.vendor} database")
    return _backend
