"""Restore an emdash_export archive into an empty site, keeping ids, slugs, dates, statuses and media bytes. The
archive is verified against its manifest first; a corrupt or truncated one is refused unchanged.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser

from emdash.commands import EmDashCommand
from transfer.archive import ArchiveError
from transfer.progress import Progress
from transfer.restore import SiteNotEmpty, site_import


class Command(EmDashCommand):
    help = __doc__  # the module docstring is what --help says

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("archive", metavar="IN.tar.gz", help="an archive written by emdash_export")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["archive"]
        progress = Progress()
        if progress.enabled:
            self.stderr.write("verifying the archive...")
        try:
            counts = site_import(path, progress=progress)
        except FileNotFoundError:
            raise CommandError(f"no such file: {path}") from None
        except (ArchiveError, SiteNotEmpty) as exc:
            raise CommandError(f"import refused, nothing was written: {exc}") from None
        written = ", ".join(f"{n} {kind}" for kind, n in counts.items() if n)
        self.stdout.write(f"imported {written or 'an empty site'} from {path}")
        self.stdout.write("users have no passwords (they reset theirs); webhooks have new secrets (rotate to see them)")
