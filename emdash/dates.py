"""ISO 8601 in and out: every timestamp leaves the server in UTC with a ``Z``."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import overload


@overload
def iso(value: datetime) -> str: ...
@overload
def iso(value: datetime | None) -> str | None: ...
def iso(value: datetime | None) -> str | None:
    if value is None:
        return None
    return value.astimezone(UTC).isoformat().replace("+00:00", "Z")


def parse_iso(value: object) -> datetime:
    """Parse an ISO 8601 date-time (any offset; none means UTC). Raises ValueError with a readable message."""
    if not isinstance(value, str) or not value.strip():
        raise ValueError("must be an ISO 8601 date-time string")
    text = value.strip()
    if len(text) > 64:
        raise ValueError("must be an ISO 8601 date-time string")
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{value!r} is not an ISO 8601 date-time (e.g. 2026-06-01T09:00:00Z)") from None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    try:
        return parsed.astimezone(UTC)
    except OverflowError:  # 9999-12-31T23:00-05:00 is in year 10000 once in UTC, 0001-01-01T00:00+05:00 in year 0
        raise ValueError(f"{value!r} falls outside the years 1-9999 in UTC") from None
