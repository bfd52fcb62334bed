"""Row ids: ULIDs, sortable by creation time, the same shape in every table and on the wire."""

from __future__ import annotations

from ulid import ULID


def new_id() -> str:
    return str(ULID())
