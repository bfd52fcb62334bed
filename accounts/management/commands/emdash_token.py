"""Create, list and revoke personal access tokens from the shell."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError

from accounts.models import PersonalAccessToken, User
from accounts.tokens import token_create, token_revoke
from emdash import scopes as scope_table
from emdash.commands import EmDashCommand
from emdash.errors import EmDashError
from emdash.roles import role_label


class Command(EmDashCommand):
    help = "Create, list and revoke personal access tokens (ec_pat_…)."

    def add_arguments(self, parser: Any) -> None:
        sub = parser.add_subparsers(dest="action", required=True, metavar="{create,list,revoke}")
        create = sub.add_parser("create", help="issue a token; prints the raw token once, alone on stdout")
        create.add_argument("--email", required=True)
        create.add_argument(
            "--scopes",
            required=True,
            help="comma-separated: " + ",".join(scope_table.ALL) + " (content:draft: drafts only, never publishes)",
        )
        create.add_argument("--name", default="CLI token")
        create.add_argument("--expires-days", type=int, default=None)
        lister = sub.add_parser("list", help="list a user's tokens")
        lister.add_argument("--email", required=True)
        revoke = sub.add_parser("revoke", help="revoke a token by id")
        revoke.add_argument("--email", required=True)
        revoke.add_argument("--id", type=int, required=True)

    def handle(self, *args: Any, action: str, email: str, **options: Any) -> None:
        user = User.objects.filter(email=email.strip().lower()).first()
        if user is None:
            raise CommandError(f"No user with email {email}")
        try:
            getattr(self, f"do_{action}")(user, **options)
        except EmDashError as exc:
            raise CommandError(exc.message) from None

    def do_create(self, user: User, *, scopes: str, name: str, expires_days: int | None, **_: Any) -> None:
        issued = token_create(user=user, name=name, scopes=scopes, expires_days=expires_days, clamp=True)
        self.stdout.write(issued.raw)
        asked = {s.value for s in scope_table.parse(scopes)}  # as token_create read them (commas or spaces)
        dropped = sorted(asked - set(issued.token.scopes))
        if dropped:
            self.stderr.write(f"Not granted (a {role_label(user.role)} cannot hold them): {', '.join(dropped)}")
        self.stderr.write(
            f"Token {issued.token.pk} for {user.email}: {', '.join(issued.token.scopes)}. "
            "Store it now; it cannot be shown again."
        )

    def do_list(self, user: User, **_: Any) -> None:
        for t in PersonalAccessToken.objects.filter(user=user):
            state = "revoked" if t.revoked_at else ("expired" if not t.is_usable else "active")
            self.stdout.write(f"{t.pk}\t{t.prefix}…\t{t.name}\t{','.join(t.scopes)}\t{state}")

    def do_revoke(self, user: User, *, id: int, **_: Any) -> None:
        token_revoke(user=user, token_id=id)
        self.stdout.write(f"Revoked token {id}")
