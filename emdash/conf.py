"""The ``EMDASH`` settings dict: defaults here, overrides in settings; re-read under override_settings."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.signals import setting_changed

DEFAULTS: dict[str, Any] = {
    # Public origin used in discovery documents and token audiences ("" = the request's origin).
    "SITE_URL": "",
    # Content locales; the first is the default. i18n is on when more than one is listed.
    "LOCALES": ["en"],
    # Extra origins allowed to call the API with cookies (the site's own origin is always allowed).
    "ALLOWED_ORIGINS": [],
    # Revisions kept per content item (older ones are pruned, live and draft revisions never).
    "REVISIONS_KEEP": 50,
    # Seconds the worker sleeps between runs.
    "WORKER_INTERVAL": 5.0,
    # Largest request body in bytes on every route but the uploads (env EMDASH_MAX_BODY); see emdash/edge/limits.py.
    "MAX_BODY": 4 * 1024 * 1024,
    # Largest uploaded file in bytes: multipart upload, signed PUT, media_upload (env EMDASH_MAX_UPLOAD).
    "MAX_UPLOAD": 50 * 1024 * 1024,
    # Fetching URLs callers name (media_upload's url): private/loopback/link-local addresses are refused unless
    # this is on (env EMDASH_FETCH_ALLOW_PRIVATE=1, development only); seconds a fetch may take.
    "FETCH_ALLOW_PRIVATE": False,
    "FETCH_TIMEOUT": 15.0,
    # Largest MCP request body in bytes (None: MAX_BODY).
    "MCP_MAX_BODY": None,
    # Media types that may be uploaded or registered ("type/*" wildcards; SVG only when listed explicitly).
    "MEDIA_ALLOWED_TYPES": ["image/*", "video/*", "audio/*", "application/pdf"],
    # Largest media upload in bytes (None: MAX_UPLOAD).
    "MEDIA_MAX_UPLOAD_SIZE": None,
    # Internal nginx location that serves MEDIA_ROOT (X-Accel-Redirect); "" = the app streams files itself.
    "MEDIA_ACCEL_PREFIX": "",
    # Rendition widths and heights (SPEC 11; 0 = keep the ratio, 1200x630 is always allowed; env
    # EMDASH_IMAGE_SIZES) and the encoder quality per format (an int applies to all).
    "IMAGE_SIZES": [160, 320, 640, 960, 1280, 1920, 2560],
    "IMAGE_QUALITY": {"webp": 80, "avif": 60, "jpeg": 82},
    # Seconds the unversioned rendition address is cached (the versioned one is immutable).
    "IMAGE_UNVERSIONED_MAX_AGE": 3600,
    # Seconds a signed upload URL stays valid.
    "MEDIA_UPLOAD_URL_TTL": 900,
    # Seconds before a stored file with no media item is swept by the worker, and between sweeps.
    "MEDIA_ORPHAN_AGE": 3600,
    "MEDIA_SWEEP_INTERVAL": 3600,
    # Seconds a signed draft preview link stays valid.
    "PREVIEW_MAX_AGE": 3600,
    # Days an `emdash login` (emdash-cli client) refresh token lives; each refresh starts a new period (sliding),
    # so an unused CLI session ends after this long. Other OAuth clients keep 90 days.
    "CLI_REFRESH_DAYS": 30,
    # MCP tasks (protocol 2025-11-25): ttl when the client names none and the cap on what it asks for (ms),
    # the poll interval we suggest (ms), working tasks one user may have at once, and the seconds after which
    # a task claimed by a worker that never finished it (killed, machine lost) is marked failed.
    "TASKS_DEFAULT_TTL": 60 * 60 * 1000,
    "TASKS_MAX_TTL": 24 * 60 * 60 * 1000,
    "TASKS_POLL_INTERVAL": 1000,
    "TASKS_MAX_WORKING": 20,
    "TASKS_LEASE": 600,
    # Seconds the worker waits between looks at the task queue when it is empty.
    "TASKS_QUEUE_INTERVAL": 0.5,
    # Seconds between OAuth prunes (expired codes and tokens) by the worker.
    "OAUTH_PRUNE_INTERVAL": 3600,
    # Request rates per token (per session user, else per IP) for the MCP and REST doors: "door=count/window"
    # with s, m, h or d windows ("10/15m"); "door=off" or plain "off" disables. Doors not named keep the default.
    "RATE_LIMITS": "mcp=600/m,rest=600/m,search=60/m",
    # Password sign-in: failures allowed per account and per client IP before a lockout of LOGIN_LOCKOUT seconds.
    "LOGIN_MAX_FAILURES": 5,
    "LOGIN_MAX_FAILURES_PER_IP": 20,
    "LOGIN_LOCKOUT": 900,
    # Webhook targets may be private/loopback/link-local addresses (development only; env
    # EMDASH_WEBHOOKS_ALLOW_PRIVATE=1).
    "WEBHOOKS_ALLOW_PRIVATE": False,
    # Seconds a webhook delivery may take (connect + response).
    "WEBHOOKS_TIMEOUT": 10.0,
    # Read-path caches, per process (docs/benchmarks.md): seconds a resolved bearer token is reused before it is
    # looked up again (a revoked token is refused at most this long after the revocation; 0 = every request),
    # and seconds the schema snapshot is trusted before the version stamp is read again (0 = every call).
    "AUTH_CACHE_SECONDS": 1.0,
    "SCHEMA_CHECK_SECONDS": 1.0,
    # content_get answers kept per process while the change stamps they were built under hold
    # (content/entries/item_cache.py); 0 turns the cache off.
    "ITEM_CACHE_ITEMS": 2048,
    # MCP audit rows of reads and failed calls: written by a background thread per process in batches (every
    # AUDIT_FLUSH_INTERVAL seconds or AUDIT_BATCH rows, at most AUDIT_QUEUE_MAX waiting), flushed on a clean
    # shutdown; False writes them on the request path.
    "AUDIT_ASYNC": True,
    "AUDIT_FLUSH_INTERVAL": 0.2,
    "AUDIT_BATCH": 200,
    "AUDIT_QUEUE_MAX": 10000,
    # Search ranks at most this many candidates per OR-alternative of a query, the most recently indexed matches
    # (two-stage ranking, docs/benchmarks.md): a query matching fewer is ranked exactly; 0 ranks every match.
    "SEARCH_CANDIDATES": 1000,
    # HTTP caching of anonymous published reads (REST item, list and search; public pages; docs/caching.md):
    # Cache-Control max-age for browsers and s-maxage for shared caches (CDN, Varnish), in seconds. 0 = must
    # revalidate every time (the ETag still answers 304). Authenticated and draft reads are always private.
    "HTTP_CACHE_MAX_AGE": 60,
    "HTTP_CACHE_S_MAXAGE": 300,
    # Where publishes, unpublishes, live edits, menu and settings changes are purged (after commit, in the
    # background): None, or {"backend": "http", "url": "http://varnish:6081/", "method": "PURGE"} (Varnish,
    # any cache purging by Surrogate-Key/Cache-Tag header), {"backend": "cloudflare", "zone": "...", "token": "..."}
    # or {"backend": "fastly", "service": "...", "token": "..."}; optional "timeout" (seconds) and "api" (base URL).
    "CACHE_PURGE": None,
}


class EmDashSettings:
    def __init__(self) -> None:
        self._cache: dict[str, Any] = {}

    def __getattr__(self, name: str) -> Any:
        if name not in DEFAULTS:
            raise AttributeError(f"Unknown EMDASH setting: {name}")
        if name not in self._cache:
            user = getattr(settings, "EMDASH", {}) or {}
            value = user.get(name)
            self._cache[name] = DEFAULTS[name] if value in (None, "", []) else value
        return self._cache[name]

    def reload(self) -> None:
        self._cache.clear()

    @property
    def default_locale(self) -> str:
        return str(self.LOCALES[0])

    @property
    def i18n_enabled(self) -> bool:
        return len(self.LOCALES) > 1


emdash_settings = EmDashSettings()


def _reload(*, setting: str, **kwargs: Any) -> None:
    if setting == "EMDASH":
        emdash_settings.reload()


setting_changed.connect(_reload)
