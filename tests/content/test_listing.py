"""content_list and content_list_trashed: filters, ordering, limits, keyset cursors and summaries."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import override_settings
from django.utils import timezone

from content.entries import pages, selectors, services
from content.schema import specs as schema
from content.schema.dynamic import field_attname
from emdash.errors import EmDashError
from tests.factories import SYSTEM, make_collection, without_media_details
from tests.media.helpers import media_rows

HERO = "01ARZ3NDEKTSV4RRFFQ69G5FAV"


def fails(code: str, fn: Any, *args: Any, **kwargs: Any) -> EmDashError:
    """Call ``fn`` and check it raises the EmDash error ``code``; other exceptions propagate."""
    try:
        fn(*args, **kwargs)
    except EmDashError as exc:
        assert exc.code == code, (args, kwargs, exc.as_dict())
        return exc
    raise AssertionError(f"expected {code} from {fn.__name__}{args} {kwargs}")


def model(collection: str = "posts") -> Any:
    return schema.get_collection(collection).model


def create(collection: str = "posts", **kwargs: Any) -> Any:
    return services.entry_create(actor=SYSTEM, collection=collection, **kwargs)


def listing(collection: str = "posts", **kwargs: Any) -> Any:
    return selectors.entry_list(actor=SYSTEM, collection=collection, **kwargs).present()


def ids(page: Any) -> list[str]:
    return [item["id"] for item in page.items]


def walk(fetch: Any, limit: int) -> tuple[list[str], list[int]]:
    """Follow nextCursor to the end; return all ids and the page sizes."""
    seen: list[str] = []
    sizes: list[int] = []
    cursor = None
    for _ in range(1000):
        page = fetch(limit=limit, cursor=cursor)
        sizes.append(len(page.items))
        seen.extend(ids(page))
        body = page.to_dict()
        cursor = body.get("nextCursor")
        if cursor is None:
            assert page.next_cursor is None
            return seen, sizes
        assert isinstance(cursor, str) and cursor
    raise AssertionError("pagination did not end")


COLUMNS = {
    "created_at": "created_at",
    "createdAt": "created_at",
    "updated_at": "updated_at",
    "updatedAt": "updated_at",
    "published_at": "published_at",
    "publishedAt": "published_at",
    "scheduled_at": "scheduled_at",
    "scheduledAt": "scheduled_at",
    "title": field_attname("title"),
    "slug": "slug",
    "status": "status",
}


def expected_order(column: str, descending: bool, collection: str = "posts", **filters: Any) -> list[str]:
    """Python's idea of the order: (column, id), NULLs last in both directions."""
    rows = list(model(collection).objects.filter(deleted_at__isnull=True, **filters).values())
    present = sorted((r for r in rows if r[column] is not None), key=lambda r: (r[column], r["id"]), reverse=descending)
    missing = sorted((r for r in rows if r[column] is None), key=lambda r: r["id"], reverse=descending)
    return [r["id"] for r in present + missing]


@pytest.fixture
def catalogue(posts):
    """Eleven live items (drafts, published, scheduled) plus one in the trash, with ties in several columns."""
    titles = ["echo", "alpha", "delta", "charlie", "bravo", "delta", "foxtrot", "golf", "hotel", "india", "delta"]
    entries = [create(data={"title": t, "excerpt": f"excerpt {i}"}) for i, t in enumerate(titles)]
    # Publish in an order unrelated to creation.
    for index in (4, 0, 7, 2, 9):
        services.entry_publish(actor=SYSTEM, collection="posts", id=entries[index].id)
    soon = timezone.now() + timedelta(days=1)
    for index, hours in ((1, 5), (3, 2), (8, 5)):
        when = (soon + timedelta(hours=hours)).replace(microsecond=0)
        services.entry_schedule(actor=SYSTEM, collection="posts", id=entries[index].id, scheduled_at=when.isoformat())
    # A published item with a pending scheduled draft.
    services.entry_update(actor=SYSTEM, collection="posts", id=entries[9].id, data={"title": "juliet"})
    services.entry_schedule(
        actor=SYSTEM,
        collection="posts",
        id=entries[9].id,
        scheduled_at=(soon + timedelta(hours=2)).replace(microsecond=0).isoformat(),
    )
    # Ties: identical created_at (whole second) and published_at for some items.
    tie = datetime(2025, 6, 1, 12, 0, 0, tzinfo=UTC)
    model().objects.filter(pk__in=[entries[i].id for i in (1, 5, 6)]).update(created_at=tie)
    model().objects.filter(pk__in=[entries[i].id for i in (0, 4)]).update(
        published_at=datetime(2025, 7, 1, 8, 30, 0, 123456, tzinfo=UTC)
    )
    trashed = create(data={"title": "zulu"}, status="published")
    services.entry_trash(actor=SYSTEM, collection="posts", id=trashed.id)
    return entries


