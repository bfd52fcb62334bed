"""The background worker: Django's task framework queue plus the periodic sweeps, in one process.

Each pass runs the sweeps that are due (scheduled publishing, expired and abandoned MCP tasks, OAuth
pruning, media orphans — registered by their apps, see emdash/background.py) and then drains the task
queue when the backend keeps it in this database. With another backend (RQ, Celery) that backend's own
worker runs the jobs and this command only sweeps. Several workers may run at once: every sweep and every
job claims its rows with a conditional UPDATE.
"""

from __future__ import annotations

import signal
import time
from typing import Any

from django.db import close_old_connections
from django.utils.crypto import get_random_string

from emdash.background import sweeps, uses_database_queue
from emdash.commands import EmDashCommand
from emdash.conf import emdash_settings


class Command(EmDashCommand):
    help = "Run queued background tasks and the periodic sweeps (scheduled publishing, cleanup). Safe to run several."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--once", action="store_true", help="run the sweeps and drain the queue once, then exit")
        parser.add_argument(
            "--interval",
            type=float,
            default=None,
            help=f"seconds between sweeps (default {emdash_settings.WORKER_INTERVAL})",
        )

    def handle(self, *args: Any, once: bool, interval: float | None, **options: Any) -> None:
        self.interval = interval if interval is not None else float(emdash_settings.WORKER_INTERVAL)
        self.stopping = False
        self.queue_worker: Any = None
        self.drains = uses_database_queue()
        if not once:
            signal.signal(signal.SIGTERM, self.stop)
            signal.signal(signal.SIGINT, self.stop)
            self.stdout.write(f"emdash worker: running every {self.interval:g}s (Ctrl-C to stop)")
        next_sweep = 0.0
        while True:
            close_old_connections()
            if once or time.monotonic() >= next_sweep:
                self.run_sweeps(once)
                next_sweep = time.monotonic() + self.interval
            if self.drains and not self.stopping:
                self.drain(limit=None if once else 50)
            if once or self.stopping:
                break
            self.pause(min(float(emdash_settings.TASKS_QUEUE_INTERVAL), max(0.0, next_sweep - time.monotonic())))
        if not once:
            self.stdout.write("emdash worker: stopped")

    def stop(self, signum: int, frame: Any) -> None:
        """Finish the job at hand, then exit (a second signal does not kill it mid-write either)."""
        self.stopping = True
        if self.queue_worker is not None:
            self.queue_worker.running = False

    def pause(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while not self.stopping and time.monotonic() < deadline:
            time.sleep(min(0.1, max(0.0, deadline - time.monotonic())))

    def run_sweeps(self, once: bool) -> None:
        now = time.monotonic()
        for sweep in sweeps():
            if not once and not sweep.due(now):
                continue
            count = sweep.run_safely()
            if sweep.report and (count or (once and sweep.always_report)):
                self.stdout.write("emdash worker: " + sweep.report.format(count))

    def drain(self, limit: int | None) -> None:
        """Run queued jobs until the queue is empty (or ``limit`` ran, so sweeps keep their pace)."""
        from django_tasks_db.management.commands.db_worker import Worker

        self.queue_worker = Worker(
            queue_names=["*"],
            interval=0,
            batch=True,
            backend_name="default",
            startup_delay=False,
            max_tasks=limit,
            worker_id=get_random_string(32),
            excluded_queue_names=[],
        )
        try:
            self.queue_worker.run()
        finally:
            self.queue_worker = None
