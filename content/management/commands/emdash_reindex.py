"""Rebuild the search index from the published content, for every collection or one (``--collection``)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import CommandError, CommandParser

from content.schema import specs as schema
from content.search import indexing
from content.search.backends import get_backend
from emdash.commands import EmDashCommand


class Command(EmDashCommand):
    help = "Rebuild the full-text search index (all collections, or one with --collection SLUG)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--collection", metavar="SLUG", help="only rebuild this collection")

    def handle(self, *args: Any, **options: Any) -> None:
        collections = schema.current().collections
        slug = options.get("collection")
        if slug is not None and slug not in collections:
            raise CommandError(f"Collection '{slug}' not found")
        started = time.monotonic()
        total = 0
        for spec in [collections[slug]] if slug else list(collections.values()):
            if not indexing.indexable(spec):
                indexing.rebuild_collection(spec)  # drops whatever it had
                self.stdout.write(f"{spec.slug}: skipped (search not enabled or no searchable field)")
                continue
            written = indexing.rebuild_collection(spec, progress=self._progress(spec.slug))
            self.stdout.write(f"{spec.slug}: {written} document(s) indexed")
            total += written
        if slug is None:
            orphans = indexing.drop_orphans()
            if orphans:
                self.stdout.write(f"removed {orphans} document(s) of collections that are gone")
            get_backend().optimize()
        elapsed = time.monotonic() - started
        self.stdout.write(self.style.SUCCESS(f"Search index rebuilt: {total} document(s) in {elapsed:.1f}s"))

    def _progress(self, slug: str) -> indexing.Progress:
        def report(done: int, total: int) -> None:
            if done and (done == total or done % (indexing.CHUNK * 10) == 0):
                self.stdout.write(f"  {slug}: {done}/{total} published item(s) read")

        return report
