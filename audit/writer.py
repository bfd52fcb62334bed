"""Audit rows written off the request path: one background thread per process, in batches.

The MCP door hands over the rows of reads and failed calls (a write's row is in the write's own transaction,
see ``emdash.operations.pipeline``). The thread writes what has gathered every AUDIT_FLUSH_INTERVAL seconds
(sooner once AUDIT_BATCH rows wait), in one transaction per batch, so a read call takes no write lock.

Handing rows over is an append to a deque: the thread is woken only by the first row after a batch, never
once per request (a wake-up per call handed the GIL to the thread on every request).
At most AUDIT_QUEUE_MAX rows wait; beyond that the request writes its own rows (slower, never lost).

A clean shutdown (gunicorn's SIGTERM, daphne or granian exiting, ``sys.exit``) flushes the queue through
``atexit``. Rows still queued when the process is killed (SIGKILL, power loss) are lost: at most one flush
interval's worth, the price of a read path without a write transaction (docs/benchmarks.md).
"""

from __future__ import annotations

import atexit
import collections
import logging
import os
import threading
from collections.abc import Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, close_old_connections, connection, connections, models, transaction

from audit.models import AuditLog
from audit.rows import Row
from emdash import prepared
from emdash.conf import emdash_settings

log = logging.getLogger("emdash.audit")

_lock = threading.Lock()
_pending: collections.deque[AuditLog | Row] = collections.deque()
_thread: threading.Thread | None = None
_pid = 0
_wake = threading.Event()  # set: rows are waiting (or a flush or stop is asked for)
_stop = threading.Event()
_now = threading.Event()  # cuts the gathering interval short (flush, shutdown)
_done = threading.Condition()  # notified after every batch (flush() waits on it)
_handed = 0  # rows handed over and rows written by the thread, for flush()
_written = 0


def write(rows: Sequence[AuditLog | Row]) -> None:
    """Insert ``rows`` now, in one transaction; a failure is logged, never raised to the caller.

    A batch that fails is written row by row, so one bad row does not cost the others; a row whose user was
    deleted after the request (its foreign key now fails) is kept without the user.
    """
    if not rows:
        return
    try:
        with transaction.atomic():
            insert(rows)
        return
    except Exception:
        if len(rows) == 1:
            _write_orphan(rows[0])
            return
    for row in rows:
        write([row])


def insert(rows: Sequence[AuditLog | Row]) -> None:
    """Insert ``rows`` in the current transaction: one prepared INSERT run for every row (``executemany``).
    ``bulk_create`` compiles a statement with a placeholder per value on every batch: about 40 us a row, more
    than SQLite's own insert."""
    sql, fields = prepared.insert_statement(AuditLog, DEFAULT_DB_ALIAS)  # built once; the id is the database's
    db = connections[DEFAULT_DB_ALIAS]  # once: django.db.connection looks the connection up on every read
    # A value of its column's plain type goes as it is: it is what get_db_prep_save (1-4 us a column) returns
    # for it (a str for text, an int for the user, a float for the duration); the time and any other value go
    # through their field.
    plain = [_plain_type(f) for f in fields]
    params: list[list[Any]] = [
        [
            value if type(value) is kind else f.get_db_prep_save(value, db)
            for f, kind, value in zip(fields, plain, (getattr(row, f.attname) for f in fields), strict=True)
        ]
        for row in rows
    ]
    with db.cursor() as cursor:
        cursor.executemany(sql, params)


def _plain_type(field: models.Field[Any, Any]) -> type | None:
    """The type whose values this column stores unchanged on SQLite and PostgreSQL, if any."""
    if isinstance(field, models.CharField):
        return str
    if isinstance(field, models.FloatField):
        return float
    if isinstance(field, models.ForeignKey | models.IntegerField):  # the user's id (an integer key)
        return int
    return None


def _write_orphan(row: AuditLog | Row) -> None:
    """Last try for one row: without its user (deleted since), else logged and dropped."""
    if row.user_id is not None:
        row.user_id = None
        try:
            with transaction.atomic():
                insert([row])
            return
        except Exception:
            pass
    log.error("could not write audit row %s (trace %s)", row.action, row.trace_id, exc_info=True)


def submit(rows: Sequence[AuditLog | Row]) -> None:
    """Hand ``rows`` to the writer thread (or write them now when AUDIT_ASYNC is off or too many wait)."""
    global _handed
    if not rows:
        return
    if not emdash_settings.AUDIT_ASYNC or len(_pending) >= int(emdash_settings.AUDIT_QUEUE_MAX):
        write(rows)
        return
    _ensure_thread()
    with _lock:
        _pending.extend(rows)
        _handed += len(rows)
    if not _wake.is_set():  # the thread clears it before it drains: one set() per batch, not per call
        _wake.set()


def _ensure_thread() -> None:
    """This process's writer, started on first use (and again after a fork)."""
    global _thread, _pid, _handed, _written
    if _thread is not None and _pid == os.getpid() and _thread.is_alive():
        return
    with _lock:
        if _thread is None or _pid != os.getpid() or not _thread.is_alive():
            if _pid != os.getpid():
                _pending.clear()  # a forked child does not write its parent's rows twice
            _handed, _written = len(_pending), 0  # rows left by a writer that died are still written
            _stop.clear()
            _now.clear()
            _wake.clear()
            _pid = os.getpid()
            _thread = threading.Thread(target=_run, name="emdash-audit-writer", daemon=True)
            _thread.start()


def _take(limit: int) -> list[AuditLog | Row]:
    with _lock:
        return [_pending.popleft() for _ in range(min(limit, len(_pending)))]


def _run() -> None:
    global _written
    try:
        while True:
            _wake.wait()
            _now.wait(float(emdash_settings.AUDIT_FLUSH_INTERVAL))  # let a batch gather
            _now.clear()
            _wake.clear()
            while batch := _take(int(emdash_settings.AUDIT_BATCH)):
                try:
                    close_old_connections()
                except Exception:  # the next write reconnects; the thread must outlive a bad connection
                    log.exception("audit writer could not check its connection")
                write(batch)
                with _done:
                    _written += len(batch)
                    _done.notify_all()
            if _stop.is_set():
                return
    finally:
        connection.close()  # this thread's own connection


def flush(timeout: float = 30.0) -> None:
    """Wait until every row handed over so far is written (tests, shutdown)."""
    if _thread is None or _pid != os.getpid() or not _thread.is_alive():
        return
    target = _handed
    _now.set()
    _wake.set()
    with _done:
        _done.wait_for(lambda: _written >= target, timeout)


def shutdown(timeout: float = 10.0) -> None:
    """Flush and stop the writer; rows the thread could not take in time are written by the caller."""
    global _thread
    thread = _thread
    if thread is None or _pid != os.getpid():
        return
    _stop.set()
    _now.set()
    _wake.set()
    thread.join(timeout)
    write(_take(len(_pending)))
    _thread = None


atexit.register(shutdown)
