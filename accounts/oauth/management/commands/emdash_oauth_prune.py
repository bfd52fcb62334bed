"""Delete expired OAuth codes and tokens (run it daily, e.g. from cron)."""

from __future__ import annotations

from typing import Any

from accounts.oauth.maintenance import prune_expired
from emdash.commands import EmDashCommand


class Command(EmDashCommand):
    help = (
        "Delete expired OAuth authorization codes, device codes and tokens (rotated refresh tokens stay until expiry)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        for table, count in prune_expired().items():
            self.stdout.write(f"{table}: {count} deleted")
