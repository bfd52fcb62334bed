"""What a list page no longer does per item (issue 27 goal 6), held by values and counts, never timings: it reads
its timestamps as the wire's text (emdash/wire_dates.py), the same bytes as formatting the stored datetime with
``iso`` on SQLite (text reformatted, other stored forms the old way) and PostgreSQL (datetimes formatted), for
first pages, cursor pages and the trash; its queries do not grow with its length; its cursor is signed once; the
pages after the first reuse one compiled query."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bylines.services import byline_create
from content.entries import pages, rows, selectors, services
from content.schema import specs as schema
from emdash import cursors
from emdash.dates import iso
from emdash.prepared import Prepared
from tests.factories import SYSTEM, make_entry

KOLKATA = timezone(timedelta(hours=5, minutes=30))
# Stored values and the wire text each must give: whole seconds (no fraction), one microsecond, the last one of a
# second given in another time zone (shown in UTC), and NULL.
CASES = [
    ("created_at", datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC), "2026-01-02T03:04:05Z"),
    ("updated_at", datetime(2026, 1, 2, 3, 4, 5, 1, tzinfo=UTC), "2026-01-02T03:04:05.000001Z"),
    ("published_at", datetime(2026, 1, 2, 8, 34, 5, 999999, tzinfo=KOLKATA), "2026-01-02T03:04:05.999999Z"),
    ("scheduled_at", None, None),
]
WIRE = {"created_at": "createdAt", "updated_at": "updatedAt", "published_at": "publishedAt"}
WIRE |= {"scheduled_at": "scheduledAt", "deleted_at": "deletedAt"}


def model() -> Any:
    return schema.get_collection("posts").model


def listed(**kwargs: Any) -> dict[str, Any]:
    return selectors.entry_list(actor=SYSTEM, collection="posts", **kwargs).to_dict()


def shown_by_the_orm(entry_id: str) -> dict[str, str | None]:
    """What the presenters showed before: the model row's datetimes formatted by ``iso``."""
    row = model().objects.get(pk=entry_id)
    return {WIRE[name]: iso(getattr(row, name)) for name in WIRE if name != "deleted_at"}


def dates_of(item: dict[str, Any]) -> dict[str, Any]:
    return {key: item[key] for key in WIRE.values() if key in item}


def test_list_timestamps_are_the_iso_text_of_the_stored_instants(posts):
    first, second = make_entry(status="published"), make_entry(status="published")
    model().objects.filter(pk=first.id).update(**{name: value for name, value, _ in CASES})
    page = listed(order_by="created_at", order="asc", limit=1)
    item = page["items"][0]
    assert item["id"] == first.id
    assert dates_of(item) == {WIRE[name]: text for name, _, text in CASES}
    assert dates_of(item) == shown_by_the_orm(first.id)
    # The next page is built per request (a cursor page): the same rule, and the cursor holds the wire text.
    after = listed(order_by="created_at", order="asc", limit=1, cursor=page["nextCursor"])
    assert [i["id"] for i in after["items"]] == [second.id]
    assert dates_of(after["items"][0]) == shown_by_the_orm(second.id)
    by_published = listed(order_by="publishedAt", order="desc", limit=1)
    assert listed(order_by="publishedAt", order="desc", limit=1, cursor=by_published["nextCursor"])["items"]


def test_a_trashed_item_shows_when_it_was_trashed(posts):
    entry = make_entry(status="published")
    services.entry_trash(actor=SYSTEM, collection="posts", id=entry.id)
    when = datetime(2026, 3, 4, 5, 6, 7, 890000, tzinfo=UTC)
    model().objects.filter(pk=entry.id).update(deleted_at=when)
    trashed = selectors.entry_list_trashed(actor=SYSTEM, collection="posts").to_dict()["items"]
    assert [(i["id"], i["deletedAt"]) for i in trashed] == [(entry.id, "2026-03-04T05:06:07.890000Z")]


@pytest.mark.skipif(connection.vendor != "sqlite", reason="text in other forms exists only where dates are text")
@pytest.mark.parametrize(
    "stored",
    [
        "2026-01-02T03:04:05",  # ISO with a T
        "2026-01-02 03:04:05.000000",  # zero microseconds written out (isoformat leaves them off)
        "2026-01-02 03:04:05.5",  # a short fraction (isoformat pads it)
        "2026-01-02 08:34:05+05:30",  # an offset
    ],
)
def test_sqlite_text_in_another_form_is_shown_as_the_orm_shows_it(posts, stored):
    entry = make_entry(status="published")
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {model()._meta.db_table} SET updated_at = %s WHERE id = %s", [stored, entry.id])
    item = listed()["items"][0]
    assert item["updatedAt"] == shown_by_the_orm(entry.id)["updatedAt"]
    assert item["updatedAt"].startswith("2026-01-02T03:04:05") and item["updatedAt"].endswith("Z")