@pytest.mark.parametrize("order", ["asc", "desc"])
def test_order_by_every_column_and_cursor_walk(catalogue, order):
    for order_by, column in COLUMNS.items():
        expected = expected_order(column, order == "desc")
        assert len(expected) == 11
        page = listing(order_by=order_by, order=order, limit=100)
        assert ids(page) == expected, order_by
        assert page.next_cursor is None
        for limit in (1, 2, 3, 5):
            seen, sizes = walk(lambda ob=order_by, **kw: listing(order_by=ob, order=order, **kw), limit)
            assert seen == expected, (order_by, limit, seen)
            assert len(set(seen)) == len(seen)
            assert all(size == limit for size in sizes[:-1])
            assert 1 <= sizes[-1] <= limit


def test_nulls_come_last_in_both_directions(catalogue):
    published = set(
        model().objects.filter(published_at__isnull=False, deleted_at__isnull=True).values_list("id", flat=True)
    )
    for order in ("asc", "desc"):
        listed = ids(listing(order_by="published_at", order=order, limit=100))
        split = len(published)
        assert set(listed[:split]) == published
        assert not set(listed[split:]) & published


def test_default_order_is_created_at_desc(catalogue):
    assert ids(listing(limit=100)) == expected_order("created_at", True)
    assert ids(listing(limit=100)) == ids(listing(order_by="createdAt", order="desc", limit=100))


def test_status_filter(catalogue):
    for status in ("draft", "published", "scheduled"):
        expected = expected_order("created_at", True, status=status)
        assert expected
        page = listing(status=status, limit=100)
        assert ids(page) == expected
        assert {item["status"] for item in page.items} == {status}
        seen, _ = walk(lambda st=status, **kw: listing(status=st, order_by="title", order="asc", **kw), 2)
        assert seen == expected_order(field_attname("title"), False, status=status)


def test_status_filter_counts(catalogue):
    counts = {s: len(listing(status=s, limit=100).items) for s in ("draft", "published", "scheduled")}
    assert counts == {"draft": 3, "published": 5, "scheduled": 3}


def test_bad_status_order_by_and_order(posts):
    for status in ["trashed", "Draft", "all", 1, ["draft"], ""]:
        assert "status" in fails("VALIDATION_ERROR", listing, status=status).details["fields"]
    for order_by in ["id", "Title", "created", "deleted_at", "deletedAt", "excerpt", None, 1, "", ["title"]]:
        assert "orderBy" in fails("VALIDATION_ERROR", listing, order_by=order_by).details["fields"]
    for order in ["ASC", "up", "", None, 1]:
        assert "order" in fails("VALIDATION_ERROR", listing, order=order).details["fields"]


def test_order_by_title_without_title_field(cms):
    make_collection("counters", fields=[{"slug": "count", "label": "Count", "type": "integer"}])
    fails("VALIDATION_ERROR", listing, "counters", order_by="title")


def test_order_by_title_uses_name_and_puts_missing_titles_last(cms):
    make_collection("people", fields=[{"slug": "name", "label": "Name", "type": "string"}])
    made = [create("people", data=data).id for data in ({"name": "bob"}, {}, {"name": "amy"}, {}, {"name": "cy"})]
    for order in ("asc", "desc"):
        expected = expected_order(field_attname("name"), order == "desc", "people")
        assert set(expected) == set(made)
        assert ids(listing("people", order_by="title", order=order)) == expected
        seen, _ = walk(lambda o=order, **kw: listing("people", order_by="title", order=o, **kw), 2)
        assert seen == expected


