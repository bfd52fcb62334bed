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
