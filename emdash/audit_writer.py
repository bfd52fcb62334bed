"""Audit rows written off the request path: one background thread per process, in batches.

The MCP door hands over the rows of reads and failed calls (a write's row is in the write's own transaction,
see ``emdash.operations.pipeline``). The thread writes them every AUDIT_FLUSH_INTERVAL seconds or
AUDIT_BATCH rows, in one transaction per batch, so a read call takes no write lock. The queue holds at most
AUDIT_QUEUE_MAX hand-overs; when it is full the request writes its own rows (slower, never lost).

A clean shutdown (gunicorn's SIGTERM, daphne or granian exiting, ``sys.exit``) flushes the queue through
``atexit``. Rows still queued when the process is killed (SIGKILL, power loss) are lost: at most one flush
interval's worth, the price of a read path without a write transaction (docs/benchmarks.md).
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import queue
import threading
import time
from collections.abc import Sequence

from django.db import close_old_connections, connection, transaction

from emdash.conf import emdash_settings
from emdash.models import AuditLog

log = logging.getLogger("emdash.audit")

_lock = threading.Lock()
_queue: queue.Queue[Sequence[AuditLog]] | None = None
_thread: threading.Thread | None = None
_pid = 0
_stop = threading.Event()


def write(rows: Sequence[AuditLog]) -> None:
    """Insert ``rows`` now, in one transaction; a failure is logged, never raised to the caller."""
    if not rows:
        return
    try:
        with transaction.atomic():
            AuditLog.objects.bulk_create(rows)
    except Exception:
        log.exception("could not write %d audit row(s)", len(rows))


def submit(rows: Sequence[AuditLog]) -> None:
    """Hand ``rows`` to the writer thread (or write them now when AUDIT_ASYNC is off or the queue is full)."""
    if not rows:
        return
    if not emdash_settings.AUDIT_ASYNC:
        write(rows)
        return
    try:
        _running_queue().put_nowait(list(rows))
    except queue.Full:
        write(rows)


def _running_queue() -> queue.Queue[Sequence[AuditLog]]:
    """This process's queue, with its thread started on first use (and again after a fork)."""
    global _queue, _thread, _pid
    if _queue is not None and _pid == os.getpid():
        return _queue
    with _lock:
        if _queue is None or _pid != os.getpid():
            _stop.clear()
            _queue = queue.Queue(maxsize=int(emdash_settings.AUDIT_QUEUE_MAX))
            _pid = os.getpid()
            _thread = threading.Thread(target=_run, args=(_queue,), name="emdash-audit-writer", daemon=True)
            _thread.start()
        return _queue


def _gather(q: queue.Queue[Sequence[AuditLog]], first: Sequence[AuditLog]) -> tuple[list[AuditLog], int]:
    """The first hand-over plus what arrives within AUDIT_FLUSH_INTERVAL, up to AUDIT_BATCH rows."""
    batch, taken, size = list(first), 1, int(emdash_settings.AUDIT_BATCH)
    deadline = time.monotonic() + float(emdash_settings.AUDIT_FLUSH_INTERVAL)
    while len(batch) < size and not _stop.is_set():
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        try:
            batch.extend(q.get(timeout=remaining))
        except queue.Empty:
            break
        taken += 1
    return batch, taken


def _run(q: queue.Queue[Sequence[AuditLog]]) -> None:
    try:
        while not (_stop.is_set() and q.empty()):
            try:
                first = q.get(timeout=1.0)
            except queue.Empty:
                continue
            batch, taken = _gather(q, first)
            close_old_connections()
            write(batch)
            for _ in range(taken):
                q.task_done()
    finally:
        connection.close()  # this thread's own connection


def flush() -> None:
    """Wait until every row handed over so far is written (tests, shutdown)."""
    q = _queue
    if q is not None and _pid == os.getpid() and _thread is not None and _thread.is_alive():
        q.join()


def shutdown(timeout: float = 10.0) -> None:
    """Flush and stop the writer; rows the thread could not take in time are written by the caller."""
    global _queue, _thread
    q, thread = _queue, _thread
    if q is None or _pid != os.getpid():
        return
    _stop.set()
    with contextlib.suppress(queue.Full):
        q.put_nowait([])  # wakes the thread if it waits for a first row
    if thread is not None:
        thread.join(timeout)
    left: list[AuditLog] = []
    while True:
        try:
            left.extend(q.get_nowait())
        except queue.Empty:
            break
    write(left)
    _queue = _thread = None


atexit.register(shutdown)