def test_records_carry_wire_text_and_refuse_to_become_model_rows(posts):
    entry = make_entry(status="published")
    prepared = Prepared(model().objects.filter(id=entry.id), wire_dates=rows.SYSTEM_DATES)
    [record] = prepared.records(prepared.params)
    assert record.created_at == iso(model().objects.get(pk=entry.id).created_at)
    assert record.deleted_at is None
    with pytest.raises(TypeError):
        prepared.objects(prepared.params)


def _credited_page(count: int) -> None:
    """``count`` items: credited bylines, the author's own byline inferred, pending drafts."""
    writer = byline_create(actor=SYSTEM, slug="writer", display_name="Writer")
    for n in range(count):
        credits = [{"bylineId": writer.id, "roleLabel": "Words"}] if n % 2 else None
        entry = make_entry(data={"title": f"Item {n}"}, status="published", bylines=credits)
        if n % 3 == 0:
            services.entry_update(actor=SYSTEM, collection="posts", id=entry.id, data={"title": f"Draft {n}"})


def queries_for(limit: int) -> tuple[int, dict[str, Any]]:
    listed(limit=limit)  # warm: the schema, the first page's compiled query
    with CaptureQueriesContext(connection) as seen:
        page = listed(limit=limit)
    return len(seen.captured_queries), page


def test_a_list_page_costs_the_same_queries_for_5_items_as_for_50(posts):
    _credited_page(50)
    few, small = queries_for(5)
    many, large = queries_for(50)
    assert len(small["items"]) == 5 and len(large["items"]) == 50
    assert many == few <= 3  # the schema version, the page with its credits, the pending drafts
    drafts = [i for i in large["items"] if i["hasDraft"]]
    assert drafts and all(i["data"]["title"].startswith("Draft") for i in drafts)
    credited = [i for i in large["items"] if i["bylines"] and i["bylines"][0]["source"] == "explicit"]
    assert len(credited) == 25 and {i["byline"]["slug"] for i in credited} == {"writer"}
    # A byline on many items is presented once, with the same values everywhere.
    assert credited[0]["byline"] == credited[-1]["byline"] and credited[0]["bylines"][0]["roleLabel"] == "Words"


def test_the_same_next_cursor_is_signed_once_and_still_decodes(posts, settings, monkeypatch):
    for _ in range(3):
        make_entry(status="published")
    signed: list[Any] = []
    real = cursors.signing.dumps
    monkeypatch.setattr(cursors.signing, "dumps", lambda *a, **k: signed.append(a) or real(*a, **k))
    first, again = listed(limit=2)["nextCursor"], listed(limit=2)["nextCursor"]
    assert first == again and len(signed) == 1
    assert [i["id"] for i in listed(limit=2, cursor=first)["items"]]
    # A new secret signs anew: a token signed with the old one would not decode.
    settings.SECRET_KEY = "another secret key for this test, long enough to be a real one"
    renewed = listed(limit=2)["nextCursor"]
    assert renewed != first and len(signed) == 2
    assert listed(limit=2, cursor=renewed)["items"]


@pytest.mark.parametrize("order_by", ["createdAt", "publishedAt", "title"])
def test_the_pages_after_the_first_reuse_one_compiled_query(posts, monkeypatch, order_by):
    for n in range(7):
        make_entry(data={"title": f"Item {n % 3}"}, status="published" if n % 2 else "draft")
    compiled: list[Any] = []
    real = pages.Prepared
    monkeypatch.setattr(pages, "Prepared", lambda *a, **k: compiled.append(a) or real(*a, **k))
    expected = [i["id"] for i in listed(order_by=order_by, limit=100)["items"]]
    compiled.clear()
    seen, cursor = [], None
    while True:
        page = listed(order_by=order_by, limit=2, cursor=cursor)
        seen += [i["id"] for i in page["items"]]
        if (cursor := page.get("nextCursor")) is None:
            break
    assert seen == expected and len(seen) == 7
    # The first page, one after a value and (publishedAt: drafts have none) one after a NULL.
    assert len(compiled) == (3 if order_by == "publishedAt" else 2)
