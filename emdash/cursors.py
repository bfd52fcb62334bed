"""Opaque, tamper-evident pagination cursors bound to the query they continue."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.conf import settings
from django.core import signing

from emdash.errors import InvalidCursor

_SALT = "emdash.cursor.v1"
T = TypeVar("T")


def encode(query_key: str, position: list[Any]) -> str:
    # positions hold column values (text, numbers, None): hashable as a tuple
    return _signed(settings.SECRET_KEY, query_key, tuple(position))


# Signed tokens by (key, query, position): the first page's cursor is the same for every reader until the
# collection changes, and signing it (JSON, zlib, HMAC) was 4% of a REST list of 50. A token keeps the time it
# was first signed; decode() sets no maximum age, so that time is never read.
@functools.lru_cache(maxsize=1024)
def _signed(secret: str, query_key: str, position: tuple[Any, ...]) -> str:
    return signing.dumps({"q": query_key, "p": list(position)}, salt=_SALT, compress=True)


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
