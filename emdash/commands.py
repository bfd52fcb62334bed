"""The base of EmDash's management commands: a database that is not migrated yet stops them with a clear message.

Without it, ``emdash_user create`` on a new site (before ``migrate``) ended in a traceback from the database
driver ("no such table: emdash_user"). Django's own ``requires_migrations_checks`` only prints a notice and then
runs the command anyway; these commands all read or write the site's tables, so they stop instead.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor


def unapplied_migrations(alias: str = DEFAULT_DB_ALIAS) -> int:
    """How many migrations the database still needs."""
    executor = MigrationExecutor(connections[alias])
    return len(executor.migration_plan(executor.loader.graph.leaf_nodes()))


class EmDashCommand(BaseCommand):
    """A command that needs the site's tables: refused with a CommandError (exit status 1, no traceback) until
    ``manage.py migrate`` has run."""

    def execute(self, *args: Any, **options: Any) -> Any:
        missing = unapplied_migrations()
        if missing:
            raise CommandError(
                f"The database is not set up yet ({missing} migration{'s' if missing != 1 else ''} to apply). "
                "Run `python manage.py migrate` first."
            )
        return super().execute(*args, **options)
