from content.entries import selectors, services
from tests.factories import SYSTEM, make_entry


def test_create_and_get_roundtrip(posts):
    entry = make_entry(data={"title": "Hello"})
    got = selectors.entry_get(actor=SYSTEM, collection="posts", id="hello")
    assert got.id == entry.id
    assert got.to_dict()["data"]["title"] == "Hello"


def test_tables_are_dropped_between_tests(posts):
    services.entry_create(actor=SYSTEM, collection="posts", data={"title": "Hello"})
    assert selectors.entry_get(actor=SYSTEM, collection="posts", id="hello").row.slug == "hello"
