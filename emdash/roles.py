"""The role table: the one place that names roles and their ordering."""

from __future__ import annotations

from enum import IntEnum


class Role(IntEnum):
    """User roles. Higher numbers include every right of the lower ones."""

    SUBSCRIBER = 10
    CONTRIBUTOR = 20
    AUTHOR = 30
    EDITOR = 40
    ADMIN = 50

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def from_name(cls, name: str) -> Role:
        try:
            return cls[name.strip().upper()]
        except KeyError:
            valid = ", ".join(r.label for r in cls)
            raise ValueError(f"Unknown role {name!r}; expected one of: {valid}") from None

    @classmethod
    def choices(cls) -> list[tuple[int, str]]:
        return [(r.value, r.label) for r in cls]


def role_label(value: int) -> str:
    """Name of the highest role at or below ``value`` (``anonymous`` below subscriber)."""
    eligible = [r for r in Role if r <= value]
    return eligible[-1].label if eligible else "anonymous"
