"""Import a WordPress export (WXR): posts, pages, custom post types, categories and tags, attachments, featured images,
menus, SEO and redirects from the old permalinks. Running it again creates nothing new.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from emdash.actor import Actor
from emdash.commands import EmDashCommand
from transfer.progress import Progress
from transfer.wordpress.importer import import_wordpress
from transfer.wordpress.wxr import WxrError


class Command(EmDashCommand):
    help = __doc__  # the module docstring is what --help says

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("export", metavar="EXPORT.xml", help="the file WordPress's Tools → Export wrote")
        parser.add_argument(
            "--media-dir", type=Path, help="a local copy of wp-content/uploads to read attachments from"
        )
        parser.add_argument("--no-fetch", action="store_true", help="never download attachments from their URLs")
        parser.add_argument(
            "--create-users", action="store_true", help="create a user (no password) for each author without one"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path, media_dir = options["export"], options["media_dir"]
        if not Path(path).is_file():
            raise CommandError(f"no such file: {path}")
        if media_dir is not None and not media_dir.is_dir():
            raise CommandError(f"--media-dir {media_dir} is not a folder")
        try:
            report = import_wordpress(
                path,
                actor=Actor.system(),
                media_dir=media_dir,
                fetch=not options["no_fetch"],
                create_users=options["create_users"],
                progress=Progress(),
            )
        except WxrError as exc:
            raise CommandError(f"import refused, nothing was written: {exc}") from None
        self.stdout.write("\n".join(report.lines()))
