"""``manage.py emdash_reindex [--collection SLUG]`` rebuilds the index from published content."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from content.search.models import SearchDocument, SearchIndexState
from tests.search.conftest import create, found_ids, indexed


def reindex(*args: str) -> str:
    out = StringIO()
    call_command("emdash_reindex", *args, stdout=out)
    return out.getvalue()


def test_reindex_rebuilds_a_lost_index(articles, notes, plain):
    article = create(title="Lost barberry", publish=True)
    note = create("notes", title="Lost barberry note", publish=True)
    create(title="Draft barberry")
    create("plain", title="Plain barberry", publish=True)
    SearchDocument.objects.all().delete()
    SearchIndexState.objects.all().delete()
    assert found_ids("barberry") == []
    output = reindex()
    assert set(found_ids("barberry")) == {article, note}
    assert "articles: 1 document(s) indexed" in output
    assert "notes: 1 document(s) indexed" in output
    assert "plain: skipped" in output
    assert "articles: 1/1 published item(s) read" in output
    assert "Search index rebuilt: 2 document(s)" in output
    assert set(SearchIndexState.objects.values_list("collection", flat=True)) == {"articles", "notes"}


def test_reindex_one_collection(articles, notes):
    create(title="Barberry", publish=True)
    note = create("notes", title="Barberry note", publish=True)
    SearchDocument.objects.all().delete()
    output = reindex("--collection", "notes")
    assert indexed() == {note}
    assert "articles" not in output


def test_reindex_removes_stale_documents(articles):
    entry_id = create(title="Stale", publish=True)
    SearchDocument.objects.create(collection="gone", entry_id="01ARZ3NDEKTSV4RRFFQ69G5FAV", locale="en", slug="x")
    SearchDocument.objects.filter(entry_id=entry_id).update(body="phantom words")
    reindex()
    assert set(SearchDocument.objects.values_list("collection", flat=True)) == {"articles"}
    assert found_ids("phantom") == []
    assert found_ids("stale") == [entry_id]


def test_unknown_collection_is_an_error(articles):
    with pytest.raises(CommandError, match="not found"):
        reindex("--collection", "nope")


def test_hits_left_by_a_lagging_index_are_not_returned(articles):
    """Only items published right now come back, even when the index holds a stale document."""
    entry_id = create(title="Lagging", publish=True)
    from content.search import indexing

    document = SearchDocument.objects.get(entry_id=entry_id)
    from content.entries import services
    from tests.factories import SYSTEM

    services.entry_unpublish(actor=SYSTEM, collection="articles", id=entry_id)
    document.pk = None
    document.save()  # as if the receiver had not run yet
    assert indexed() == {entry_id}
    assert found_ids("lagging") == []
    indexing.reindex_entry("articles", entry_id)
    assert indexed() == set()
