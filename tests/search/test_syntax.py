"""Search syntax (SPEC 6.3, 7): word prefixes, "quoted phrases" and OR, on SQLite FTS5 and PostgreSQL."""

from __future__ import annotations

import pytest
from django.db import connection

from content.search.query import Clause, parse
from tests.search.conftest import blocks, create, find, found_ids


def test_parse_words_phrases_and_or():
    query = parse('quant "big cat" OR qubit')
    assert query.alternatives == ((Clause(("quant",)), Clause(("big", "cat"), phrase=True)), (Clause(("qubit",)),))
    assert query.fts5() == '("quant" * AND "big cat") OR ("qubit" *)'
    assert query.tsquery() == "(quant:* & (big <-> cat)) | (qubit:*)"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('"unclosed phrase', ["unclosed", "phrase"]),
        ("OR OR", []),
        ("or", ["or"]),  # lowercase or is a word
        ('a:* | !b <-> "c"', ["a", "b", "c"]),
        ('""', []),
        ("OR quince OR", ["quince"]),
    ],
)
def test_anything_else_is_words(text, words):
    assert parse(text).words == words


def test_word_prefixes_match(articles):
    quantum = create(title="Quantum computing", publish=True)
    create(title="Classical music", publish=True)
    assert found_ids("quant") == [quantum]
    assert found_ids("QUANT comp") == [quantum]
    assert found_ids("quantx") == []


def test_quoted_phrases_need_the_words_side_by_side(articles):
    near = create(title="Notes", body=blocks("the big red cat sat"), publish=True)
    apart = create(title="Other", body=blocks("one cat sleeping beside big dogs"), publish=True)
    assert sorted(found_ids("big cat")) == sorted([near, apart])
    assert found_ids('"red cat"') == [near]
    assert found_ids('"cat big"') == []
    assert found_ids('"cat sleeping"') == [apart]


def test_or_finds_either(articles):
    apple = create(title="Apple pie", publish=True)
    pear = create(title="Pear tart", publish=True)
    create(title="Plum jam", publish=True)
    assert sorted(found_ids("apple OR pear")) == sorted([apple, pear])
    assert found_ids("apple OR nothing") == [apple]
    assert sorted(found_ids("pie apple OR tart")) == sorted([apple, pear])  # AND binds tighter


def test_snippets_mark_prefix_matches(articles):
    create(title="Quantum computing", publish=True)
    (hit,) = find("quant")
    assert "<mark>Quantum</mark>" in hit["snippet"]


@pytest.mark.postgres
def test_postgres_prefix_queries_use_the_gin_index(articles):
    for i in range(30):
        create(title=f"Quantum {i}", publish=True)
    with connection.cursor() as cursor:
        cursor.execute("SET enable_seqscan = off")  # a tiny table: make the planner show whether it can
        try:
            cursor.execute(
                "EXPLAIN SELECT id FROM content_search_document d WHERE d.vector @@ to_tsquery('simple', %s)",
                [parse("quant").tsquery()],
            )
            plan = "\n".join(row[0] for row in cursor.fetchall())
        finally:
            cursor.execute("RESET enable_seqscan")
    assert "Index" in plan and "content_search_document" in plan, plan
