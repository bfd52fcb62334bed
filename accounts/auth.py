"""Bearer tokens and origins: who is calling, and from where a browser may call."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest

from accounts import token_cache
from accounts.oauth.metadata import MCP_PATH
from accounts.oauth.tokens import ACCESS_PREFIX as OAUTH_ACCESS_PREFIX
from accounts.oauth.tokens import resolve_access_token
from accounts.tokens import PAT_PREFIX, resolve_pat
from emdash.actor import Actor
from emdash.conf import emdash_settings

MAX_TOKEN_LENGTH = 512


def resolve_bearer(raw: str, audience: str | Callable[[], str] | None = None) -> Actor | None:
    """The actor behind a bearer token, or None if it is unknown, revoked, expired or malformed.

    OAuth access tokens are bound to a resource: they resolve only when ``audience`` (this server's MCP URL)
    is the one they were issued for; without an audience they never do. A callable audience is called only for
    an OAuth token (a request's URL is not free to build, and a PAT never needs it).
    """
    if not raw or len(raw) > MAX_TOKEN_LENGTH:
        return None
    if raw.startswith(PAT_PREFIX):
        return token_cache.cached(raw, None, lambda: resolve_pat(raw))
    if raw.startswith(OAUTH_ACCESS_PREFIX):
        bound = audience() if callable(audience) else audience
        return token_cache.cached(raw, bound, lambda: resolve_access_token(raw, bound))
    return None


def resource_url(request: HttpRequest) -> str:
    """This site's MCP URL: the protected resource, and the audience OAuth tokens are bound to."""
    return site_origin(request) + MCP_PATH


def bearer_token(request: HttpRequest) -> str | None:
    """The token of an ``Authorization: Bearer`` header; "" for a malformed header, None for none."""
    header = request.META.get("HTTP_AUTHORIZATION")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer":
        return ""
    return token.strip()


def site_origin(request: HttpRequest) -> str:
    """The public origin: EMDASH_SITE_URL when set (behind proxies), else the request's own."""
    configured = str(emdash_settings.SITE_URL or "").rstrip("/")
    if configured:
        return site_origin_of(configured)
    return f"{request.scheme}://{request.get_host()}"


def site_origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _is_loopback(origin: str) -> bool:
    host = urlsplit(origin).hostname or ""
    return host in {"localhost", "127.0.0.1", "::1"} or host.endswith(".localhost")


def origin_allowed(request: HttpRequest, origin: str) -> bool:
    """Same origin, a configured origin, or (in DEBUG) any loopback origin."""
    return origin_trusted(origin, own=f"{request.scheme}://{request.get_host()}")


def origin_trusted(origin: str, *, own: str) -> bool:
    """Whether a browser ``Origin`` may call us: exactly (scheme, host and port) our own origin ``own`` or
    EMDASH_SITE_URL's, one of EMDASH_ALLOWED_ORIGINS, or (in DEBUG only) any loopback origin.

    ``own`` comes from a validated Host header (ALLOWED_HOSTS), so a DNS-rebound page does not match."""
    origin = origin.rstrip("/")
    configured = str(emdash_settings.SITE_URL or "").rstrip("/")
    if origin == own or (configured and origin == site_origin_of(configured)):
        return True
    if origin in {o.rstrip("/") for o in emdash_settings.ALLOWED_ORIGINS}:
        return True
    return bool(settings.DEBUG and _is_loopback(origin))


class BadToken(Exception):
    """A bearer token was sent but is not valid: answer 401, never fall back to the session."""


def request_actor(request: HttpRequest) -> Actor:
    """Who is calling a REST-style view: a bearer token, else the session user, else anonymous.

    Raises BadToken for an invalid bearer token. (Session requests must also pass Django's CSRF check,
    which the view's own decorators enforce.)
    """
    token = bearer_token(request)
    if token is not None:
        actor = resolve_bearer(token, lambda: resource_url(request))
        if actor is None:
            raise BadToken
        return actor
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return Actor.for_user(user)
    return Actor.anonymous()
