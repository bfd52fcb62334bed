"""Backend details: the per-vendor index structures, query quoting, language configurations, text extraction."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import override_settings

from content.entries import services
from content.schema.specs import FieldSpec
from content.search import indexing
from content.search.backends import PostgresBackend, SQLiteBackend, get_backend
from content.search.models import SearchDocument
from tests.factories import SYSTEM, make_collection
from tests.search.conftest import ARTICLE_FIELDS, blocks, create, found_ids, sqlite_only


def scalar(sql: str) -> Any:
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return cursor.fetchone()[0]


def test_the_backend_follows_the_database_vendor(db):
    assert get_backend().vendor == connection.vendor


@sqlite_only
def test_sqlite_quotes_every_term():
    # Plain terms are word prefixes, each one quoted so nothing in it is FTS5 syntax (SPEC 7: prefixes).
    assert SQLiteBackend.match_expression(["near", "a"]) == '("near" * AND "a" *)'
    assert SQLiteBackend.match_expression(['x"y']) == '("x""y" *)'


@sqlite_only
def test_sqlite_fts_table_follows_the_document_table(articles):
    first = create(title="Bilberry pie", publish=True)
    create(title="Bilberry jam", publish=True)
    assert scalar("SELECT count(*) FROM content_search_fts WHERE content_search_fts MATCH 'bilberry'") == 2
    services.entry_unpublish(actor=SYSTEM, collection="articles", id=first)
    assert scalar("SELECT count(*) FROM content_search_fts WHERE content_search_fts MATCH 'bilberry'") == 1
    SearchDocument.objects.all().delete()  # what the test flush does between tests
    assert scalar("SELECT count(*) FROM content_search_fts WHERE content_search_fts MATCH 'bilberry'") == 0
    assert scalar("SELECT count(*) FROM content_search_fts") == 0


@pytest.mark.postgres
def test_postgres_vector_is_built_by_the_trigger_and_indexed(articles):
    create(title="Cranberry", excerpt="sauce for turkey", publish=True)
    assert scalar("SELECT vector::text FROM content_search_document") == "'cranberri':1A 'sauc':2B 'turkey':4B"
    assert scalar("SELECT indexdef FROM pg_indexes WHERE indexname = 'content_search_doc_vector'").find("gin") > 0


@pytest.mark.postgres
def test_postgres_configuration_per_locale(db):
    backend = PostgresBackend()
    prefix = "emdash_" if "emdash_english" in backend.available_configs() else ""
    assert backend.config_for("en") == f"{prefix}english"
    assert backend.config_for("fr-CA") == f"{prefix}french"
    assert backend.config_for("de_AT") == f"{prefix}german"
    assert backend.config_for("pt-BR") == f"{prefix}portuguese"
    assert backend.config_for("ja") == f"{prefix}simple"
    assert backend.config_for("xx") == f"{prefix}simple"


@pytest.mark.postgres
def test_postgres_stems_each_locale_in_its_own_language(cms):
    with override_settings(EMDASH={"LOCALES": ["en", "fr"]}):
        make_collection("articles", fields=ARTICLE_FIELDS, supports=["search"])
        french = create(title="Les chevaux", locale="fr", publish=True)
        english = create(title="Horses running", publish=True)
        assert SearchDocument.objects.get(entry_id=french).config.endswith("french")
        assert found_ids("cheval") == [french]
        assert found_ids("cheval", locale="fr") == [french]
        assert found_ids("run horse") == [english]


def test_accents_are_ignored_for_stored_and_queried_words(articles):
    if connection.vendor == "postgresql" and "emdash_english" not in PostgresBackend().available_configs():
        pytest.skip("the unaccent extension is not installed on this PostgreSQL server")
    entry_id = create(title="Déjà vu", publish=True)
    assert found_ids("deja") == [entry_id]
    assert found_ids("DÉJÀ") == [entry_id]


def field(type_: str, **extra: Any) -> FieldSpec:
    return FieldSpec(slug="f", label="F", type=type_, searchable=True, **extra)


@pytest.mark.parametrize(
    "type_, value, text",
    [
        ("string", "Hello", "Hello"),
        ("text", "Line one\nline two", "Line one\nline two"),
        ("select", "red", "red"),
        ("multiSelect", ["red", "blue"], "red blue"),
        ("integer", 42, "42"),
        ("number", 1.5, "1.5"),
        ("boolean", True, ""),
        ("datetime", "2026-01-01T00:00:00Z", ""),
        ("reference", "01ARZ3NDEKTSV4RRFFQ69G5FAV", ""),
        ("image", {"id": "m1", "alt": "A cat", "url": "https://x/cat.png"}, "A cat"),
        ("json", {"a": ["deep", {"b": "text"}], "n": 3}, "deep\ntext"),
        ("portableText", blocks("First para", "Second"), "First para\nSecond"),
        ("portableText", [{"_type": "block", "children": [{"_type": "span", "text": "   "}]}], ""),
        ("portableText", "not a list", ""),
        ("string", None, ""),
    ],
)
def test_field_text(type_: str, value: Any, text: str) -> None:
    assert indexing.field_text(field(type_), value) == text


def test_clean_removes_markers_controls_and_surrogates() -> None:
    assert indexing.clean("a\x02b\x03c\x00d\ud800e\tf\ng") == "a b c d e\tf\ng"
    assert indexing.clean("x" * 10, limit=4) == "xxxx"
    assert indexing.clean("e\u0301") == "\u00e9"  # composed, so both backends see one letter


def test_index_failures_never_fail_the_write(articles, monkeypatch, caplog):
    def broken(*args: Any) -> None:
        raise RuntimeError("index down")

    monkeypatch.setattr(indexing, "write_document", broken)
    monkeypatch.setattr(indexing, "reindex_entry", broken)
    entry_id = create(title="Goji", publish=True)  # committed; both index passes failed: logged, not raised
    assert "could not index articles/" in caplog.text and "could not reindex" in caplog.text
    monkeypatch.undo()
    indexing.reindex_entry("articles", entry_id)
    assert found_ids("goji") == [entry_id]


def test_a_publish_indexes_in_its_own_transaction_and_a_failure_there_is_retried_after_commit(articles, monkeypatch):
    calls: list[str] = []
    real = indexing.write_document
    failures = [RuntimeError("index down")]

    def once_broken(spec: Any, row: Any) -> None:
        calls.append(row.id)
        if failures:
            raise failures.pop()
        real(spec, row)

    monkeypatch.setattr(indexing, "write_document", once_broken)
    entry_id = create(title="Quince", publish=True)
    assert calls == [entry_id, entry_id]  # in the publish's transaction (failed), then after the commit
    assert found_ids("quince") == [entry_id]
    calls.clear()
    create(title="Medlar", publish=True)
    assert len(calls) == 1  # indexed with the publish: the after-commit pass has nothing left to do


@pytest.mark.postgres
def test_postgres_optimize_vacuums_outside_a_transaction(transactional_db):
    # After a full rebuild every old row is dead and every new one unmarked: searches pay for both until a VACUUM.
    def vacuums() -> int:
        return scalar("SELECT vacuum_count FROM pg_stat_user_tables WHERE relname = 'content_search_document'")

    before = vacuums()
    with transaction.atomic():
        get_backend().optimize()  # inside a transaction VACUUM cannot run: ANALYZE only, no error
    get_backend().optimize()
    for _ in range(50):  # the statistics collector reports a moment later
        if vacuums() > before:
            break
        connection.close()
        time.sleep(0.1)
    assert vacuums() > before
