"""SQLite: word prefixes written as the whole terms they cover (``content.search.sqlite_terms``).

The rewrite only changes how FTS5 walks the index: every query finds the same items as the plain prefix query, the
excerpts mark the same words, and where the rewrite cannot be proved equivalent (no term, too many, a term the
stemmer would shorten) the prefix stays. Tokenizing a word writes nothing on the request's connection.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from content.search import sqlite_terms
from content.search.backends import SQLiteBackend
from content.search.query import parse
from tests.search.conftest import create, find, sqlite_only

pytestmark = sqlite_only


def without_rewrite(monkeypatch: pytest.MonkeyPatch, query: str) -> list[dict[str, Any]]:
    with monkeypatch.context() as patched:
        patched.setattr(sqlite_terms, "covered", lambda word: None)
        return find(query, limit=50)


@pytest.fixture
def orchard(notes: Any) -> list[str]:
    texts = [
        ("Plums", "plum trees grow plums"),
        ("Plumbing", "a plumber fixes the plumbing"),
        ("Apples", "apple trees and an appletini"),
        ("Pears", "pear trees"),
        ("Naïve art", "painted on a plum-coloured wall"),
    ]
    return [create("notes", title=title, text=text, publish=True) for title, text in texts]


def test_a_prefix_stands_for_the_terms_it_covers(orchard):
    # The porter stems of plum, plums, plumber, plumbing: what FTS5 itself matches for "plum"*.
    assert sqlite_terms.covered("plum") == ["plum", "plumb", "plumber"]
    assert sqlite_terms.covered("PLUMB") == ["plumb", "plumber"]  # read as FTS5 reads the query word
    assert sqlite_terms.covered("naïve") == ["naiv"]  # diacritics removed, stemmed
    assert sqlite_terms.covered("quince") is None  # no term: the prefix stays (and matches nothing)


@pytest.mark.parametrize(
    "query", ["plum", "plumb", "tree", "app", "naive", "plum tree", '"plum trees"', "pear OR plumb", "plu OR app tr"]
)
def test_the_same_items_and_excerpts_as_the_prefix_query(orchard, monkeypatch, query):
    rewritten, plain = find(query, limit=50), without_rewrite(monkeypatch, query)
    assert rewritten, query
    assert {r["id"]: r["snippet"] for r in rewritten} == {r["id"]: r["snippet"] for r in plain}


@pytest.mark.parametrize("query", ["tree", "pear", "naive", '"plum trees"', "pear OR tree"])
def test_a_prefix_covering_one_term_ranks_and_scores_as_before(orchard, monkeypatch, query):
    # One covered term is the same single phrase to bm25; several are several phrases, each weighed by its rarity.
    assert find(query, limit=50) == without_rewrite(monkeypatch, query)


def test_a_prefix_covering_many_terms_stays_a_prefix(notes, monkeypatch):
    monkeypatch.setattr(sqlite_terms, "MAX_TERMS", 2)
    create("notes", title="Lamps", text="lamplight lampoon lamprey", publish=True)
    assert sqlite_terms.covered("lamp") is None
    assert SQLiteBackend.match_expression(SQLiteBackend().resolve(parse("lamp"))) == '("lamp" *)'
    assert len(find("lamp")) == 1


def test_a_term_the_stemmer_would_shorten_is_not_written_out(notes, monkeypatch):
    create("notes", title="Jumper", text="a jumper", publish=True)
    real = sqlite_terms.tokens
    # As if the stemmer read the stored term "jumper" as "jump" when it is quoted in a query.
    monkeypatch.setattr(sqlite_terms, "tokens", lambda spec, text: ("jump",) if text == "jumper" else real(spec, text))
    assert sqlite_terms.covered("jump") is None
    assert len(find("jump")) == 1


def test_the_index_keeps_prefixes_of_up_to_three_characters(db):
    # Migration content 0013: FTS5 answers such a prefix from one list of its own, however many terms it covers.
    assert sqlite_terms._prefix_sizes() == {1, 2, 3}


@pytest.mark.parametrize("word", ["p", "pl", "plu", "ap", "app"])
def test_a_prefix_the_index_keeps_is_not_written_out(orchard, monkeypatch, word):
    assert sqlite_terms.covered(word) is None
    assert SQLiteBackend.match_expression(SQLiteBackend().resolve(parse(word))) == f'("{word}" *)'
    assert find(word, limit=50) == without_rewrite(monkeypatch, word) != []


def _forget_the_definition() -> None:
    sqlite_terms._definition.cache_clear()
    sqlite_terms._tokenizer_spec.cache_clear()
    sqlite_terms._prefix_sizes.cache_clear()


def test_the_prefix_index_migration_keeps_what_the_index_holds(notes):
    create("notes", title="Quokka", text="quiet quokkas", publish=True)
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        MigrationExecutor(connection).migrate([("content", "0012_search_terms")])
        _forget_the_definition()
        assert sqlite_terms._prefix_sizes() == frozenset()
        assert [r["title"] for r in find("q")] == ["Quokka"]
        MigrationExecutor(connection).migrate(latest)
        _forget_the_definition()
        assert sqlite_terms._prefix_sizes() == {1, 2, 3}
        assert [r["title"] for r in find("q")] == [r["title"] for r in find("quokk")] == ["Quokka"]
    finally:
        MigrationExecutor(connection).migrate(latest)
        _forget_the_definition()


def test_the_expression_writes_whole_terms(orchard):
    expression = SQLiteBackend.match_expression(SQLiteBackend().resolve(parse("plumb appl")))
    assert expression == '(("plumb" OR "plumber") AND ("appl" OR "appletini"))'


def test_tokenizing_a_word_changes_nothing_on_the_request_connection(orchard):
    changes = connection.connection.total_changes  # part of the read caches' key (emdash.sqlite3's change_token)
    sqlite_terms.tokens.cache_clear()
    assert sqlite_terms.covered("plumbing") == ["plumb", "plumber"]
    assert connection.connection.total_changes == changes


def test_the_tokenizer_is_the_index_tables_own(db):
    with connection.cursor() as cursor:
        cursor.execute("SELECT sql FROM sqlite_master WHERE name = 'content_search_fts'")
        definition = cursor.fetchone()[0]
    assert f"tokenize='{sqlite_terms._tokenizer_spec()}'" in definition
