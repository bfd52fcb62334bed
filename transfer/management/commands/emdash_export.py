"""Export the whole site (schema, content, taxonomies, menus, settings, redirects, media files, users without
passwords, webhooks without secrets) into a .tar.gz archive that emdash_import restores.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from django.core.management.base import CommandError, CommandParser

from emdash.commands import EmDashCommand
from transfer.export import site_export
from transfer.progress import Progress


class Command(EmDashCommand):
    help = __doc__  # the module docstring is what --help says

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("out", metavar="OUT.tar.gz", help="the archive to write ('-' for standard output)")
        parser.add_argument("--history", action="store_true", help="include every revision, not only live and draft")

    def handle(self, *args: Any, **options: Any) -> None:
        out = options["out"]
        partial = f"{out}.partial"
        if out != "-" and os.path.isdir(out):
            raise CommandError(f"cannot write {out}: it is a directory; give the archive's file name")
        try:
            if out == "-":
                manifest = site_export(sys.stdout.buffer, history=options["history"], progress=Progress())
            else:
                # Written aside and renamed at the end: a failed export never leaves a plausible-looking archive.
                try:
                    handle = open(partial, "wb")  # noqa: SIM115 (closed by the with below)
                except OSError as exc:  # before the export: not "a media file is missing"
                    raise CommandError(f"cannot write {out}: {exc.strerror or exc}") from None
                with handle:
                    manifest = site_export(handle, history=options["history"], progress=Progress())
                os.replace(partial, out)
        except FileNotFoundError as exc:
            raise CommandError(f"export failed: a media file is missing from the storage ({exc.filename})") from None
        finally:
            if out != "-" and os.path.exists(partial):
                os.remove(partial)
        if out != "-":
            counts = ", ".join(f"{n} {kind}" for kind, n in manifest["counts"].items() if n)
            self.stdout.write(f"exported {counts or 'an empty site'} to {out}")
