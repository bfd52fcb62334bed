"""``python manage.py emdash_user create|list|set-role`` (names and options are part of the contract)."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from accounts.models import User
from emdash.roles import Role

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_hashing(settings):
    """Hashing is not under test here; the default PBKDF2 costs about 0.3 s per user."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def run(*args: str) -> str:
    out = StringIO()
    call_command("emdash_user", *args, stdout=out)
    return out.getvalue()


@pytest.mark.parametrize("role", list(Role), ids=lambda r: r.label)
def test_create_with_password(role):
    out = run("create", "--email", f"{role.label}@example.com", "--role", role.label, "--password", "s3cure-enough-pw")
    user = User.objects.get(email=f"{role.label}@example.com")
    assert user.role == role
    assert user.is_active
    assert user.check_password("s3cure-enough-pw")
    assert out.strip() == f"Created {role.label}@example.com ({role.label})"
    assert "s3cure-enough-pw" not in out  # a password the operator chose is never echoed


def test_create_generates_and_prints_a_password():
    out = run("create", "--email", "gen@example.com", "--role", "author", "--name", "Gen Erated")
    match = re.search(r"^Password: (\S+)$", out, re.MULTILINE)
    assert match, out
    password = match.group(1)
    assert len(password) >= 12
    user = User.objects.get(email="gen@example.com")
    assert user.check_password(password)
    assert user.role == Role.AUTHOR
    assert user.name == "Gen Erated"
    # and a second user gets a different one
    other = re.search(
        r"^Password: (\S+)$", run("create", "--email", "gen2@example.com", "--role", "author"), re.MULTILINE
    )
    assert other and other.group(1) != password


def test_create_normalises_the_email():
    run("create", "--email", "  Mixed.Case@Example.COM ", "--role", "editor", "--password", "s3cure-enough-pw")
    user = User.objects.get()
    assert user.email == "mixed.case@example.com"
    assert user.check_password("s3cure-enough-pw")


@pytest.mark.parametrize("email", ["not-an-email", "a@b", "@example.com", "user@", "two@@example.com", " "])
def test_create_rejects_invalid_email(email):
    with pytest.raises(CommandError, match="valid email"):
        run("create", "--email", email, "--role", "editor", "--password", "s3cure-enough-pw")
    assert not User.objects.exists()


@pytest.mark.parametrize("again", ["dup@example.com", "DUP@Example.com", " dup@example.com "])
def test_create_rejects_duplicate_email(again):
    run("create", "--email", "dup@example.com", "--role", "author", "--password", "s3cure-enough-pw")
    with pytest.raises(CommandError, match="already exists"):
        run("create", "--email", again, "--role", "admin", "--password", "an0ther-good-pw")
    user = User.objects.get()
    assert user.role == Role.AUTHOR  # the first user is untouched
    assert user.check_password("s3cure-enough-pw")


@pytest.mark.parametrize("password", ["short", "1234567", "password", "12345678", ""])
def test_create_rejects_weak_password(password):
    with pytest.raises(CommandError, match="Password rejected"):
        run("create", "--email", "weak@example.com", "--role", "editor", "--password", password)
    assert not User.objects.exists()


@pytest.mark.parametrize("role", ["owner", "superuser", "Admin ", "50", ""])
def test_create_rejects_unknown_role(role):
    with pytest.raises(CommandError, match="role"):
        run("create", "--email", "r@example.com", "--role", role, "--password", "s3cure-enough-pw")
    assert not User.objects.exists()


def test_create_requires_email_and_role():
    with pytest.raises(CommandError, match="--email"):
        run("create", "--role", "admin")
    with pytest.raises(CommandError, match="--role"):
        run("create", "--email", "x@example.com")
    assert not User.objects.exists()


def test_an_action_is_required():
    with pytest.raises(CommandError):
        run()
    with pytest.raises(CommandError):
        run("delete", "--email", "x@example.com")


def _fast_user(email: str, role: Role, **extra) -> User:
    return User.objects.create_user(email=email, role=role, **extra)  # unusable password: no hashing


def test_list_shows_every_user_with_role_sorted_by_email():
    _fast_user("zed@example.com", Role.SUBSCRIBER)
    _fast_user("amy@example.com", Role.ADMIN)
    _fast_user("gone@example.com", Role.EDITOR, is_active=False)
    lines = run("list").splitlines()
    assert lines == [
        "amy@example.com\tadmin",
        "gone@example.com\teditor (inactive)",
        "zed@example.com\tsubscriber",
    ]


def test_list_with_no_users_prints_nothing():
    assert run("list") == ""


def test_set_role_changes_the_role():
    _fast_user("pat@example.com", Role.SUBSCRIBER)
    bystander = _fast_user("sam@example.com", Role.AUTHOR)
    out = run("set-role", "--email", "PAT@example.com", "--role", "editor")
    assert "editor" in out
    assert User.objects.get(email="pat@example.com").role == Role.EDITOR
    assert User.objects.get(pk=bystander.pk).role == Role.AUTHOR
    run("set-role", "--email", "pat@example.com", "--role", "subscriber")
    assert User.objects.get(email="pat@example.com").role == Role.SUBSCRIBER


def test_set_role_unknown_user():
    _fast_user("pat@example.com", Role.SUBSCRIBER)
    with pytest.raises(CommandError, match="No user"):
        run("set-role", "--email", "nobody@example.com", "--role", "admin")
    assert User.objects.get().role == Role.SUBSCRIBER


@pytest.mark.parametrize("role", ["root", "owner", ""])
def test_set_role_rejects_unknown_role(role):
    _fast_user("pat@example.com", Role.AUTHOR)
    with pytest.raises(CommandError, match="role"):
        run("set-role", "--email", "pat@example.com", "--role", role)
    assert User.objects.get().role == Role.AUTHOR
