"""The per-collection FilterSet (content/entries/filters.py): built for every field type, a bounded number of queries
whatever the page holds, and SQL that walks the list indexes."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from content.entries import filters, rows, selectors
from content.schema import specs as schema
from tests.admin.conftest import EVERY_TYPE
from tests.factories import SYSTEM, actor, make_collection, make_entry
from tests.filter_data import Catalog, build_catalog

EVERY_FILTER: dict[str, Any] = {
    "author": 1,
    "createdAfter": "2000-01-01",
    "updatedBefore": "2999-01-01",
    "terms": {"category": ["news", "sport"], "tag": "hot"},
    "fields": {
        "price": {"gte": 1, "lte": 1000},
        "kind": {"in": ["news", "review"]},
        "colours": "blue",
        "featured": True,
    },
}


def test_every_field_type_gets_the_filters_its_values_allow(cms) -> None:
    make_collection("posts")  # the reference field points here
    make_collection("every", fields=EVERY_TYPE)
    declared = set(filters.filterset_for(schema.get_collection("every"), with_terms=False).base_filters)
    fields = {name.removeprefix("fields.") for name in declared if name.startswith("fields.")}
    assert fields == {
        "title", "summary", "handle", "related", "featured", "color", "color.in", "tags", "tags.in",
        "rating", "rating.gte", "rating.lte", "count", "count.gte", "count.lte", "event_at.gte", "event_at.lte",
    }  # fmt: skip
    assert {"status", "locale", "author", "createdAfter", "publishedBefore", "updatedAfter"} <= declared
    page = selectors.entry_list(
        actor=SYSTEM, collection="every", filter={"fields": {"related": "01ARZ3NDEKTSV4RRFFQ69G5FAV", "tags": "a"}}
    )
    assert page.items == []


@pytest.fixture
def catalog(cms) -> Catalog:
    return build_catalog()


def _queries(who: Any, **kwargs: Any) -> tuple[int, list[str], int]:
    with CaptureQueriesContext(connection) as captured:
        page = selectors.entry_list(actor=who, collection="posts", limit=50, **kwargs)
    return len(captured), [q["sql"] for q in captured.captured_queries], len(page.items)


def test_a_filtered_list_costs_the_same_few_queries_for_3_rows_or_40(catalog, settings) -> None:
    settings.EMDASH = {**settings.EMDASH, "SCHEMA_CHECK_SECONDS": 0}  # the schema stamp is read on every call
    for n in range(37):
        data = {"title": f"More {n}", "price": n + 1, "kind": "news", "colours": ["blue"], "featured": True}
        make_entry(by=actor(catalog.alice), data=data, terms={"category": ["news"], "tag": ["hot"]})
    wanted = {**EVERY_FILTER, "author": catalog.alice.pk}
    editor = actor(catalog.bob)
    narrow, _, few = _queries(editor, filter={**wanted, "fields": {**wanted["fields"], "price": {"gte": 31}}})
    wide, sql, many = _queries(editor, filter=wanted)
    assert (few, many) == (7, 37) and narrow == wide
    user_queries = [s for s in sql if "ec_posts" in s or "taxonomy" in s]
    # the user check and schema stamp aside: one query for the taxonomies, one for the page (terms as subqueries)
    assert len(user_queries) == 2, sql
    assert wide <= 4, sql  # plus the schema stamp, and the drafts of the page when it has some
    page_sql = next(s for s in sql if "ec_posts" in s)
    assert page_sql.count("taxonomy_termassignment") == 2  # one subquery per taxonomy filtered, not one per row


def test_filters_on_status_use_the_status_index(catalog) -> None:
    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL picks sequential scans on tables this small; checked by hand in the report")
    spec = schema.get_collection("posts")
    qs, _ = filters.apply(spec, rows.live_rows(spec), {"status": "published", "author": "1"})
    plan = qs.order_by("-created_at", "-id").explain()
    assert "USING INDEX" in plan and "_st_cr" in plan, plan