def test_bad_limit(posts):
    for limit in [0, 101, -1, "5", True, False, 5.0, None, [5]]:
        err = fails("VALIDATION_ERROR", listing, limit=limit)
        assert "limit" in err.details["fields"]
        err = fails("VALIDATION_ERROR", selectors.entry_list_trashed, actor=SYSTEM, collection="posts", limit=limit)
        assert "limit" in err.details["fields"]


def test_limit_bounds_and_default(posts):
    for i in range(53):
        create(data={"title": f"t{i}"})
    assert len(listing(limit=1).items) == 1
    assert len(listing(limit=100).items) == 53
    assert listing(limit=100).next_cursor is None
    default = listing()
    assert len(default.items) == 50
    assert default.next_cursor
    rest = listing(cursor=default.next_cursor)
    assert len(rest.items) == 3
    assert not set(ids(default)) & set(ids(rest))


def test_empty_collection(posts):
    page = listing()
    assert page.items == [] and page.next_cursor is None
    assert page.to_dict() == {"items": []}


def test_trashed_items_are_not_listed(catalogue):
    listed = set(ids(listing(limit=100)))
    trashed = set(model().objects.filter(deleted_at__isnull=False).values_list("id", flat=True))
    assert len(trashed) == 1
    assert not listed & trashed
    for status in ("draft", "published", "scheduled"):
        assert not set(ids(listing(status=status, limit=100))) & trashed


def test_cursor_survives_changes_between_pages(catalogue):
    expected = expected_order("created_at", True)
    first = listing(limit=4)
    assert ids(first) == expected[:4]
    # The last item of the page goes to the trash and a new item arrives before the next page.
    services.entry_trash(actor=SYSTEM, collection="posts", id=expected[3])
    create(data={"title": "newcomer"})
    rest, _ = walk(lambda **kw: listing(**kw) if kw["cursor"] else first, 4)
    assert rest[4:] == expected[4:]


def test_garbage_cursor(catalogue):
    for cursor in ["garbage", "", "x" * 3000, 123, ["a"], {"q": "x"}, "eyJxIjoibGlzdCJ9:abc:def", "a:b", "\x00"]:
        fails("INVALID_CURSOR", listing, cursor=cursor)
        fails("INVALID_CURSOR", selectors.entry_list_trashed, actor=SYSTEM, collection="posts", cursor=cursor)


def test_tampered_cursor(catalogue):
    cursor = listing(limit=2).next_cursor
    assert cursor
    middle = len(cursor) // 2
    flipped = cursor[:middle] + ("A" if cursor[middle] != "A" else "B") + cursor[middle + 1 :]
    for bad in (flipped, cursor[:-1], cursor + "x", cursor[1:], cursor.upper(), cursor.replace(":", ".")):
        assert bad != cursor
        fails("INVALID_CURSOR", listing, limit=2, cursor=bad)
    # The genuine cursor still works.
    assert len(listing(limit=2, cursor=cursor).items) == 2


def test_cursor_from_another_query_is_rejected(cms):
    make_collection("posts")
    make_collection("pages")
    for i in range(4):
        create("posts", data={"title": f"p{i}"}, status="published" if i % 2 else "draft")
        create("pages", data={"title": f"g{i}"})
        services.entry_trash(actor=SYSTEM, collection="posts", id=create("posts", data={"title": f"t{i}"}).id)
    base = listing(limit=1, order_by="created_at", order="desc").next_cursor
    assert base
    other_queries = [
        {"order": "asc"},
        {"order_by": "updated_at"},
        {"order_by": "title"},
        {"order_by": "slug"},
        {"status": "draft"},
        {"status": "published"},
        {"locale": "en"},
    ]
    for change in other_queries:
        kwargs = {"order_by": "created_at", "order": "desc", **change}
        fails("INVALID_CURSOR", listing, limit=1, cursor=base, **kwargs)
    fails("INVALID_CURSOR", listing, "pages", limit=1, cursor=base)
    fails("INVALID_CURSOR", selectors.entry_list_trashed, actor=SYSTEM, collection="posts", limit=1, cursor=base)
    trash_cursor = trashed(limit=1).next_cursor
    assert trash_cursor
    fails("INVALID_CURSOR", listing, limit=1, cursor=trash_cursor)
    # A different limit or the camelCase spelling of the same order is the same query.
    assert len(listing(limit=3, cursor=base, order_by="createdAt").items) == 3


