"""Django's SQLite backend with writers queued on an OS file lock instead of SQLite's busy handler.

Every write transaction starts with ``BEGIN IMMEDIATE`` (config/settings.py). When another connection holds the
write lock, SQLite's busy handler sleeps 1, 2, 5, 10, 15, 20, 25 ... 100 ms between looks, so under a burst of
writes from several server processes the lock is often free while every waiter sleeps: 8 clients on 4 gunicorn
workers wrote fewer posts per second than one single-threaded worker (docs/benchmarks.md). Here a writer first
takes an exclusive ``flock`` on ``<database>-writer.lock`` (one descriptor per connection, so threads of one
process queue too); the kernel hands it to the next waiter the moment it is released, after the COMMIT or ROLLBACK.
The busy timeout still bounds the wait; SQLite's own lock stays the authority (a process that does not use this
backend, e.g. the sqlite3 shell, is still serialised correctly, only less fairly).
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import time
from typing import Any

from django.db.backends.sqlite3 import base
from django.db.utils import OperationalError

POLL = 0.0005  # seconds between non-blocking tries while waiting with a deadline


class DatabaseWrapper(base.DatabaseWrapper):
    _writer_fd: int | None = None
    _writer_held = False

    def _writer_lock_path(self) -> str | None:
        name = str(self.settings_dict["NAME"])
        if not name or name == ":memory:" or name.startswith("file:") or "mode=memory" in name:
            return None
        return f"{name}-writer.lock"

    def _acquire_writer(self) -> None:
        if self._writer_held:
            return
        if self._writer_fd is None:
            path = self._writer_lock_path()
            if path is None:
                return
            self._writer_fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        deadline = time.monotonic() + float(self.settings_dict.get("OPTIONS", {}).get("timeout", 5))
        while True:
            try:
                fcntl.flock(self._writer_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise OperationalError("database is locked (writer queue)") from None
                time.sleep(POLL)
        self._writer_held = True

    def _release_writer(self) -> None:
        if self._writer_held and self._writer_fd is not None:
            fcntl.flock(self._writer_fd, fcntl.LOCK_UN)
        self._writer_held = False

    def _start_transaction_under_autocommit(self) -> None:
        self._acquire_writer()
        try:
            super()._start_transaction_under_autocommit()  # type: ignore[misc]
        except BaseException:
            self._release_writer()
            raise

    def _commit(self) -> None:
        try:
            super()._commit()  # type: ignore[misc]
        finally:
            self._release_writer()

    def _rollback(self) -> None:
        try:
            super()._rollback()  # type: ignore[misc]
        finally:
            self._release_writer()

    def _close(self) -> None:
        try:
            super()._close()  # type: ignore[misc]
        finally:
            self._release_writer()
            if self._writer_fd is not None:
                os.close(self._writer_fd)
                self._writer_fd = None

    def change_token(self) -> tuple[Any, int, int] | None:
        """What names the database's state as this connection sees it, without reading a table: SQLite's
        ``data_version`` moves when another connection (another thread or process) commits, ``total_changes``
        counts this connection's own row changes. Equal tokens mean nothing was written in between, so a value
        derived from the database then is still current (emdash/edge/kept.py). None before the connection opens
        and inside a transaction, whose writes may yet roll back."""
        raw = self.connection
        if raw is None or raw.in_transaction:
            return None
        try:
            (version,) = raw.execute("PRAGMA data_version").fetchone()
        except sqlite3.Error:
            return None
        return (raw, version, raw.total_changes)

    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        self._release_writer()
        return super().get_new_connection(conn_params)
