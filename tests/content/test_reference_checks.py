"""Reference values are checked against their targets in one query per target collection, however many links."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.test.utils import CaptureQueriesContext

from content.entries import services
from content.schema import specs as schema
from content.schema.validation import validate_data
from emdash.errors import ValidationError
from tests.factories import SYSTEM, make_collection

UNKNOWN = ("01ARZ3NDEKTSV4RRFFQ69G5FAV", "01ARZ3NDEKTSV4RRFFQ69G5FAW")


def _library() -> None:
    make_collection("authors", fields=[{"slug": "name", "label": "Name", "type": "string"}])
    make_collection("topics", fields=[{"slug": "name", "label": "Name", "type": "string"}])
    make_collection(
        "books",
        fields=[
            {"slug": "title", "label": "Title", "type": "string"},
            {"slug": "author", "label": "Author", "type": "reference", "options": {"collection": "authors"}},
            {"slug": "editor", "label": "Editor", "type": "reference", "options": {"collection": "authors"}},
            {"slug": "topic", "label": "Topic", "type": "reference", "options": {"collection": "topics"}},
            {
                "slug": "related",
                "label": "Related",
                "type": "references",
                "options": {"collections": ["authors", "topics"]},
            },
        ],
    )


def _make(collection: str, name: str) -> str:
    return services.entry_create(actor=SYSTEM, collection=collection, data={"name": name}, slug=name.lower()).id


def _target_reads(queries: list[dict[str, Any]], table: str) -> int:
    return sum(1 for q in queries if q["sql"].lstrip().upper().startswith("SELECT") and f'"{table}"' in q["sql"])


def _reads_per_target(data: dict[str, Any]) -> tuple[int, int, int]:
    spec = schema.get_collection("books")
    with CaptureQueriesContext(connection) as seen:
        clean = validate_data(spec, data, partial=False)
    assert len(clean["related"]) == len(data["related"])  # every link resolved (ids, and topics by slug)
    tables = [schema.get_collection(slug).model._meta.db_table for slug in ("books", "authors", "topics")]
    return tuple(_target_reads(seen.captured_queries, table) for table in tables)  # type: ignore[return-value]


def test_every_link_of_a_write_is_checked_in_one_query_per_target_collection(cms):
    """Checking (and resolving the slugs of) references costs the same for 2 links as for 12."""
    _library()
    authors = [_make("authors", f"A{i}") for i in range(6)]
    topics = [_make("topics", f"T{i}") for i in range(4)]
    few = {"title": "x", "author": authors[0], "topic": topics[0], "related": [authors[1], "t1"]}
    many = {
        "title": "x",
        "author": authors[0],
        "editor": authors[1],
        "topic": topics[0],
        "related": [*authors[2:], "t1", "t2", "t3"],
    }
    reads = _reads_per_target(few)
    assert reads == _reads_per_target(many)
    books, by_authors, by_topics = reads
    assert books == 0
    assert by_authors <= 2 and by_topics <= 2  # resolving the list's ids and slugs, then checking every link


def test_bad_links_are_each_named_in_one_validation_error_and_nothing_is_written(cms):
    _library()
    ada = _make("authors", "Ada")
    topic = _make("topics", "Maths")
    services.entry_trash(actor=SYSTEM, collection="topics", id=topic)
    related = [{"collection": "authors", "id": ada}, {"collection": "authors", "id": UNKNOWN[1]}]
    data = {"title": "x", "author": ada, "editor": UNKNOWN[0], "topic": topic, "related": related}
    model = schema.get_collection("books").model
    try:
        services.entry_create(actor=SYSTEM, collection="books", data=data)
    except ValidationError as err:
        assert err.code == "VALIDATION_ERROR"
        assert (err.details or {})["fields"] == {
            "data.editor": f"no item with id '{UNKNOWN[0]}' in 'authors'",
            "data.topic": f"no item with id '{topic}' in 'topics'",
            "data.related[1]": f"no item '{UNKNOWN[1]}' in authors, topics",
        }
    else:
        raise AssertionError("expected VALIDATION_ERROR")
    assert model.objects.count() == 0