def test_summaries_leave_out_large_bodies_unless_full(cms):
    make_collection(
        "mixed",
        fields=[
            {"slug": "title", "label": "Title", "type": "string"},
            {"slug": "intro", "label": "Intro", "type": "text"},
            {"slug": "body", "label": "Body", "type": "portableText"},
            {"slug": "extra", "label": "Extra", "type": "json"},
            {"slug": "price", "label": "Price", "type": "number"},
            {"slug": "colour", "label": "Colour", "type": "select", "validation": {"options": ["red"]}},
            {"slug": "hero", "label": "Hero", "type": "image"},
            {"slug": "starts", "label": "Starts", "type": "datetime"},
        ],
    )
    data = {
        "title": "T",
        "intro": "long text",
        "body": [
            {
                "_type": "block",
                "_key": "b1",
                "style": "normal",
                "markDefs": [],
                "children": [{"_type": "span", "_key": "s1", "text": "Body", "marks": []}],
            }
        ],
        "extra": {"k": "v"},
        "price": 2.5,
        "colour": "red",
        "hero": {"id": HERO},
        "starts": "2026-01-01T00:00:00Z",
    }
    media_rows(HERO)
    entry = create("mixed", data=data)
    summary = listing("mixed").items[0]
    assert summary["id"] == entry.id
    assert without_media_details(summary["data"]) == {
        "title": "T",
        "price": 2.5,
        "colour": "red",
        "hero": {"id": HERO},
        "starts": "2026-01-01T00:00:00Z",
    }
    for key in ("slug", "status", "locale", "createdAt", "updatedAt", "publishedAt", "scheduledAt", "hasDraft"):
        assert key in summary
    full = listing("mixed", full=True).items[0]
    assert without_media_details(full["data"]) == data


def test_summaries_show_pending_drafts_to_editors(posts):
    entry = create(data={"title": "Live", "excerpt": "x"}, status="published")
    services.entry_update(actor=SYSTEM, collection="posts", id=entry.id, data={"title": "Draft"})
    other = create(data={"title": "Plain"})
    items = {i["id"]: i for i in listing().items}
    assert items[entry.id]["hasDraft"] is True
    assert items[entry.id]["data"] == {"title": "Draft"}
    assert items[other.id]["hasDraft"] is False
    assert listing(full=True).items[1]["data"]["excerpt"] == "x"


def test_locale_filter(cms):
    with override_settings(EMDASH={"LOCALES": ["en", "fr"]}):
        make_collection("posts")
        en = [create(data={"title": f"en{i}"}).id for i in range(3)]
        fr = [create(data={"title": f"fr{i}"}, locale="fr").id for i in range(2)]
        assert set(ids(listing(locale="en"))) == set(en)
        assert set(ids(listing(locale="fr"))) == set(fr)
        assert {i["locale"] for i in listing(locale="fr").items} == {"fr"}
        assert set(ids(listing())) == set(en + fr)
        seen, _ = walk(lambda **kw: listing(locale="fr", **kw), 1)
        assert sorted(seen) == sorted(fr)
        for bad in ("de", "EN", "", 1):
            err = fails("VALIDATION_ERROR", listing, locale=bad)
            assert "locale" in err.details["fields"]


# ------------------------------------------------------------------------------------------------ trash


def trashed(**kwargs: Any) -> Any:
    return selectors.entry_list_trashed(actor=SYSTEM, collection="posts", **kwargs).present()


