"""Resolved bearer tokens, cached per process for at most AUTH_CACHE_SECONDS (default 1 s).

A warm read call then costs no token query. Revocation still takes effect within that TTL in every process
(the entry expires and the next request looks the token up again); in this process it takes effect at once,
because revoking, deactivating a user or changing a role clears the cache (see :func:`clear`). Keys are the
token's SHA-256 hash, never the raw token.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable

from emdash.actor import Actor
from emdash.conf import emdash_settings

MAX_ENTRIES = 4096  # bounds memory when many distinct tokens call; the cache is simply emptied when full

_lock = threading.Lock()
_entries: dict[tuple[str, str], tuple[float, Actor]] = {}


def cached(raw: str, audience: str | None, resolve: Callable[[], Actor | None]) -> Actor | None:
    """The actor for ``raw`` from the cache, else ``resolve()`` (a None answer is never cached)."""
    ttl = float(emdash_settings.AUTH_CACHE_SECONDS or 0)
    if ttl <= 0:
        return resolve()
    key = (hashlib.sha256(raw.encode()).hexdigest(), audience or "")
    now = time.monotonic()
    hit = _entries.get(key)
    if hit is not None and hit[0] > now:
        return hit[1]
    actor = resolve()
    if actor is not None:
        with _lock:
            if len(_entries) >= MAX_ENTRIES:
                _entries.clear()
            _entries[key] = (now + ttl, actor)
    return actor


def clear(**_: object) -> None:
    """Forget every cached token (a signal receiver too: any token or user change in this process)."""
    with _lock:
        _entries.clear()
