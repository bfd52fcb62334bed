"""Migration content 0010: redirect sources stored with lower-case %-escapes (written before sources were
normalised, as WordPress writes non-Latin permalinks) become the upper-case form lookups use, on SQLite and
PostgreSQL; where both forms were stored, the newest row is kept and the other dropped (the source is unique)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

BEFORE = [("content", "0009_change_stamps")]
UPPER = "/%E4%B8%AD/"


def _migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return MigrationExecutor(connection)


def _at(day: int) -> datetime:
    return datetime(2025, 1, day, tzinfo=UTC)


@pytest.mark.django_db(transaction=True)
def test_lower_case_escapes_are_upper_cased_and_duplicates_merged() -> None:
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        old = _migrate(BEFORE).loader.project_state(BEFORE).apps
        redirect = old.get_model("content", "Redirect")
        made = [
            ("01HZZZZZZZZZZZZZZZZZZZZZZ1", "/%e4%b8%ad/", "/posts/old-target/", 1),  # older lower-case twin
            ("01HZZZZZZZZZZZZZZZZZZZZZZ2", UPPER, "/posts/zhong/", 2),  # the newest of the pair: kept
            ("01HZZZZZZZZZZZZZZZZZZZZZZ3", "/%d0%bf%D1%80/?s=%e4%b8%ad&a=1", "/posts/pr/", 1),  # a query too
            ("01HZZZZZZZZZZZZZZZZZZZZZZ4", "/plain/", "/posts/plain/", 1),
            ("01HZZZZZZZZZZZZZZZZZZZZZZ5", "/%c3%a9t%c3%a9/", "/posts/ete-new/", 3),  # newer than its twin: kept
            ("01HZZZZZZZZZZZZZZZZZZZZZZ6", "/%C3%A9t%C3%A9/", "/posts/ete-old/", 2),
        ]
        for ident, source, target, day in made:
            redirect.objects.create(id=ident, source=source, target=target, created_at=_at(day))

        new = _migrate(latest).loader.project_state(latest).apps
        found = dict(new.get_model("content", "Redirect").objects.values_list("source", "target"))
        assert found == {
            UPPER: "/posts/zhong/",
            "/%D0%BF%D1%80/?a=1&s=%E4%B8%AD": "/posts/pr/",
            "/plain/": "/posts/plain/",
            "/%C3%A9t%C3%A9/": "/posts/ete-new/",
        }
        for path, target in (("/中/", "/posts/zhong/"), ("/%e4%b8%ad/", "/posts/zhong/"), ("/été/", "/posts/ete-new/")):
            response = Client().get(path)
            assert response.status_code == 301 and response["Location"] == target, (path, response.status_code)
    finally:
        _migrate(latest)
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM content_redirect")
