"""Counters and locks in Django's cache: one rate-limit mechanism for every door.

The cache is Redis when ``REDIS_URL`` is set, so counts are shared by every process; otherwise each process
counts alone (LocMem). Counting is an atomic ``add`` + ``incr`` on a key per fixed window. Subjects (tokens,
e-mail addresses, IPs) are hashed into the key, so no secret or address is stored in the cache.
"""

from __future__ import annotations

import functools
import hashlib
import math
import re
import time
from dataclasses import dataclass

from django.core.cache import cache

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([smhd])\s*$")


@dataclass(frozen=True)
class Rate:
    """``count`` events allowed per ``window`` seconds."""

    count: int
    window: int


def parse_rate(text: str) -> Rate:
    """``600/m``, ``10/15m``, ``5000/h`` → Rate; ValueError for anything else."""
    match = _RATE.match(text)
    if not match:
        raise ValueError(f"Not a rate (expected like 600/m or 10/15m): {text!r}")
    count, multiple, unit = int(match[1]), int(match[2] or 1), match[3]
    if multiple < 1:
        raise ValueError(f"Not a rate (window must be positive): {text!r}")
    return Rate(count, multiple * _UNITS[unit])


def parse_rates(text: str) -> dict[str, Rate | None]:
    """``mcp=600/m,rest=off`` → {"mcp": Rate(600, 60), "rest": None}; ``off`` (or 0/…) disables a door."""
    rates: dict[str, Rate | None] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"Not a rate limit (expected door=rate): {item!r}")
        value = value.strip().lower()
        rate = None if value in {"off", "none", "0"} else parse_rate(value)
        rates[name.strip().lower()] = None if rate is not None and rate.count == 0 else rate
    return rates


def _key(kind: str, bucket: str, subject: str, suffix: str = "") -> str:
    return f"emdash:rl:{kind}:{bucket}:{_digest(subject)}{suffix}"


@functools.lru_cache(maxsize=4096)
def _digest(subject: str) -> str:
    """The subject as it appears in keys; the same few tokens and addresses come back request after request."""
    return hashlib.sha256(subject.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _incr(key: str, timeout: int) -> int:
    """Count one; the key exists for all but the first event of a window, so ``incr`` is tried first."""
    try:
        return int(cache.incr(key))
    except ValueError:  # the window's first event (or the key was evicted)
        pass
    if cache.add(key, 1, timeout=timeout):
        return 1
    try:
        return int(cache.incr(key))  # another process added it in between
    except ValueError:
        cache.set(key, 1, timeout=timeout)
        return 1


def _window(rate: Rate) -> tuple[int, float]:
    now = time.time()
    return int(now // rate.window * rate.window), now


def hit(bucket: str, subject: str, rate: Rate) -> int | None:
    """Count one event; return the seconds to wait when this one is over the limit, else None."""
    start, now = _window(rate)
    count = _incr(_key("w", bucket, subject, f":{start}"), rate.window + 5)
    return max(1, math.ceil(start + rate.window - now)) if count > rate.count else None


def peek(bucket: str, subject: str, rate: Rate) -> int | None:
    """The seconds to wait when ``subject`` has used up its window, else None (counts nothing)."""
    start, now = _window(rate)
    count = cache.get(_key("w", bucket, subject, f":{start}"), 0)
    return max(1, math.ceil(start + rate.window - now)) if count >= rate.count else None


def fail(bucket: str, subject: str, limit: int, lockout: int) -> int | None:
    """Count one failure; after ``limit`` failures within ``lockout`` seconds, lock ``subject`` for ``lockout``
    seconds (from the last failure) and return that; else None. Unlike a fixed window, a lockout always lasts
    its full length, however late in a window the failures came."""
    count = _incr(_key("f", bucket, subject), lockout)
    if count < limit:
        return None
    cache.set(_key("l", bucket, subject), time.time() + lockout, timeout=lockout)
    cache.delete(_key("f", bucket, subject))
    return lockout


def locked(bucket: str, subject: str) -> int | None:
    """Seconds left on ``subject``'s lock, or None when it is not locked."""
    until = cache.get(_key("l", bucket, subject))
    if until is None:
        return None
    left = math.ceil(float(until) - time.time())
    return left if left > 0 else None


def forget(bucket: str, subject: str) -> None:
    """Drop ``subject``'s failure count (not its lock)."""
    cache.delete(_key("f", bucket, subject))
