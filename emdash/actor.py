"""Who is asking: a user (or nobody, or the system) plus, for token calls, the granted scopes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from emdash import scopes as scope_table
from emdash.roles import Role

if TYPE_CHECKING:
    from accounts.models import User


@dataclass(frozen=True)
class Actor:
    """Carried into every service call.

    ``scopes`` is ``None`` when the caller is not limited by a token (session, system); otherwise the
    effective scope set, with implied scopes already expanded.
    """

    user: User | None = None
    scopes: frozenset[scope_table.Scope] | None = None
    token_id: Any = None
    client_id: str | None = None
    is_system: bool = False

    @classmethod
    def for_user(cls, user: User, granted_scopes: Any = None, **extra: Any) -> Actor:
        scopes = None if granted_scopes is None else scope_table.expand(granted_scopes)
        return cls(user=user, scopes=scopes, **extra)

    @classmethod
    def system(cls) -> Actor:
        """The worker and management commands: every right, no owner."""
        return cls(is_system=True)

    @classmethod
    def anonymous(cls) -> Actor:
        return cls()

    @property
    def is_anonymous(self) -> bool:
        return self.user is None and not self.is_system

    @property
    def user_id(self) -> int | None:
        return self.user.pk if self.user is not None else None

    @property
    def role(self) -> int:
        if self.is_system:
            return Role.ADMIN
        if self.user is None or not self.user.is_active:
            return 0
        return int(self.user.role)
