"""User accounts and their roles, managed by admins (the admin UI's Users screen)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import validate_email
from django.db import transaction

from accounts.models import User
from emdash.actor import Actor
from emdash.errors import Conflict, NotFound, ValidationError
from emdash.permissions import Perm, require
from emdash.roles import Role


def user_list(*, actor: Actor) -> list[User]:
    require(actor, Perm.USERS_MANAGE)
    return list(User.objects.order_by("email"))


def _role(value: Any, problems: dict[str, str]) -> Role | None:
    try:
        return Role(int(value))
    except (TypeError, ValueError):
        problems["role"] = f"must be one of: {', '.join(r.label for r in Role)}"
        return None


def user_create(*, actor: Actor, email: Any, role: Any, password: Any, name: Any = "") -> User:
    require(actor, Perm.USERS_MANAGE)
    problems: dict[str, str] = {}
    email = email.strip().lower() if isinstance(email, str) else ""
    try:
        validate_email(email)
    except DjangoValidationError:
        problems["email"] = "must be an email address"
    checked_role = _role(role, problems)
    if not isinstance(name, str) or len(name) > 150:
        problems["name"] = "must be at most 150 characters"
    try:
        validate_password(password if isinstance(password, str) else "")
    except DjangoValidationError as exc:
        problems["password"] = " ".join(exc.messages)
    if problems:
        raise ValidationError.for_fields(problems)
    with transaction.atomic():
        if User.objects.filter(email=email).exists():
            raise Conflict(f"A user with the email {email} already exists")
        return User.objects.create_user(email=email, password=password, role=checked_role, name=name.strip())


def user_update(*, actor: Actor, user_id: Any, role: Any = None, is_active: Any = None) -> User:
    """Change a user's role or switch the account off. Admins cannot demote or lock out themselves."""
    require(actor, Perm.USERS_MANAGE)
    problems: dict[str, str] = {}
    new_role = _role(role, problems) if role is not None else None
    if is_active is not None and not isinstance(is_active, bool):
        problems["isActive"] = "must be true or false"
    if problems:
        raise ValidationError.for_fields(problems)
    with transaction.atomic():
        user = User.objects.select_for_update().filter(pk=user_id).first() if isinstance(user_id, int) else None
        if user is None:
            raise NotFound("No such user")
        if user.pk == actor.user_id and (is_active is False or (new_role is not None and new_role < Role.ADMIN)):
            raise ValidationError("You cannot demote or deactivate your own account; ask another admin")
        if new_role is not None:
            user.role = new_role
        if is_active is not None:
            user.is_active = is_active
        user.save(update_fields=["role", "is_active"])
    return user
