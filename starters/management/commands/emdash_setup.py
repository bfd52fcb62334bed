"""Start a real site from a fresh install with one of the starters (SPEC 13). Running it again changes nothing."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser

from emdash.actor import Actor
from emdash.commands import EmDashCommand
from emdash.errors import EmDashError
from starters.definitions import STARTERS
from starters.services import starter_apply


def _choices() -> str:
    return "; ".join(f"{s.name}: {s.description}" for s in STARTERS.values())


class Command(EmDashCommand):
    help = f"Set up a fresh site from a starter, without demo content (idempotent). Starters: {_choices()}"

    def add_arguments(self, parser: CommandParser) -> None:
        # Not argparse's ``choices``: its refusal names the choices but not what each one creates.
        parser.add_argument("--starter", required=True, metavar="|".join(STARTERS), help=_choices())

    def handle(self, *args: Any, starter: str, **options: Any) -> None:
        if starter not in STARTERS:
            raise CommandError(f"Unknown starter {starter!r}. Choose one of: {', '.join(STARTERS)}. ({_choices()})")
        try:
            created = starter_apply(actor=Actor.system(), name=starter)
        except EmDashError as exc:
            raise CommandError(f"{exc.code}: {exc}") from None
        for what in created:
            self.stdout.write(f"created {what}")
        done = "Starter {!r} applied." if created else "Starter {!r} was already applied: nothing to change."
        self.stdout.write(self.style.SUCCESS(done.format(starter)))
