"""The OAuth endpoints' rate limits: the table of limits (docs/oauth.md cites it) over ``emdash.ratelimit``.

Limits are tuples of (count, window seconds); counting is fixed windows in Django's cache (Redis when
REDIS_URL is set, else per process).
"""

from __future__ import annotations

from django.core.cache import cache

from accounts.oauth.errors import RateLimited
from emdash import ratelimit
from emdash.edge.proxy import client_ip as client_ip  # the one definition (trusted-proxy aware), re-exported

# name: (allowed events, per seconds)
LIMITS: dict[str, tuple[int, int]] = {
    "register": (10, 3600),  # dynamic client registrations per IP
    "device_code": (10, 600),  # device authorization requests per IP
    "device_poll": (60, 60),  # device-grant token polls per IP (slow_down handles single clients)
    "user_code_miss": (10, 900),  # wrong user codes per user (and per IP) at the verification page
    "token": (120, 60),  # other token-endpoint requests per IP
}


def _rate(name: str) -> ratelimit.Rate:
    return ratelimit.Rate(*LIMITS[name])


def retry_after(name: str, subject: str) -> int | None:
    """Seconds until ``subject`` may try again when its window is used up, else None (counts nothing)."""
    return ratelimit.peek(f"oauth.{name}", subject, _rate(name))


def hit(name: str, subject: str) -> None:
    """Count one event; raise RateLimited once ``subject`` exceeds the limit in the current window."""
    if (seconds := ratelimit.hit(f"oauth.{name}", subject, _rate(name))) is not None:
        raise RateLimited(seconds, _WHAT.get(name, "requests"))


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