def test_list_trashed(posts):
    live = create(data={"title": "live"})
    gone = [create(data={"title": f"gone{i}"}) for i in range(5)]
    for entry in gone:
        services.entry_trash(actor=SYSTEM, collection="posts", id=entry.id)
    # Same deletion time for two items: the id breaks the tie.
    tie = datetime(2025, 1, 1, tzinfo=UTC)
    model().objects.filter(pk__in=[gone[1].id, gone[3].id]).update(deleted_at=tie)
    expected = [
        r["id"]
        for r in sorted(
            model().objects.filter(deleted_at__isnull=False).values(),
            key=lambda r: (r["deleted_at"], r["id"]),
            reverse=True,
        )
    ]
    page = trashed(limit=100)
    assert ids(page) == expected
    assert all(item["deletedAt"] for item in page.items)
    assert live.id not in ids(page)
    for limit in (1, 2, 4):
        seen, _ = walk(lambda **kw: trashed(**kw), limit)
        assert seen == expected
    # Summaries, not full bodies.
    assert set(page.items[0]["data"]) == {"title"}
    services.entry_restore(actor=SYSTEM, collection="posts", id=gone[0].id)
    assert gone[0].id not in ids(trashed())
    assert gone[0].id in ids(listing())


def test_list_trashed_is_per_collection(cms):
    make_collection("posts")
    make_collection("pages")
    a = create("posts", data={"title": "a"})
    b = create("pages", data={"title": "b"})
    services.entry_trash(actor=SYSTEM, collection="posts", id=a.id)
    services.entry_trash(actor=SYSTEM, collection="pages", id=b.id)
    assert ids(trashed()) == [a.id]
    assert ids(selectors.entry_list_trashed(actor=SYSTEM, collection="pages").present()) == [b.id]


def _cursor_query(order_by: str, order: str) -> str:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    first = listing(order_by=order_by, order=order, limit=2)
    with CaptureQueriesContext(connection) as captured:
        listing(order_by=order_by, order=order, limit=2, cursor=first.next_cursor)
    return next(q["sql"] for q in captured.captured_queries if '"ec_posts"' in q["sql"] and "LIMIT" in q["sql"].upper())


@pytest.mark.parametrize("order", ["asc", "desc"])
def test_cursor_continues_with_one_row_value_comparison(catalogue, order):
    """(column, id) > (x, y): one index range, not an OR that makes the database scan what came before."""
    op = "<" if order == "desc" else ">"
    sql = _cursor_query("created_at", order)
    assert f") {op} (" in sql, sql
    assert " OR " not in sql.upper(), sql


def test_nullable_sort_columns_keep_the_null_branch(catalogue):
    sql = _cursor_query("published_at", "desc")
    assert ") < (" in sql and "IS NULL" in sql.upper(), sql


def test_row_comparison_adapts_values_like_a_lookup(catalogue):
    """The same rows as the expanded form, datetime parameters included (stored as text on SQLite)."""
    from django.db.models import Q

    from emdash import keyset

    qs = model().objects.filter(deleted_at__isnull=True).order_by("-created_at", "-id")
    everything = list(qs.values_list("created_at", "id"))
    for created, row_id in everything:
        expanded = qs.filter(Q(created_at__lt=created) | Q(created_at=created, id__lt=row_id))
        compared = keyset.after(qs, ("created_at", "id"), (created, row_id), descending=True)
        assert list(compared.values_list("id", flat=True)) == list(expanded.values_list("id", flat=True))


@pytest.mark.parametrize("status", [None, "published"])
def test_deep_pages_walk_the_index_as_a_range(catalogue, status):
    """The row comparison is an index range on (created_at, id) (after status=? when filtered), so a page 50,000
    deep costs what the first one does; the OR form made SQLite scan everything before it."""
    from django.db import connection

    if connection.vendor != "sqlite":
        pytest.skip("EXPLAIN QUERY PLAN is SQLite's; PostgreSQL's planner picks by table statistics")
    from emdash import cursors

    row = model().objects.order_by("-created_at", "-id")[2]
    cursor = cursors.encode("deep", pages.position_of(row, "created_at"))
    live = model().objects.filter(deleted_at__isnull=True, **({"status": status} if status else {}))
    qs = pages.ordered(live, "created_at", True, pages.decode(model(), "created_at", cursor, "deep"))
    sql, params = qs[:3].query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN QUERY PLAN {sql}", params)
        plan = " ".join(str(row) for row in cursor.fetchall())
    assert "(created_at,id)<" in plan.replace(" ", "") and "TEMP B-TREE" not in plan, plan
