"""The background audit writer keeps rows through the failures a long-running process meets: a user deleted
between the request and the write, a batch with one bad row, a writer thread that died."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from audit import writer as audit_writer
from audit.models import AuditLog

pytestmark = pytest.mark.django_db(transaction=True)


def _row(action: str, user_id: int | None = None) -> AuditLog:
    return AuditLog(action=action, source="mcp", outcome="ok", trace_id="t" * 32, user_id=user_id)


@pytest.fixture
def writer(settings):
    settings.EMDASH = {**settings.EMDASH, "AUDIT_ASYNC": True, "AUDIT_FLUSH_INTERVAL": 0.05}
    audit_writer.shutdown()
    yield
    audit_writer.shutdown()


def test_one_bad_row_does_not_cost_the_batch_and_a_deleted_user_keeps_the_row():
    user = get_user_model().objects.create_user("writer-a")
    audit_writer.write([_row("first", user.pk), _row("orphan", user.pk + 1000), _row("third")])
    assert sorted(AuditLog.objects.values_list("action", flat=True)) == ["first", "orphan", "third"]
    assert AuditLog.objects.get(action="orphan").user_id is None
    assert AuditLog.objects.get(action="first").user_id == user.pk


def test_a_dead_writer_thread_is_replaced_and_its_rows_still_written(writer):
    audit_writer.submit([_row("before")])
    audit_writer.flush()
    thread = audit_writer._thread
    assert thread is not None and thread.is_alive()
    # Stop the thread without clearing it, as an uncaught error would have.
    audit_writer._stop.set()
    audit_writer._now.set()
    audit_writer._wake.set()
    thread.join(5)
    assert not thread.is_alive()
    audit_writer._pending.append(_row("left behind"))
    audit_writer.submit([_row("after")])
    audit_writer.flush()
    assert audit_writer._thread is not thread and audit_writer._thread.is_alive()
    assert sorted(AuditLog.objects.values_list("action", flat=True)) == ["after", "before", "left behind"]


def test_a_failing_connection_check_does_not_kill_the_writer(writer, monkeypatch):
    calls = []

    def broken() -> None:
        calls.append(1)
        raise RuntimeError("connection check failed")

    monkeypatch.setattr(audit_writer, "close_old_connections", broken)
    audit_writer.submit([_row("one")])
    audit_writer.flush()
    audit_writer.submit([_row("two")])
    audit_writer.flush()
    assert calls and audit_writer._thread is not None and audit_writer._thread.is_alive()
    assert sorted(AuditLog.objects.values_list("action", flat=True)) == ["one", "two"]


def test_a_row_has_exactly_the_tables_columns():
    from audit.rows import COLUMNS, Row

    assert set(Row.__annotations__) == set(COLUMNS)
    with pytest.raises(AttributeError):
        Row(no_such_column="x")


def test_a_row_sent_later_is_written_as_the_row_written_now(writer):
    # The door's batch holds plain rows, not model instances: what reaches the table must be the same.
    from audit import record
    from emdash.actor import Actor
    from emdash.call import Call
    from tests.factories import make_user

    user = make_user("editor")
    call = Call(Actor.for_user(user), "mcp", "c" * 24, "Claude\x00Code", client_version="1.2")
    record.record(call, "content_get", "NOT_FOUND", "posts/x")
    batch: list = []
    record.record(call, "content_get", "NOT_FOUND", "posts/x", later=batch.append)
    assert AuditLog.objects.filter(trace_id="c" * 24).count() == 1  # the later one is not written yet
    audit_writer.submit(batch)
    audit_writer.flush()
    skip = {"id", "created_at"}
    now, later = (
        {k: v for k, v in values.items() if k not in skip}
        for values in AuditLog.objects.filter(trace_id="c" * 24).order_by("id").values()
    )
    assert now == later and later["user_id"] == user.pk and later["client"] == "Claude\ufffdCode"
    first, second = AuditLog.objects.filter(trace_id="c" * 24).order_by("id")
    assert first.created_at <= second.created_at


def test_a_kept_row_is_saved_in_the_callers_transaction():
    from django.db import transaction

    from audit import record
    from emdash.actor import Actor
    from emdash.call import Call

    call = Call(Actor.anonymous(), "admin", "d" * 24, "")
    batch: list = []
    record.record(call, "content_update", "VALIDATION_ERROR", later=batch.append)
    with transaction.atomic():
        record.save(batch[0])
        assert AuditLog.objects.filter(trace_id="d" * 24, outcome="VALIDATION_ERROR").exists()
        transaction.set_rollback(True)
    assert not AuditLog.objects.filter(trace_id="d" * 24).exists()


def test_plain_values_reach_the_table_as_the_model_writes_them():
    # Columns whose value is of their plain type skip the field's conversion: the row must read back the same
    # as one the model saved, and a value of another type (a Decimal duration, a str user id) still converts.
    from decimal import Decimal

    from django.utils import timezone

    from audit.rows import COLUMNS, Row

    user = get_user_model().objects.create_user("writer-b")
    when = timezone.now()
    values = {name: "" for name in COLUMNS} | {"action": "a", "created_at": when, "user_id": user.pk}
    model = AuditLog(**values | {"duration_ms": 1.25, "trace_id": "model"})
    model.save(force_insert=True)
    audit_writer.insert([Row(**values | {"duration_ms": 1.25, "trace_id": "plain"})])
    audit_writer.insert(
        [Row(**values | {"duration_ms": Decimal("1.25"), "user_id": str(user.pk), "trace_id": "other"})]
    )
    saved = {
        row["trace_id"]: {k: v for k, v in row.items() if k not in ("id", "trace_id")}
        for row in AuditLog.objects.filter(action="a").values()
    }
    assert saved["plain"] == saved["model"] == saved["other"]
    assert saved["plain"]["created_at"] == when and saved["plain"]["duration_ms"] == 1.25
