"""Stamps readings kept per thread (content/stamps.py ``fetch``): a REST read's stamps query is not run again on
SQLite while the database's change token stands, and every kind of change, by this connection or another thread's,
makes the next 200 carry new validators (issue 27 goal 6). On PostgreSQL every read runs its query."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from content import stamps
from tests.edge.test_conditional_edge import wsgi_get
from tests.edge.test_kept_304 import API, CASES, HELLO, _another_thread, _here, credited, media_root, site, sqlite_only

__all__ = ["credited", "media_root", "site"]  # fixtures
LIST = f"{API}?limit=5"


def _sql(path: str) -> tuple[dict[str, str], list[str]]:
    with CaptureQueriesContext(connection) as queries:
        status, headers, _ = wsgi_get(path)
    assert status == 200, path
    return headers, [q["sql"] for q in queries.captured_queries]


@sqlite_only
def test_a_repeated_read_does_not_read_the_stamps_again(credited) -> None:
    for path in (HELLO, LIST):
        first, _ = _sql(path)
        again, sql = _sql(path)
        assert not [q for q in sql if "content_changestamp" in q], sql
        assert again["etag"] == first["etag"] and again["last-modified"] == first["last-modified"]


def test_postgresql_reads_the_stamps_on_every_read(credited) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the PostgreSQL side of the kept readings")
    _sql(HELLO)
    assert [q for q in _sql(HELLO)[1] if "content_changestamp" in q]


@sqlite_only
def test_nothing_is_reused_inside_a_transaction(credited) -> None:
    with transaction.atomic():  # its writes could still roll back
        _sql(LIST)
        assert [q for q in _sql(LIST)[1] if "content_changestamp" in q]


@pytest.mark.parametrize("where", [_here, _another_thread], ids=["this connection", "another connection"])
@pytest.mark.parametrize("case", list(CASES))
def test_every_change_moves_the_next_200s_validators(credited, case, where) -> None:
    change, paths = CASES[case]
    before = {path: wsgi_get(path) for path in paths}
    for path, (status, headers, _) in before.items():
        assert status == 200, path
        assert wsgi_get(path)[1]["etag"] == headers["etag"], path  # read again: the kept reading on SQLite
    where(change, credited)
    for path, (_, headers, _) in before.items():
        status, after, _ = wsgi_get(path)
        assert status == 200 and after["etag"] != headers["etag"], f"{case}: {path} kept its validators"


@sqlite_only
def test_forgetting_the_caches_drops_every_threads_readings(credited) -> None:
    _sql(LIST)
    stamps.forget_all()  # a process that restored a backup
    assert [q for q in _sql(LIST)[1] if "content_changestamp" in q]
