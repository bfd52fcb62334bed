"""Spec 6.3: only published, non-trashed items are ever found, and the index follows every lifecycle step."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from content.entries import services
from tests.factories import SYSTEM
from tests.media.helpers import media_rows
from tests.search.conftest import blocks, create, find, found_ids, indexed


def test_drafts_are_never_found(articles):
    draft = create(title="Marmalade recipe", excerpt="oranges and sugar")
    assert found_ids("marmalade") == []
    assert found_ids("oranges", actor=SYSTEM) == []  # not even for the system actor
    assert draft not in indexed()


def test_an_item_is_found_right_after_it_is_published(articles):
    entry_id = create(title="Marmalade recipe", excerpt="oranges and sugar")
    services.entry_publish(actor=SYSTEM, collection="articles", id=entry_id)
    assert found_ids("marmalade") == [entry_id]
    assert found_ids("oranges sugar") == [entry_id]


def test_created_published_is_found(articles):
    entry_id = create(title="Quince jelly", publish=True)
    assert found_ids("quince") == [entry_id]


def test_draft_of_a_published_item_with_revisions_is_not_found_until_published(articles):
    entry_id = create(title="Lemon curd", excerpt="tangy spread", publish=True)
    services.entry_update(actor=SYSTEM, collection="articles", id=entry_id, data={"excerpt": "buttery zest"})
    assert found_ids("buttery") == []  # the pending draft is not live
    assert found_ids("tangy") == [entry_id]  # the live version still is
    services.entry_publish(actor=SYSTEM, collection="articles", id=entry_id)
    assert found_ids("buttery") == [entry_id]
    assert found_ids("tangy") == []


def test_update_in_a_collection_without_revisions_is_found_at_once(notes):
    entry_id = create("notes", title="Shopping", text="apples", publish=True)
    services.entry_update(actor=SYSTEM, collection="notes", id=entry_id, data={"text": "pears"})
    assert found_ids("pears") == [entry_id]
    assert found_ids("apples") == []


def test_collection_without_drafts_indexes_once_published(notes):
    draft_id = create("notes", title="Groceries", text="walnuts")  # a draft, even without drafts support
    assert found_ids("walnuts") == []
    entry_id = create("notes", title="Groceries", text="walnuts", publish=True)
    assert found_ids("walnuts") == [entry_id] and draft_id != entry_id


def test_unpublish_removes_the_item(articles):
    entry_id = create(title="Fig chutney", publish=True)
    services.entry_unpublish(actor=SYSTEM, collection="articles", id=entry_id)
    assert found_ids("chutney") == []
    assert entry_id not in indexed()


def test_trash_removes_and_restore_brings_back(articles):
    entry_id = create(title="Plum sauce", publish=True)
    services.entry_trash(actor=SYSTEM, collection="articles", id=entry_id)
    assert found_ids("plum") == []
    assert entry_id not in indexed()
    services.entry_restore(actor=SYSTEM, collection="articles", id=entry_id)
    assert found_ids("plum") == [entry_id]


def test_permanent_delete_removes_the_document(articles):
    entry_id = create(title="Rhubarb crumble", publish=True)
    services.entry_trash(actor=SYSTEM, collection="articles", id=entry_id)
    services.entry_delete_permanently(actor=SYSTEM, collection="articles", id=entry_id)
    assert found_ids("rhubarb") == []
    assert indexed() == set()


def test_scheduled_items_are_not_found_until_the_worker_publishes_them(articles):
    entry_id = create(title="Cherry clafoutis")
    when = (timezone.now() + timedelta(hours=1)).isoformat()
    services.entry_schedule(actor=SYSTEM, collection="articles", id=entry_id, scheduled_at=when)
    assert found_ids("clafoutis") == []
    services.publish_due(now=timezone.now() + timedelta(hours=2))
    assert found_ids("clafoutis") == [entry_id]


def test_discarding_a_draft_keeps_the_live_text(articles):
    entry_id = create(title="Apricot tart", publish=True)
    services.entry_update(actor=SYSTEM, collection="articles", id=entry_id, data={"title": "Peach tart"})
    services.entry_discard_draft(actor=SYSTEM, collection="articles", id=entry_id)
    assert found_ids("apricot") == [entry_id]
    assert found_ids("peach") == []


def test_slug_change_shows_in_results(notes):
    entry_id = create("notes", title="Damson gin", publish=True)
    services.entry_update(actor=SYSTEM, collection="notes", id=entry_id, slug="damson")
    [result] = find("damson")
    assert result["slug"] == "damson"


def test_non_searchable_fields_are_not_indexed(articles):
    create(title="Pear cake", secret="confidential supplier", publish=True)
    assert found_ids("confidential") == []


def test_collections_without_search_support_are_never_indexed(plain):
    create("plain", title="Gooseberry fool", text="cream", publish=True)
    assert found_ids("gooseberry") == []
    assert indexed() == set()


def test_portable_text_is_found_as_plain_text(articles):
    entry_id = create(
        title="Jam basics",
        body=blocks("Boil the blackcurrants gently", "Pectin sets the jam"),
        publish=True,
    )
    assert found_ids("blackcurrants") == [entry_id]
    assert found_ids("pectin") == [entry_id]
    # words split across two spans of one block are still one word
    entry_two = create(title="Split", body=blocks("elderflowercordial"), publish=True)
    assert found_ids("elderflowercordial") == [entry_two]


def test_portable_text_custom_blocks_contribute_their_text(articles):
    (media,) = media_rows("01ARZ3NDEKTSV4RRFFQ69G5FAV")  # inline images must name an existing media item
    body = [
        {"_type": "image", "asset": {"id": media.id}, "alt": "A bowl of lingonberries"},
        {"_type": "code", "code": "print('sloe')", "language": "python"},
    ]
    entry_id = create(title="Odd blocks", body=body, publish=True)
    assert found_ids("lingonberries") == [entry_id]
    assert found_ids("sloe") == [entry_id]
    assert found_ids("python") == []  # block properties other than text-like ones are not indexed
