"""Resolved bearer tokens, cached per process for at most AUTH_CACHE_SECONDS (default 1 s).

A warm read call then costs no token query. Revocation takes effect at once in every process: revoking,
deactivating a user or changing a role calls :func:`clear`, which empties this process's entries and bumps a
generation number in the shared cache (Redis when ``REDIS_URL`` is set, as it must be with several processes);
an entry cached under an older generation is never used. Without that bump a code replay's revocation (RFC 6749
4.1.2) left the first exchange's token working in the other processes until their entries expired (issue 21.2).
If the shared cache fails, tokens are looked up every time. Keys are the token's SHA-256 hash, never the raw
token. When the cache is this process's own (LocMem, the default without Redis; or none), it can tell no other
process anything, so the generation is a counter in memory and a warm call reads no cache at all (about 5 us
of a read call).
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Callable

from django.core.cache import DEFAULT_CACHE_ALIAS, cache, caches
from django.core.cache.backends.dummy import DummyCache
from django.core.cache.backends.locmem import LocMemCache
from django.core.signals import setting_changed

from emdash.actor import Actor
from emdash.conf import emdash_settings

log = logging.getLogger("emdash.auth")
GENERATION_KEY = "emdash:token-cache:generation"

MAX_ENTRIES = 4096  # bounds memory when many distinct tokens call; the cache is simply emptied when full

_lock = threading.Lock()
_entries: dict[tuple[str, str], tuple[float, int, Actor]] = {}
_local_generation = 0  # clear() calls in this process: the generation when the cache is process-local


def cached(raw: str, audience: str | None, resolve: Callable[[], Actor | None]) -> Actor | None:
    """The actor for ``raw`` from the cache, else ``resolve()`` (a None answer is never cached)."""
    ttl = float(emdash_settings.AUTH_CACHE_SECONDS or 0)
    if ttl <= 0:
        return resolve()
    generation = _generation()
    if generation is None:
        return resolve()
    key = (hashlib.sha256(raw.encode()).hexdigest(), audience or "")
    now = time.monotonic()
    hit = _entries.get(key)
    if hit is not None and hit[0] > now and hit[1] == generation:
        return hit[2]
    actor = resolve()
    if actor is not None:
        with _lock:
            if len(_entries) >= MAX_ENTRIES:
                _entries.clear()
            _entries[key] = (now + ttl, generation, actor)
    return actor


_local: list[bool] = []  # whether the default cache is this process's own, decided once per CACHES setting


def _process_local() -> bool:
    # Looking the cache up (caches[...]) costs a few microseconds per call; its backend changes only with CACHES.
    if not _local:
        _local.append(isinstance(caches[DEFAULT_CACHE_ALIAS], LocMemCache | DummyCache))
    return _local[0]


def _caches_changed(setting: str, **_: object) -> None:
    if setting == "CACHES":  # tests swap the cache backend (override_settings)
        _local.clear()


setting_changed.connect(_caches_changed)


def _generation() -> int | None:
    """The shared generation (0 before any change), or None when the shared cache cannot be read."""
    if _process_local():
        return _local_generation
    try:
        return int(cache.get(GENERATION_KEY, 0))
    except Exception:
        log.warning("the shared cache is unavailable: bearer tokens are looked up without caching", exc_info=False)
        return None


def clear(**_: object) -> None:
    """Forget every cached token, here and in every process sharing the cache (a signal receiver too: any
    token or user change)."""
    global _local_generation
    with _lock:
        _entries.clear()
        _local_generation += 1  # an actor resolved before this call, stored after it, is never used
    try:
        cache.add(GENERATION_KEY, 0, timeout=None)
        cache.incr(GENERATION_KEY)
    except ValueError:  # evicted between add and incr: any new value differs from what processes hold
        cache.set(GENERATION_KEY, time.time_ns(), timeout=None)
    except Exception:
        log.warning("could not tell other processes that a token changed (shared cache unavailable)")
