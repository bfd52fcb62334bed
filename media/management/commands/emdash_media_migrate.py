"""``manage.py emdash_media_migrate --to s3|filesystem``: copy every original and rendition to the other
storage, verified; idempotent and resumable (media/migrate_storage.py)."""

from __future__ import annotations

import sys
import time
from typing import Any

from django.core.management.base import CommandError, CommandParser

from emdash.commands import EmDashCommand
from emdash.errors import EmDashError
from media import migrate_storage


class Command(EmDashCommand):
    help = "Copy media (originals and renditions) to S3 or to MEDIA_ROOT, verifying each file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--to", required=True, choices=migrate_storage.SIDES, help="the storage to copy to")

    def handle(self, *args: Any, **options: Any) -> None:
        verbosity = int(options["verbosity"])
        tty = sys.stderr.isatty()
        started = time.monotonic()

        def progress(done: int, total: int, key: str, outcome: str) -> None:
            if tty and verbosity:  # one line, redrawn in place
                sys.stderr.write(f"\r\x1b[K[{done}/{total}] {outcome} {key}"[:200])
                sys.stderr.flush()
            elif verbosity >= 2 or outcome.startswith("failed") or (verbosity and done % 100 == 0):
                self.stdout.write(f"[{done}/{total}] {outcome} {key}")
                self.stdout.flush()

        try:
            report = migrate_storage.migrate(options["to"], progress)
        except EmDashError as exc:
            raise CommandError(exc.message) from None
        if tty and verbosity:
            sys.stderr.write("\n")
        seconds = time.monotonic() - started
        self.stdout.write(
            f"{report.total} file(s): {report.copied} copied, {report.skipped} already there, "
            f"{len(report.failed)} failed ({seconds:.1f} s)"
        )
        if report.failed:
            raise CommandError(f"{len(report.failed)} file(s) failed; run the command again to retry them")
