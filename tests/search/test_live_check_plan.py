"""The search's live check (and the menu's link check) look their few ids up by primary key. Given "status = ?"
too, SQLite without statistics preferred the status index and read every published row: 14 ms a search at 100k
items instead of 0.1 ms. Plans, not timings."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from content.schema import specs as schema
from content.search.backends import Hit
from content.search.selectors import _live
from tests.search.conftest import create

pytestmark = pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's planner")


def _plan(sql: str, params: Any = None) -> str:
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN QUERY PLAN {sql}", params or [])
        return " | ".join(str(row[-1]) for row in cursor.fetchall())


def test_the_live_check_of_thirty_hits_uses_the_primary_key(articles: Any) -> None:
    ids = [create(title=f"Item {n}", publish=True) for n in range(3)]
    ids += [f"01ZZZZZZZZZZZZZZZZZZZZZZ{n:02d}" for n in range(27)]  # ids of entries gone since indexing
    hits = [Hit(n, "articles", entry_id, "en", 1.0) for n, entry_id in enumerate(ids)]
    with CaptureQueriesContext(connection) as queries:
        live = _live({"articles": schema.get_collection("articles")}, hits)
    assert set(live) == {("articles", entry_id) for entry_id in ids[:3]}
    (sql,) = [q["sql"] for q in queries.captured_queries if "ec_articles" in q["sql"]]
    plan = _plan(sql)
    assert "autoindex" in plan or "PRIMARY KEY" in plan, plan
    assert "status" not in plan, plan
