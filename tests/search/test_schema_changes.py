"""The index follows schema changes: searchable flags, deleted fields, deleted collections, changed supports."""

from __future__ import annotations

from django.db.models import F

from content.models import Collection, Field, SchemaState
from content.schema import services as schema_services
from content.schema import specs as schema
from content.search.models import SearchIndexState
from content.signals import schema_changed
from tests.factories import SYSTEM, make_collection
from tests.search.conftest import NOTE_FIELDS, create, find, found_ids, indexed


def _registry_change() -> None:
    """What a schema service does around a registry edit: commit it with a version bump, then signal."""
    SchemaState.objects.filter(pk=1).update(version=F("version") + 1)
    schema.invalidate()
    schema_changed.send(sender=None)


def set_searchable(collection: str, field: str, value: bool) -> None:
    Field.objects.filter(collection__slug=collection, slug=field).update(searchable=value)
    _registry_change()


def set_supports(collection: str, supports: list[str]) -> None:
    Collection.objects.filter(slug=collection).update(supports=supports)
    _registry_change()


def test_turning_searchable_off_drops_that_fields_text(articles):
    entry_id = create(title="Bramble jelly", excerpt="hedgerow harvest", publish=True)
    set_searchable("articles", "excerpt", False)
    assert found_ids("hedgerow") == []
    assert found_ids("bramble") == [entry_id]
    set_searchable("articles", "excerpt", True)
    assert found_ids("hedgerow") == [entry_id]


def test_turning_the_last_searchable_field_off_empties_the_collection(notes):
    create("notes", title="Crab apples", text="tart", publish=True)
    set_searchable("notes", "title", False)
    set_searchable("notes", "text", False)
    assert indexed("notes") == set()
    assert not SearchIndexState.objects.filter(collection="notes").exists()
    assert found_ids("apples") == []


def test_deleting_a_searchable_field_drops_its_text(articles):
    entry_id = create(title="Medlar cheese", excerpt="bletted fruit", publish=True)
    schema_services.field_delete(actor=SYSTEM, collection="articles", field_slug="excerpt")
    assert found_ids("bletted") == []
    assert found_ids("medlar") == [entry_id]


def test_adding_a_searchable_field_indexes_existing_items(notes):
    entry_id = create("notes", title="Sloe gin", publish=True)
    schema_services.field_create(
        actor=SYSTEM,
        collection="notes",
        slug="origin",
        label="Origin",
        type="string",
        searchable=True,
        default_value="blackthorn",
    )
    assert found_ids("blackthorn") == [entry_id]


def test_deleting_a_collection_drops_its_documents(articles, notes):
    create(title="Greengage", publish=True)
    note = create("notes", title="Greengage note", publish=True)
    schema_services.collection_delete(actor=SYSTEM, slug="articles", force=True)
    assert indexed("articles") == set()
    assert found_ids("greengage") == [note]
    assert set(SearchIndexState.objects.values_list("collection", flat=True)) == {"notes"}


def test_a_recreated_collection_starts_with_an_empty_index(cms):
    make_collection("notes", fields=NOTE_FIELDS, supports=["search"])
    create("notes", title="Old mulberry", publish=True)
    schema_services.collection_delete(actor=SYSTEM, slug="notes", force=True)
    make_collection("notes", fields=NOTE_FIELDS, supports=["search"])
    assert found_ids("mulberry") == []
    assert indexed() == set()


def test_removing_and_adding_search_support(notes):
    entry_id = create("notes", title="Cloudberry", publish=True)
    set_supports("notes", [])
    assert indexed() == set()
    assert found_ids("cloudberry") == []
    set_supports("notes", ["search"])
    assert found_ids("cloudberry") == [entry_id]


def test_title_is_shown_even_when_not_searchable(cms):
    fields = [
        {"slug": "title", "label": "Title", "type": "string"},
        {"slug": "text", "label": "Text", "type": "text", "searchable": True},
    ]
    make_collection("notes", fields=fields, supports=["search"])
    entry_id = create("notes", title="Juniper", text="berries for gin", publish=True)
    assert found_ids("juniper") == []
    [hit] = find("berries")
    assert (hit["id"], hit["title"]) == (entry_id, "Juniper")


def test_unrelated_schema_changes_do_not_rebuild(articles, notes):
    create(title="Tayberry", publish=True)
    before = dict(SearchIndexState.objects.values_list("collection", "built_at"))
    schema_services.field_create(actor=SYSTEM, collection="articles", slug="rating", label="Rating", type="integer")
    after = dict(SearchIndexState.objects.values_list("collection", "built_at"))
    assert after == before
