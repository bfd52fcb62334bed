"""The write path under concurrency: SQLite writers queued on the file lock (``emdash.sqlite3``), real threads and
real processes creating at once with every write stored and none refused, and no second write transaction after
a draft is saved (the search index has nothing to do for it)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext

from content.entries import services
from content.schema import specs as schema
from content.search.models import SearchDocument
from tests.factories import SYSTEM, make_collection
from tests.servers import ROOT, database_url

ON_SQLITE = connection.vendor == "sqlite"
sqlite_only = pytest.mark.skipif(not ON_SQLITE, reason="the SQLite writer queue")
FIELDS: list[dict[str, Any]] = [{"slug": "title", "label": "Title", "type": "string", "searchable": True}]


@pytest.fixture
def notes(cms: None) -> Any:
    return make_collection("notes", fields=FIELDS, supports=["search", "revisions"])


def _in_threads(count: int, work: Any) -> list[BaseException]:
    errors: list[BaseException] = []

    def run(n: int) -> None:
        try:
            work(n)
        except BaseException as exc:  # collected and asserted on by the test
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return errors


@pytest.mark.django_db(transaction=True)
def test_threads_creating_at_once_store_every_item(notes):
    def create(n: int) -> None:
        for i in range(10):
            status = "published" if i % 2 else None
            services.entry_create(actor=SYSTEM, collection="notes", data={"title": f"t{n} {i}"}, status=status)

    assert _in_threads(8, create) == []
    assert schema.get_collection("notes").model.objects.count() == 80
    assert SearchDocument.objects.filter(collection="notes").count() == 40


CREATE_IN_A_PROCESS = """
import django, sys; django.setup()
from content.entries import services
from emdash.actor import Actor
for i in range(15):
    services.entry_create(actor=Actor.system(), collection="notes", data={"title": f"p{sys.argv[1]} {i}"},
                          status="published")
"""


@pytest.mark.django_db(transaction=True)
def test_processes_creating_at_once_store_every_item(notes):
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": database_url()}
    procs = [
        subprocess.Popen([sys.executable, "-c", CREATE_IN_A_PROCESS, str(n)], cwd=ROOT, env=env, stderr=subprocess.PIPE)
        for n in range(3)
    ]
    failures = [p.stderr.read().decode() for p in procs if p.wait(120) != 0 and p.stderr]
    assert failures == []
    assert schema.get_collection("notes").model.objects.count() == 45
    assert SearchDocument.objects.filter(collection="notes").count() == 45


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_a_writer_waits_for_the_one_in_its_transaction_then_goes(notes):
    inside, times = threading.Event(), {}

    def holder(n: int) -> None:
        with transaction.atomic():
            services.entry_create(actor=SYSTEM, collection="notes", data={"title": "first"})
            inside.set()
            time.sleep(0.5)
        times["first"] = time.monotonic()

    def waiter(n: int) -> None:
        inside.wait(10)
        with transaction.atomic():
            times["second"] = time.monotonic()
            services.entry_create(actor=SYSTEM, collection="notes", data={"title": "second"})

    assert _in_threads(2, lambda n: (holder if n == 0 else waiter)(n)) == []
    assert times["second"] >= times["first"] - 0.05  # began only once the first had committed
    assert schema.get_collection("notes").model.objects.count() == 2


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_transaction_hands_the_lock_over(notes):
    with pytest.raises(RuntimeError), transaction.atomic():
        services.entry_create(actor=SYSTEM, collection="notes", data={"title": "gone"})
        raise RuntimeError
    began = time.monotonic()
    assert (
        _in_threads(1, lambda n: services.entry_create(actor=SYSTEM, collection="notes", data={"title": "kept"})) == []
    )
    assert time.monotonic() - began < 5  # no wait for a lock nobody holds
    assert schema.get_collection("notes").model.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_saving_a_draft_opens_no_second_write_transaction(notes):
    with CaptureQueriesContext(connection) as queries:
        services.entry_create(actor=SYSTEM, collection="notes", data={"title": "draft"})
    statements = [q["sql"].split()[0].upper() for q in queries.captured_queries]
    writes = [s for s in statements if s in {"INSERT", "UPDATE", "DELETE"}]
    assert statements.count("BEGIN") <= 1 and writes  # SQLite shows its BEGIN IMMEDIATE; PostgreSQL none
    assert not any(
        "content_search_document" in q["sql"] and q["sql"].startswith("DELETE") for q in queries.captured_queries
    )
    assert statements.count("COMMIT") <= 1
