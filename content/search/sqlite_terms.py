"""Word prefixes as the index's own terms, for SQLite's FTS5.

FTS5 answers a prefix query (``"word" *``) by merging the lists of every term with that prefix into one list in
memory before it yields a row, however few rows are asked for: ~6 ms for a word in 90% of 100k items, paid three
times by a search (the newest candidates, bm25's count of matching items, the excerpts). The same terms written
as whole terms (``"t1" OR "t2"``) are walked lazily: 0.2 ms for the newest 1,000. So each prefix is looked up in
the index's vocabulary (``content_search_terms``, an fts5vocab table: one seek per term) and replaced by the terms
it covers when they are few; a prefix that covers more stays a prefix, as does anything this cannot prove
equivalent. The results are the same items; bm25 then weighs each covered term by its own rarity. A prefix of one
to three characters stays one: the index keeps those prefixes as terms of their own (migration content 0013).

A query word must be read as FTS5 reads it (case folded, diacritics removed, the porter stem): a private in-memory
SQLite database holding an FTS5 table with the index's own tokenizer does it, once per word per process, so that
the request's connection writes nothing (its change counter keys the read caches).
"""

from __future__ import annotations

import functools
import re
import sqlite3
import threading

from django.db import connection

MAX_TERMS = 32  # beyond this a prefix stays a prefix: the lookups would cost more than the merge saves
VOCABULARY = "content_search_terms"
_TOKENIZE = re.compile(r"tokenize\s*=\s*'((?:[^']|'')*)'", re.IGNORECASE)
_PREFIX = re.compile(r"prefix\s*=\s*'([\d\s]*)'", re.IGNORECASE)
_LAST = "\U0010ffff"  # sorts after every character a term can continue with
_NEXT_TERM = f"SELECT term FROM {VOCABULARY} WHERE term >= %s AND term < %s LIMIT 1"


@functools.cache
def _definition() -> str:
    """The FTS5 table's ``CREATE`` statement, as the migrations wrote it."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT sql FROM sqlite_master WHERE name = 'content_search_fts'")
        row = cursor.fetchone()
    return row[0] if row else ""


@functools.cache
def _tokenizer_spec() -> str:
    """The FTS5 table's own ``tokenize`` option."""
    match = _TOKENIZE.search(_definition())
    return match.group(1).replace("''", "'") if match else "unicode61"


@functools.cache
def _prefix_sizes() -> frozenset[int]:
    """The prefix lengths FTS5 keeps an index of (its ``prefix`` option, migration content 0013)."""
    match = _PREFIX.search(_definition())
    return frozenset(int(size) for size in match.group(1).split()) if match else frozenset()


class _Tokenizer:
    """FTS5's tokenizer on a private in-memory database (one per process, its use serialised)."""

    def __init__(self, spec: str) -> None:
        self._db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        quoted = spec.replace("'", "''")
        self._db.execute(f"CREATE VIRTUAL TABLE words USING fts5(w, tokenize='{quoted}')")
        self._db.execute("CREATE VIRTUAL TABLE terms USING fts5vocab(words, instance)")
        self._lock = threading.Lock()

    def tokens(self, text: str) -> tuple[str, ...]:
        with self._lock:
            self._db.execute("INSERT INTO words(rowid, w) VALUES (1, ?)", [text])
            try:
                return tuple(row[0] for row in self._db.execute("SELECT term FROM terms ORDER BY offset"))
            finally:
                self._db.execute("DELETE FROM words")


@functools.cache
def _tokenizer(spec: str) -> _Tokenizer:
    return _Tokenizer(spec)


@functools.lru_cache(maxsize=8192)
def tokens(spec: str, text: str) -> tuple[str, ...]:
    """The terms FTS5 makes of ``text`` with the tokenizer ``spec``."""
    return _tokenizer(spec).tokens(text)


def covered(word: str) -> list[str] | None:
    """The index's terms the prefix ``word`` stands for, or None where the prefix must stay one: the word is not one
    term, FTS5 keeps an index of prefixes its length (one list, walked lazily: faster than the covered terms), it
    covers no term or more than MAX_TERMS, or a covered term would not be read back as itself."""
    spec = _tokenizer_spec()
    read = tokens(spec, word)
    if len(read) != 1 or len(read[0]) in _prefix_sizes():
        return None
    prefix, found = read[0], list[str]()
    with connection.cursor() as cursor:
        low = prefix
        while len(found) <= MAX_TERMS:
            # A ">=" bound is a seek in the vocabulary; ">" would walk every instance of the previous term.
            cursor.execute(_NEXT_TERM, [low, prefix + _LAST])
            row = cursor.fetchone()
            if row is None:
                break
            found.append(row[0])
            low = row[0] + "\x01"  # the next term: no term holds a NUL
    if not found or len(found) > MAX_TERMS:
        return None
    # A quoted term is tokenized again: a stem the stemmer would shorten further cannot be written as itself.
    if any(tokens(spec, term) != (term,) for term in found):
        return None
    return found
