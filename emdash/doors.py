"""The doors, each declared once: where it is (URL prefix), what it may receive (body limit), how fast (rate
bucket), through which middleware, and in which shape it answers its errors.

The edge reads this table and nothing else to tell doors apart: the body limit and its 413
(``emdash.edge.limits``), the request rates (``emdash.edge.door_limits``), CORS (``emdash.edge.cors``), the NUL
guard's 400 (``emdash.edge.input_guard``), the MCP endpoint's own middleware chain (``mcp_endpoint.middleware``),
the REST door's own chain (``emdash.edge.chains``), the 500 page (``emdash.views``) and the OpenAPI document
(``api.openapi``). Adding a door is one entry here (docs/architecture.md, "Add a door").
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Literal

# The shape a door's own errors take: JSON-RPC, OAuth's {"error", "error_description"}, the REST envelope
# {"error": {code, message, ...}}, or a page (HTML for people, plain text for a refused body).
Answers = Literal["jsonrpc", "oauth", "rest", "page"]

MCP_PATH = "/_emdash/api/mcp"
API_PREFIX = "/_emdash/api/"
OAUTH_PREFIX = "/_emdash/api/oauth/"
AUTHORIZE_PATH = "/_emdash/oauth/authorize"  # the OAuth consent page: refusals in OAuth's shape
ADMIN_PREFIX = "/_emdash/admin/"
SIGNED_UPLOAD_PREFIX = "/_emdash/api/media/upload/"  # the signed PUT target: not a documented REST route


@dataclass(frozen=True, slots=True)
class Door:
    """One way in. ``prefixes`` end with "/" and also claim the path without it (``/_emdash/api/mcp``);
    "" claims every path no other door does."""

    name: str
    prefixes: tuple[str, ...]
    answers: Answers
    source: str | None = None  # AuditLog.source of the calls it runs; None: it runs no operations
    body_setting: str = "MAX_BODY"  # the EMDASH setting holding its body limit (falls back to MAX_BODY)
    rate: str | None = None  # its bucket in EMDASH_RATE_LIMITS; None: not rate limited here
    middleware: tuple[str, ...] | None = None  # its own short chain; None: settings.MIDDLEWARE
    in_openapi: bool = False  # its routes are documented in /_emdash/api/openapi.json
    pages: bool = False  # it serves people: an unexpected error is the 500 page, not JSON
    cors: bool = False  # browsers of allowed origins may call it cross-origin (emdash.cors)

    def claims(self, path: str) -> bool:
        return any(path.startswith(prefix) or path == prefix[:-1] for prefix in self.prefixes)


# The MCP endpoint's chain: the entries of settings.MIDDLEWARE after McpPathMiddleware that concern a JSON-RPC
# POST, in the same order. Left out: static files, slash/www redirects (the path is exact), CSRF (the view is
# exempt), flash messages and the site time zone for templates (issue 15: they cost as much as the request).
MCP_MIDDLEWARE = (
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "emdash.edge.cors.CorsMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "emdash.edge.door_limits.RateLimitMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "emdash.edge.csp.CSPMiddleware",
    "emdash.edge.input_guard.BadTextMiddleware",
)

# The REST door's chain (emdash.edge.chains): the entries of settings.MIDDLEWARE after DoorChainMiddleware that
# concern a JSON API call, in the same order. Left out: static files (WhiteNoise: not under this prefix), CSRF (every
# view here is exempt; DRF's session authentication checks the token itself, tests/edge/test_doors.py), flash
# messages, the site time zone for templates, and the public site's redirect fallback (it never answers under
# /_emdash/). Together they cost a fifth of a REST read (docs/benchmarks.md, issue 27 goal 6).
REST_MIDDLEWARE = (
    "django.middleware.security.SecurityMiddleware",
    "emdash.http_cache.PublicVaryMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "emdash.edge.cors.CorsMiddleware",
    "emdash.http_cache.EarlyNotModifiedMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "emdash.edge.door_limits.RateLimitMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "emdash.edge.csp.CSPMiddleware",
    "emdash.edge.input_guard.BadTextMiddleware",
)

# What only a browser's call needs (the session cookie and its user, for the view's same-origin fallback): a call
# with a bearer token never reads either (a bad token never falls back to the session), so it skips them.
MCP_BROWSER_MIDDLEWARE = frozenset(
    {"django.contrib.sessions.middleware.SessionMiddleware", "django.contrib.auth.middleware.AuthenticationMiddleware"}
)

MCP = Door("mcp", (MCP_PATH + "/",), "jsonrpc", "mcp", "MCP_MAX_BODY", rate="mcp", middleware=MCP_MIDDLEWARE, cors=True)
OAUTH = Door("oauth", (OAUTH_PREFIX,), "oauth", cors=True)
CONSENT = Door("consent", (AUTHORIZE_PATH + "/",), "oauth", pages=True)  # OAuth's page: people sign in there
REST = Door("rest", (API_PREFIX,), "rest", "rest", rate="rest", middleware=REST_MIDDLEWARE, in_openapi=True, cors=True)
ADMIN = Door("admin", (ADMIN_PREFIX,), "page", "admin", pages=True)
PUBLIC = Door("public", ("",), "page", pages=True)

# First match wins: the narrower prefixes come first.
DOORS: tuple[Door, ...] = (MCP, OAUTH, CONSENT, REST, ADMIN, PUBLIC)
BY_NAME = {door.name: door for door in DOORS}


def door_for(path: str) -> Door:
    """The door that answers ``path`` (the public site when no other does)."""
    if path == MCP_PATH:  # the hot path: every MCP call asks several times
        return MCP
    return _door_of(path)


# The edge asks for each request's door several times (rates, CORS, the chain, the body limit): the answer for a
# path is fixed, so recent paths are remembered (bounded: paths carry ids).
@functools.lru_cache(maxsize=4096)
def _door_of(path: str) -> Door:
    for door in DOORS:
        if door.claims(path):
            return door
    return PUBLIC


def documented(path: str) -> bool:
    """Whether a route belongs in the OpenAPI document: a REST door's, except the signed upload target."""
    return door_for(path).in_openapi and not path.startswith(SIGNED_UPLOAD_PREFIX)
