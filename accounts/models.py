"""Accounts: users log in with their email and carry one role from the role table."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser, BaseUserManager
from django.db import models
from django.utils import timezone

from emdash.roles import Role


class UserManager(BaseUserManager["User"]):
    use_in_migrations = True

    def create_user(self, email: str, password: str | None = None, **extra: Any) -> User:
        if not email:
            raise ValueError("An email address is required")
        user = self.model(email=self.normalize_email(email).lower(), **extra)
        user.set_password(password) if password else user.set_unusable_password()
        user.save(using=self._db)
        return user

    def create_superuser(self, email: str, password: str | None = None, **extra: Any) -> User:
        extra.setdefault("role", Role.ADMIN)
        return self.create_user(email, password, **extra)


class User(AbstractBaseUser):
    email = models.EmailField(unique=True)
    name = models.CharField(max_length=150, blank=True)
    role = models.PositiveSmallIntegerField(choices=Role.choices(), default=Role.SUBSCRIBER)
    is_active = models.BooleanField(default=True)
    date_joined = models.DateTimeField(default=timezone.now)

    objects = UserManager()

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS: list[str] = []  # type: ignore[misc]  # django-stubs declares it a ClassVar

    class Meta:
        ordering = ["email"]

    def __str__(self) -> str:
        return self.email

    @property
    def role_label(self) -> str:
        return Role(self.role).label

    # Django's admin-era checks read these; the role is the only source of rights.
    @property
    def is_staff(self) -> bool:
        return self.role >= Role.EDITOR

    @property
    def is_superuser(self) -> bool:
        return self.role >= Role.ADMIN

    def has_perm(self, perm: str, obj: object = None) -> bool:
        return self.is_active and self.is_superuser

    def has_module_perms(self, app_label: str) -> bool:
        return self.is_active and self.is_superuser


class PersonalAccessToken(models.Model):
    """A long-lived ``ec_pat_…`` bearer token. Only the SHA-256 of the full token is stored."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="tokens")
    name = models.CharField(max_length=100)
    token_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=16)  # shown in lists so people can tell tokens apart
    scopes = models.JSONField(default=list)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.name})"

    @property
    def is_usable(self) -> bool:
        now = timezone.now()
        return self.revoked_at is None and (self.expires_at is None or self.expires_at > now)
