"""Search syntax (SPEC 6.3, 7): word prefixes, "quoted phrases" and OR, turned into each engine's query language.

``quant cat`` finds items with a word starting with "quant" and one starting with "cat"; ``"quantum cat"`` finds
the two words side by side (whole words); ``quantum OR qubit`` finds either. AND binds tighter than OR
(``a b OR c`` = ``(a b) OR c``). Everything else — parentheses, ``*``, ``:``, ``-``, an unclosed quote — is not
syntax: the text is cut into words (runs of letters and digits), so a malformed query is never an error. The
words are the only user text that reaches the engine, and they contain nothing an engine reads as an operator.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

TERM_MAX_LENGTH = 100
_WORD = re.compile(r"[^\W_]+")
_PIECES = re.compile(r'"([^"]*)"?|(\S+)')  # a quoted run (the closing quote may be missing) or a bare run


def words_of(text: str) -> list[str]:
    """Runs of letters and digits (as Unicode sees them), lowercased; nothing else."""
    return [w[:TERM_MAX_LENGTH] for w in _WORD.findall(unicodedata.normalize("NFKC", text).lower())]


@dataclass(frozen=True)
class Clause:
    """One word (matched as a prefix) or a quoted phrase (whole words, side by side). ``covers``: the whole terms a
    prefix stands for, where the engine looked them up (SQLite: ``content.search.sqlite_terms``)."""

    words: tuple[str, ...]
    phrase: bool = False
    covers: tuple[str, ...] = ()


@dataclass(frozen=True)
class SearchQuery:
    """Alternatives (OR) of clause lists (AND)."""

    alternatives: tuple[tuple[Clause, ...], ...]

    @property
    def words(self) -> list[str]:
        return [w for alt in self.alternatives for clause in alt for w in clause.words]

    def __bool__(self) -> bool:
        return bool(self.alternatives)

    def covering(self, lookup: Callable[[str], Sequence[str] | None]) -> SearchQuery:
        """This query with each prefix's ``covers`` from ``lookup`` (None or empty: it stays a prefix), each word
        looked up once."""
        prefixes = {c.words[0] for alt in self.alternatives for c in alt if not c.phrase}
        found = {word: tuple(lookup(word) or ()) for word in prefixes}

        def cover(c: Clause) -> Clause:
            return c if c.phrase else replace(c, covers=found[c.words[0]])

        return SearchQuery(tuple(tuple(cover(c) for c in alt) for alt in self.alternatives))

    def fts5(self) -> str:
        """The FTS5 MATCH expression: each word quoted (so it is never syntax), prefixes with ``*``, or as the whole
        terms they cover when those are known."""

        def quote(words: Sequence[str]) -> str:
            return '"' + " ".join(w.replace('"', '""') for w in words) + '"'

        def clause(c: Clause) -> str:
            if c.phrase:
                return quote(c.words)
            if not c.covers:
                return quote(c.words) + " *"
            return quote(c.covers) if len(c.covers) == 1 else "(" + " OR ".join(quote([t]) for t in c.covers) + ")"

        # An explicit AND: FTS5 takes no implicit one after a parenthesised group.
        return " OR ".join("(" + " AND ".join(clause(c) for c in alt) + ")" for alt in self.alternatives)

    def tsquery(self) -> str:
        """The ``to_tsquery`` text: ``word:*`` prefixes, ``a <-> b`` phrases, ``&`` and ``|``."""

        def clause(c: Clause) -> str:
            return "(" + " <-> ".join(c.words) + ")" if c.phrase else c.words[0] + ":*"

        return " | ".join("(" + " & ".join(clause(c) for c in alt) + ")" for alt in self.alternatives)


def parse(text: str) -> SearchQuery:
    """The query's structure; never raises (anything that is not syntax is words or nothing)."""
    alternatives: list[tuple[Clause, ...]] = []
    current: list[Clause] = []
    for quoted, bare in _PIECES.findall(unicodedata.normalize("NFKC", text)):
        if bare == "OR":
            if current:
                alternatives.append(tuple(current))
            current = []
            continue
        words = words_of(quoted if quoted or not bare else bare)
        if quoted and words:
            current.append(Clause(tuple(words), phrase=True))
        else:
            current.extend(Clause((w,)) for w in words)
    if current:
        alternatives.append(tuple(current))
    return SearchQuery(tuple(alternatives))


def of_terms(terms: list[str]) -> SearchQuery:
    """A query matching every one of ``terms`` as a word prefix (for callers holding plain words)."""
    return SearchQuery((tuple(Clause((t,)) for t in terms),)) if terms else SearchQuery(())
