"""Run due background jobs: scheduled publishing now; task execution and cleanup hook in here later."""

from __future__ import annotations

import logging
import signal
import time
from typing import Any

from django.core.management.base import BaseCommand
from django.db import close_old_connections

from content.services import publish_due
from emdash.conf import emdash_settings
from emdash.tracing import log_exception, trace
from media.services import sweep_if_due as sweep_media_orphans

log = logging.getLogger("emdash.worker")


def run_pass() -> int:
    """One pass under its own trace id; an unexpected error is logged once and the worker keeps going."""
    with trace():
        close_old_connections()
        try:
            published = publish_due()
        except Exception:
            log_exception(log, "worker pass failed")
            return 0
        sweep_media_orphans()  # at most once per MEDIA_SWEEP_INTERVAL; never raises
        return published


class Command(BaseCommand):
    help = "Publish scheduled items that are due (and run other background jobs). Safe to run several at once."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--once", action="store_true", help="run one pass and exit (for cron and tests)")
        parser.add_argument(
            "--interval",
            type=float,
            default=None,
            help=f"seconds between passes (default {emdash_settings.WORKER_INTERVAL})",
        )

    def handle(self, *args: Any, once: bool, interval: float | None, **options: Any) -> None:
        interval = interval if interval is not None else float(emdash_settings.WORKER_INTERVAL)
        stopping = False

        def stop(signum: int, frame: Any) -> None:
            nonlocal stopping
            stopping = True

        if not once:
            signal.signal(signal.SIGTERM, stop)
            signal.signal(signal.SIGINT, stop)
            self.stdout.write(f"emdash worker: running every {interval:g}s (Ctrl-C to stop)")
        while True:
            published = run_pass()
            if published or once:
                self.stdout.write(f"emdash worker: published {published} scheduled item(s)")
            if once or stopping:
                break
            deadline = time.monotonic() + interval
            while not stopping and time.monotonic() < deadline:
                time.sleep(min(0.2, interval))
            if stopping:
                break
        if not once:
            self.stdout.write("emdash worker: stopped")
