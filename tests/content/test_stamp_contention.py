"""Change stamps under concurrent writers (content/stamps.py): on PostgreSQL a writer raising a scope another
open transaction holds takes a free row of it instead of waiting for that commit; the scope's version still
counts every committed raise, so no reader keeps a stale validator."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections, transaction

from content import stamps

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def _raise_in_thread(scope: str, results: list[str]) -> None:
    try:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '2s'")  # a wait for the held row fails the test
            stamps.bump(scope)
        results.append("ok")
    except Exception as exc:  # reported to the test's assertion
        results.append(repr(exc))
    finally:
        connections.close_all()


def test_a_second_writer_does_not_wait_for_the_first_ones_commit() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("SQLite has one writer at a time: its stamps keep one row per scope")
    scope = stamps.public("posts")
    stamps.bump(scope)  # the scope's first row exists, committed
    before = stamps.read().version(scope)
    results: list[str] = []
    with transaction.atomic():
        stamps.bump(scope)  # held until this block commits
        for _ in range(3):
            writer = threading.Thread(target=_raise_in_thread, args=(scope, results))
            writer.start()
            writer.join(30)
        assert results == ["ok", "ok", "ok"]
    after = stamps.read()
    assert after.version(scope) == before + 4  # every raise counted, across the scope's rows
    assert after.version(stamps.CONTENT) == after.version(scope)


def test_a_rolled_back_raise_counts_for_nothing() -> None:
    scope = stamps.drafts("posts")
    stamps.bump(scope)
    before = stamps.read().token(scope)
    with pytest.raises(RuntimeError), transaction.atomic():
        stamps.bump(scope)
        raise RuntimeError("rolled back")
    assert stamps.read().token(scope) == before
