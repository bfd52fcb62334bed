"""Opaque, tamper-evident pagination cursors bound to the query they continue."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.core import signing

from emdash.errors import InvalidCursor

_SALT = "emdash.cursor.v1"
T = TypeVar("T")


def encode(query_key: str, position: list[Any]) -> str:
    return signing.dumps({"q": query_key, "p": position}, salt=_SALT, compress=True)


def decode(token: Any, query_key: str) -> list[Any]:
    """The position stored in ``token``; INVALID_CURSOR if forged, garbled or from another query."""
    if not isinstance(token, str) or not token or len(token) > 2048:
        raise InvalidCursor("Invalid cursor: pass the nextCursor value from the previous page unchanged")
    try:
        payload = signing.loads(token, salt=_SALT)
    except signing.BadSignature:
        raise InvalidCursor("Invalid cursor: pass the nextCursor value from the previous page unchanged") from None
    if not isinstance(payload, dict) or payload.get("q") != query_key or not isinstance(payload.get("p"), list):
        raise InvalidCursor("Invalid cursor: it belongs to a different query (filters or order changed)")
    return payload["p"]


@dataclass
class Page(Generic[T]):
    """One page of a listing and the cursor to the next (none on the last page)."""

    items: list[T]
    next_cursor: str | None

    def to_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {"items": self.items}
        if self.next_cursor:
            body["nextCursor"] = self.next_cursor
        return body
