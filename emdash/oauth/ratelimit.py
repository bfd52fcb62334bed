"""Fixed-window rate limits over Django's cache (Redis when REDIS_URL is set, else per process).

Limits are tuples of (count, window seconds); the table of limits lives here so docs/oauth.md can cite it.
"""

from __future__ import annotations

import time

from django.core.cache import cache

from emdash.oauth.errors import RateLimited
from emdash.proxy import client_ip as client_ip  # the one definition (trusted-proxy aware), re-exported

# name: (allowed events, per seconds)
LIMITS: dict[str, tuple[int, int]] = {
    "register": (10, 3600),  # dynamic client registrations per IP
    "device_code": (10, 600),  # device authorization requests per IP
    "device_poll": (60, 60),  # device-grant token polls per IP (slow_down handles single clients)
    "user_code_miss": (10, 900),  # wrong user codes per user (and per IP) at the verification page
    "token": (120, 60),  # other token-endpoint requests per IP
}


def _key(name: str, subject: str, window_start: int) -> str:
    return f"emdash:rl:{name}:{subject}:{window_start}"


def retry_after(name: str, subject: str) -> int | None:
    """Seconds until ``subject`` may try again when its window is used up, else None (counts nothing)."""
    limit, window = LIMITS[name]
    now = time.time()
    start = int(now // window * window)
    count = cache.get(_key(name, subject, start), 0)
    return max(1, int(start + window - now)) if count >= limit else None


def hit(name: str, subject: str) -> None:
    """Count one event; raise RateLimited once ``subject`` exceeds the limit in the current window."""
    limit, window = LIMITS[name]
    now = time.time()
    start = int(now // window * window)
    key = _key(name, subject, start)
    cache.add(key, 0, timeout=window + 5)
    try:
        count = cache.incr(key)
    except ValueError:  # evicted between add and incr
        cache.set(key, 1, timeout=window + 5)
        count = 1
    if count > limit:
        raise RateLimited(max(1, int(start + window - now)), _WHAT.get(name, "requests"))


def check(name: str, subject: str) -> None:
    """Raise RateLimited when ``subject`` has used up its window, without counting this call."""
    if (seconds := retry_after(name, subject)) is not None:
        raise RateLimited(seconds, _WHAT.get(name, "requests"))


def reset() -> None:
    """Forget every counter (tests)."""
    cache.clear()


_WHAT = {
    "register": "client registrations",
    "device_code": "device code requests",
    "device_poll": "token polls",
    "user_code_miss": "wrong codes",
    "token": "token requests",
}
