"""Request rate limits for the MCP and REST doors (SPEC 2, ``EMDASH_RATE_LIMITS``) and the public search page.

Who is counted: the bearer token (its hash) when one is sent, else the signed-in session user, else the client
IP. Counting is ``emdash.ratelimit`` (fixed windows in Django's cache, Redis-shared when ``REDIS_URL`` is set).
``limit(request, door)`` is the one entry any door can call; ``RateLimitMiddleware`` calls it by path prefix and
answers in the door's own error shape. The OAuth endpoints keep their own limits (``accounts.oauth.ratelimit``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import orjson
from django.core import checks
from django.http import HttpRequest, HttpResponse

from accounts.auth import bearer_token, origin_allowed
from emdash import doors, json_input, ratelimit
from emdash.conf import DEFAULTS, emdash_settings
from emdash.edge.proxy import client_ip

MCP, REST = "mcp", "rest"  # the rate buckets of the doors that have one (emdash.doors)
# The public site's search page: anyone may ask it, each new query is a full-text search (public_site.views).
SEARCH = "search"
# JSON-RPC error code of a rate-limited MCP request (implementation-defined range; docs/mcp-wire-notes.md).
RATE_LIMITED_CODE = -32029
_ID_PARSE_LIMIT = 64 * 1024  # read a limited request's body for its JSON-RPC id only when it is this small


@functools.lru_cache(maxsize=16)  # parsed once per setting value, not on every request
def _rates(text: str) -> dict[str, ratelimit.Rate | None]:
    rates = ratelimit.parse_rates(DEFAULTS["RATE_LIMITS"])
    if text.strip().lower() in {"off", "none"}:
        return dict.fromkeys(rates)
    rates.update(ratelimit.parse_rates(text))
    return rates


def rate_for(door: str) -> ratelimit.Rate | None:
    """The configured rate of ``door``, or None when it is not limited."""
    return _rates(str(emdash_settings.RATE_LIMITS or "")).get(door)


def door_for(path: str) -> str | None:
    """The rate bucket of the door answering ``path`` (None: that door is not rate limited here)."""
    return doors.door_for(path).rate


def subject(request: HttpRequest) -> str:
    """Whom this request is counted against: its token, else its session user, else its client IP."""
    if token := bearer_token(request):
        return f"token:{token}"  # hashed into the cache key by emdash.ratelimit
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return f"ip:{client_ip(request)}"


def limit(request: HttpRequest, door: str) -> int | None:
    """Count this request for ``door``; the seconds to wait when it is over the rate, else None."""
    rate = rate_for(door)
    if rate is None or request.method == "OPTIONS":  # CORS preflights carry no credentials
        return None
    return ratelimit.hit(f"door.{door}", subject(request), rate)


def _jsonrpc_id(request: HttpRequest) -> Any:
    try:
        if int(request.META.get("CONTENT_LENGTH") or 0) > _ID_PARSE_LIMIT:
            return None
        message = json_input.loads(request.body)
    except ValueError:
        return None
    request_id = message.get("id") if isinstance(message, dict) else None
    return request_id if isinstance(request_id, (str, int)) and not isinstance(request_id, bool) else None


def mcp_response(request: HttpRequest, seconds: int) -> HttpResponse:
    message = f"Rate limit exceeded; retry in {seconds} s"
    error = {"code": RATE_LIMITED_CODE, "message": message, "data": {"retryAfter": seconds}}
    body = {"jsonrpc": "2.0", "id": _jsonrpc_id(request), "error": error}
    return HttpResponse(orjson.dumps(body), status=429, content_type="application/json")


def rest_response(request: HttpRequest, seconds: int) -> HttpResponse:
    message = f"Too many requests; retry in {seconds} s"
    error = {"code": "RATE_LIMITED", "message": message, "details": {"retryAfter": seconds}}
    return HttpResponse(orjson.dumps({"error": error}), status=429, content_type="application/json")


RESPONSES: dict[str, Callable[[HttpRequest, int], HttpResponse]] = {MCP: mcp_response, REST: rest_response}


def too_many(request: HttpRequest, door: str, seconds: int) -> HttpResponse:
    """The door's 429, with ``Retry-After`` (readable by allowed browser origins)."""
    response = RESPONSES[door](request, seconds)
    response["Retry-After"] = str(seconds)
    response["Cache-Control"] = "no-store"
    origin = request.META.get("HTTP_ORIGIN")
    if origin and origin_allowed(request, origin):
        response["Access-Control-Allow-Origin"] = origin
        response["Access-Control-Expose-Headers"] = "Retry-After"
        response["Vary"] = "Origin"
    return response


def check_config(**_: Any) -> list[checks.CheckMessage]:
    """System check: a malformed EMDASH_RATE_LIMITS fails at start-up, not on the first request."""
    try:
        _rates(str(emdash_settings.RATE_LIMITS or ""))
    except ValueError as exc:
        return [checks.Error(f"EMDASH_RATE_LIMITS: {exc}", id="emdash.E010")]
    return []


class RateLimitMiddleware:
    """Rate-limit the MCP and REST doors by path prefix (placed after the session and auth middleware)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        door = door_for(request.path_info)
        if door is not None and (seconds := limit(request, door)) is not None:
            return too_many(request, door, seconds)
        return self.get_response(request)
