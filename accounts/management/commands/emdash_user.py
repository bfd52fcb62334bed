"""Manage users from the shell: create one, list them, change a role."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.management.base import CommandError
from django.core.validators import validate_email

from accounts.models import User
from accounts.users import user_update
from emdash.actor import Actor
from emdash.commands import EmDashCommand
from emdash.errors import EmDashError
from emdash.roles import Role

ROLE_NAMES = [r.label for r in Role]


class Command(EmDashCommand):
    help = "Create, list and change EmDash users."

    def add_arguments(self, parser: Any) -> None:
        sub = parser.add_subparsers(dest="action", required=True, metavar="{create,list,set-role}")
        create = sub.add_parser("create", help="create a user (prints a generated password if none is given)")
        create.add_argument("--email", required=True)
        create.add_argument("--role", required=True, choices=ROLE_NAMES)
        create.add_argument("--password", help="at least 8 characters; generated when omitted")
        create.add_argument("--name", default="")
        sub.add_parser("list", help="list users with their roles")
        set_role = sub.add_parser("set-role", help="change a user's role")
        set_role.add_argument("--email", required=True)
        set_role.add_argument("--role", required=True, choices=ROLE_NAMES)

    def handle(self, *args: Any, action: str, **options: Any) -> None:
        getattr(self, "do_" + action.replace("-", "_"))(**options)

    def do_create(self, *, email: str, role: str, password: str | None, name: str, **_: Any) -> None:
        email = email.strip().lower()
        try:
            validate_email(email)
        except DjangoValidationError:
            raise CommandError(f"Not a valid email address: {email}") from None
        if User.objects.filter(email=email).exists():
            raise CommandError(f"A user with email {email} already exists")
        generated = password is None
        password = secrets.token_urlsafe(12) if password is None else password  # "" is rejected below
        try:
            validate_password(password)
        except DjangoValidationError as exc:
            raise CommandError("Password rejected: " + " ".join(exc.messages)) from None
        user = User.objects.create_user(email=email, password=password, role=Role.from_name(role), name=name)
        self.stdout.write(f"Created {user.email} ({user.role_label})")
        if generated:
            self.stdout.write(f"Password: {password}")

    def do_list(self, **_: Any) -> None:
        for user in User.objects.order_by("email"):
            state = "" if user.is_active else " (inactive)"
            self.stdout.write(f"{user.email}\t{user.role_label}{state}")

    def do_set_role(self, *, email: str, role: str, **_: Any) -> None:
        # Through the service, like the admin's users screen: the same checks, lock and transaction.
        user = User.objects.filter(email=email.strip().lower()).first()
        if user is None:
            raise CommandError(f"No user with email {email}")
        try:
            user_update(actor=Actor.system(), user_id=user.pk, role=int(Role.from_name(role)))
        except EmDashError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(f"{email} is now {role}")
