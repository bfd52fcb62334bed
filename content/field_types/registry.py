"""The registry of field types by name: the only lookup (``FIELD_TYPES[name]``), in the order types are listed."""

from __future__ import annotations

from typing import TypeVar

from content.field_types.base import FieldType

FIELD_TYPES: dict[str, FieldType] = {}

T = TypeVar("T", bound=type[FieldType])


def register(cls: T) -> T:
    """Class decorator: add one instance of the type under its name (a name is registered once)."""
    if cls.name in FIELD_TYPES:
        raise ValueError(f"field type {cls.name!r} is already registered")
    FIELD_TYPES[cls.name] = cls()
    return cls


def unregister(name: str) -> None:
    """Remove a type (tests that register a type of their own restore the table with it)."""
    FIELD_TYPES.pop(name, None)
