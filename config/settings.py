"""Django settings, read from environment variables (see the README's Configuration section)."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import dj_database_url
from csp.constants import NONCE

from config.env import env_bool, env_float, env_int, env_json_object, env_list, env_size, env_sizes
from config.layout import APPS
from emdash.numbers import plain_int

BASE_DIR = Path(__file__).resolve().parent.parent
# An empty value means the default too: Path("") would be the working directory, scattering the database there.
VAR_DIR = Path(os.environ.get("EMDASH_VAR_DIR", "").strip() or BASE_DIR / "var")
VAR_DIR.mkdir(parents=True, exist_ok=True)


def _secret_key() -> str:
    """Use SECRET_KEY, else a random key kept under var/ so sessions and cursors survive restarts."""
    if key := os.environ.get("SECRET_KEY"):
        return key
    path = VAR_DIR / "secret_key"
    if not path.exists():
        import contextlib
        import secrets
        import tempfile

        # Written aside (mode 0600) and linked into place: processes that start together (server workers, test
        # workers) all read the one key that won, never a half-written file or a key another process replaced.
        fd, temp = tempfile.mkstemp(dir=VAR_DIR, prefix=".secret_key.")
        try:
            with os.fdopen(fd, "w") as file:
                file.write(secrets.token_urlsafe(50))
            with contextlib.suppress(FileExistsError):  # another process's key won
                os.link(temp, path)
        finally:
            os.unlink(temp)
    return path.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1],testserver")

# Django's task framework: built in from Django 6, the django-tasks backport on 5.2 (emdash/background.py).
# The embedded default keeps jobs in this database; EMDASH_TASKS_BACKEND switches to RQ, Celery, ...
TASKS_BACKEND = os.environ.get("EMDASH_TASKS_BACKEND", "django_tasks_db.DatabaseBackend")
TASKS = {"default": {"BACKEND": TASKS_BACKEND, "QUEUES": ["default"]}}
TASK_APPS = ["django_tasks_db"]
if importlib.util.find_spec("django.tasks") is None:
    TASK_APPS.insert(0, "django_tasks")
if TASKS_BACKEND.startswith("django_tasks_rq."):  # pip install django-tasks-rq; jobs in Redis (REDIS_URL)
    TASK_APPS += ["django_rq", "django_tasks_rq"]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "corsheaders",
    "csp",
    "channels",
    *TASK_APPS,
    "drf_spectacular",
    "drf_spectacular_sidecar",
    *APPS,
]

MIDDLEWARE = [
    "emdash.tracing.TraceMiddleware",  # first: everything after it, errors included, logs with the trace id
    "emdash.edge.cache_policy.CachePolicyMiddleware",  # no rule of its own: errors, writes, credentials not stored
    "emdash.edge.hosts.HostMiddleware",  # ALLOWED_HOSTS for every path, MCP included; the health probe answers here
    "emdash.edge.limits.BodyLimitMiddleware",  # 413 for oversized bodies before anything reads them
    "mcp_endpoint.middleware.McpPathMiddleware",  # the MCP endpoint continues down its door's chain (emdash.doors)
    "emdash.edge.chains.DoorChainMiddleware",  # so does the REST API (emdash.doors.REST_MIDDLEWARE)
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",  # static files under daphne, gunicorn and tests alike
    "emdash.http_cache.PublicVaryMiddleware",  # public reads (docs/caching.md) lose the session's Vary: Cookie
    "django.contrib.sessions.middleware.SessionMiddleware",
    "emdash.edge.cors.CorsMiddleware",  # before CommonMiddleware, so preflights answer before redirects
    "emdash.http_cache.EarlyNotModifiedMiddleware",  # anonymous conditional GETs still current: 304 here
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "emdash.edge.door_limits.RateLimitMiddleware",  # MCP and REST request rates (after auth: counts per session user)
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "emdash.edge.csp.CSPMiddleware",
    "settings_app.localtime.SiteTimeMiddleware",  # one site-settings read per request, only if a date is shown
    "emdash.edge.input_guard.BadTextMiddleware",  # NUL / lone surrogates in path, query, forms: 400 (SPEC 2)
    "public_site.middleware.RedirectFallbackMiddleware",  # last: sees the 404 of any unanswered path
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "admin_ui.nav.nav_context",
            ],
        },
    },
]


def _postgres_pool(db: Any) -> None:
    """psycopg's pool, bounded per process: connections are shared by the process's HTTP threads (config.asgi:
    EMDASH_HTTP_THREADS; gunicorn's --threads) and its other threads. EMDASH_DB_POOL_MAX=0 turns it off."""
    pool_max = env_int("EMDASH_DB_POOL_MAX", 10)
    if pool_max <= 0:
        return
    db["CONN_MAX_AGE"] = 0  # Django requires it with a pool: connections go back to the pool at request end
    db["OPTIONS"]["pool"] = {
        "min_size": min(env_int("EMDASH_DB_POOL_MIN", 1), pool_max),
        "max_size": pool_max,
        # Seconds a request waits for a free connection before failing (psycopg_pool.PoolTimeout).
        "timeout": env_float("EMDASH_DB_POOL_TIMEOUT", 10.0),
    }


def _databases() -> dict:
    url = os.environ.get("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'emdash.sqlite3'}"
    db = dj_database_url.parse(url, conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")))
    if db["ENGINE"] == "django.db.backends.sqlite3":
        # WAL lets readers run beside the writer; IMMEDIATE takes the write lock at BEGIN, so two
        # writers queue on the busy timeout instead of failing with "database is locked" mid-way.
        # Connections are kept (CONN_MAX_AGE, like PostgreSQL without a pool): opening one and running the
        # PRAGMAs cost more than a read call's own queries (docs/benchmarks.md).
        # emdash.sqlite3 queues those writers on a file lock first, which hands the lock over at once (see there).
        db["ENGINE"] = "emdash.sqlite3"
        db["OPTIONS"] = {
            "transaction_mode": "IMMEDIATE",
            "timeout": 30,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=30000;",
        }
        # A file, not :memory:, so tests with threads and subprocesses share one database.
        db["TEST"] = {"NAME": str(VAR_DIR / "test.sqlite3")}
    else:
        db.setdefault("OPTIONS", {})
        if db["ENGINE"] == "django.db.backends.postgresql":
            _postgres_pool(db)
    return {"default": db}


DATABASES = _databases()
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "emdash.User"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)  # whitenoise warns about a missing root even when finders serve
# Serve the apps' static files straight from their folders: no collectstatic step to forget.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", VAR_DIR / "media"))
MEDIA_URL = "/media/"


def _env_first(*names: str) -> str | None:
    return next((value for name in names if (value := os.environ.get(name))), None)


# Media storage: files under MEDIA_ROOT, or an S3-compatible bucket when EMDASH_S3_BUCKET (or
# AWS_STORAGE_BUCKET_NAME) is set. Credentials come from boto3's usual chain (AWS_ACCESS_KEY_ID, ...).
STORAGES: dict[str, dict] = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# The S3 side of `emdash_media_migrate` reads these options too, so they are kept apart from STORAGES.
MEDIA_S3_OPTIONS: dict[str, object] | None = None
if S3_BUCKET := _env_first("EMDASH_S3_BUCKET", "AWS_STORAGE_BUCKET_NAME"):
    MEDIA_S3_OPTIONS = {
        "bucket_name": S3_BUCKET,
        "endpoint_url": _env_first("EMDASH_S3_ENDPOINT_URL", "AWS_S3_ENDPOINT_URL"),
        "region_name": _env_first("EMDASH_S3_REGION", "AWS_S3_REGION_NAME"),
        "custom_domain": _env_first("EMDASH_S3_PUBLIC_DOMAIN", "AWS_S3_CUSTOM_DOMAIN"),
        "location": (_env_first("EMDASH_S3_PREFIX") or "").strip("/"),
        "addressing_style": _env_first("AWS_S3_ADDRESSING_STYLE"),
        # Stable public URLs (no expiring signatures, so cached pages, feeds and Open Graph tags keep working):
        # the bucket (or EMDASH_S3_PUBLIC_DOMAIN) must allow public reads, see docs/production.md. A private
        # bucket is an explicit choice: EMDASH_S3_SIGNED_URLS=1 (URLs expire after EMDASH_S3_SIGNED_URL_SECONDS).
        "querystring_auth": env_bool("EMDASH_S3_SIGNED_URLS", env_bool("AWS_QUERYSTRING_AUTH", False)),
        "querystring_expire": env_int("EMDASH_S3_SIGNED_URL_SECONDS", 3600),
        "file_overwrite": False,
    }
    STORAGES["default"] = {"BACKEND": "storages.backends.s3.S3Storage", "OPTIONS": MEDIA_S3_OPTIONS}

REDIS_URL = os.environ.get("REDIS_URL", "")
RQ_QUEUES = {"default": {"URL": REDIS_URL or "redis://127.0.0.1:6379/0"}}  # read only by the RQ task backend
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": [REDIS_URL]}}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# --- Production behind a TLS proxy (SPEC 2): everything follows from EMDASH_SITE_URL and EMDASH_TRUST_PROXY.
SITE_URL = os.environ.get("EMDASH_SITE_URL", "").strip()
_site = urlsplit(SITE_URL)
SITE_ORIGIN = f"{_site.scheme}://{_site.netloc}" if _site.scheme and _site.netloc else ""
HTTPS = _site.scheme == "https"


def _proxy_hops() -> int:
    """EMDASH_TRUST_PROXY: how many proxies in front of us append to X-Forwarded-For (1, yes or true = one)."""
    value = os.environ.get("EMDASH_TRUST_PROXY", "").strip().lower()
    if value in {"", "0", "false", "no", "off"}:
        return 0
    hops = plain_int(value)  # "²" passes str.isdigit(), not int()
    return 1 if hops is None else hops


EMDASH_TRUST_PROXY = _proxy_hops()
if EMDASH_TRUST_PROXY:
    # Only a proxy we trust may say the request came over TLS and for which host; it must overwrite
    # (not pass through) X-Forwarded-Proto and X-Forwarded-Host (docs/production.md shows nginx).
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    USE_X_FORWARDED_HOST = True
# The site's own origin and the configured API origins may post forms and cookie-authenticated API calls.
CSRF_TRUSTED_ORIGINS = list(dict.fromkeys(([SITE_ORIGIN] if SITE_ORIGIN else []) + env_list("EMDASH_ALLOWED_ORIGINS")))
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool("EMDASH_SECURE_COOKIES", HTTPS)
SECURE_HSTS_SECONDS = env_int("EMDASH_HSTS_SECONDS", 31536000 if HTTPS and not DEBUG else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("EMDASH_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("EMDASH_HSTS_PRELOAD", False)
SILENCED_SYSTEM_CHECKS: list[str] = []
if not SECURE_HSTS_PRELOAD:
    # Opt-in on purpose: the preload directive lets anyone submit the domain (and its subdomains) to browsers'
    # built-in HTTPS-only lists, which is hard to undo. That is the operator's choice, not a default.
    SILENCED_SYSTEM_CHECKS.append("security.W021")
SECURE_SSL_REDIRECT = env_bool("EMDASH_SSL_REDIRECT", HTTPS and not DEBUG)
# Load balancers probe the backend over plain HTTP without the proxy's headers: never redirect the probe.
SECURE_REDIRECT_EXEMPT = [r"^_emdash/health$"]
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# CORS (django-cors-headers): only the doors that say so (emdash.doors: MCP, OAuth, REST); which origins may
# call is decided per request by emdash.edge.cors (same origin, EMDASH_SITE_URL, EMDASH_ALLOWED_ORIGINS,
# loopback in DEBUG).
CORS_ALLOW_CREDENTIALS = True
CORS_ALLOW_HEADERS = [
    "authorization", "content-type", "accept", "mcp-protocol-version", "mcp-method", "mcp-name", "last-event-id",
    "x-csrftoken", "if-match",
]  # fmt: skip
CORS_EXPOSE_HEADERS = ["WWW-Authenticate", "Retry-After", "X-Trace-Id"]
CORS_PREFLIGHT_MAX_AGE = 600


# Content-Security-Policy (django-csp) for every HTML page: no inline script, inline <style> blocks carry the
# request's nonce. form-action is left open on purpose: the OAuth consent form redirects to the client's
# redirect URI, which Chrome checks against form-action. The API docs page adds its own allowances (api/urls.py).
def _style_hash(path: Path) -> str:
    """The CSP source allowing one inline stylesheet by its content (the public theme's), so public pages need no
    per-response nonce and a shared cache may keep them (docs/caching.md). A changed file changes the hash at the
    next start; a theme overriding the template adds its own hash here."""
    import base64
    import hashlib

    try:
        return "'sha256-" + base64.b64encode(hashlib.sha256(path.read_bytes()).digest()).decode() + "'"
    except OSError:
        return ""


SITE_STYLE_HASH = _style_hash(BASE_DIR / "templates" / "site" / "site.css")

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", NONCE, *([SITE_STYLE_HASH] if SITE_STYLE_HASH else [])],
        "img-src": ["'self'", "data:", "blob:", "https:"],  # media may live on an S3 or CDN domain
        "font-src": ["'self'", "data:"],
        "connect-src": ["'self'"],  # covers the admin's same-origin websocket (CSP level 3)
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# Project settings; defaults and documentation live in emdash/conf.py.
EMDASH: dict[str, object] = {
    "SITE_URL": SITE_URL,
    "LOCALES": env_list("EMDASH_LOCALES", "en"),
    "ALLOWED_ORIGINS": env_list("EMDASH_ALLOWED_ORIGINS"),
    "RATE_LIMITS": os.environ.get("EMDASH_RATE_LIMITS", ""),
    "LOGIN_MAX_FAILURES": env_int("EMDASH_LOGIN_MAX_FAILURES"),
    "LOGIN_MAX_FAILURES_PER_IP": env_int("EMDASH_LOGIN_MAX_FAILURES_PER_IP"),
    "LOGIN_LOCKOUT": env_int("EMDASH_LOGIN_LOCKOUT"),
    "WEBHOOKS_ALLOW_PRIVATE": env_bool("EMDASH_WEBHOOKS_ALLOW_PRIVATE", False),
    "AUTH_CACHE_SECONDS": env_float("EMDASH_AUTH_CACHE_SECONDS"),
    "SCHEMA_CHECK_SECONDS": env_float("EMDASH_SCHEMA_CHECK_SECONDS"),
    "ITEM_CACHE_ITEMS": env_int("EMDASH_ITEM_CACHE_ITEMS"),
    "AUDIT_ASYNC": env_bool("EMDASH_AUDIT_ASYNC", True),
    "AUDIT_FLUSH_INTERVAL": env_float("EMDASH_AUDIT_FLUSH_INTERVAL"),
    "HTTP_CACHE_MAX_AGE": env_int("EMDASH_HTTP_CACHE_MAX_AGE"),
    "HTTP_CACHE_S_MAXAGE": env_int("EMDASH_HTTP_CACHE_S_MAXAGE"),
    "CACHE_PURGE": env_json_object("EMDASH_CACHE_PURGE"),
}


# --- Request-body limits and media serving (emdash/edge/limits.py, media/serving.py) ---------------------------
# Sizes in bytes, or with a K/M/G suffix (binary: 4M = 4 MiB).
_MAX_BODY = env_size("EMDASH_MAX_BODY", 4 * 1024 * 1024)
EMDASH["MAX_BODY"] = _MAX_BODY
EMDASH["MAX_UPLOAD"] = env_size("EMDASH_MAX_UPLOAD", 50 * 1024 * 1024)
EMDASH["FETCH_ALLOW_PRIVATE"] = env_bool("EMDASH_FETCH_ALLOW_PRIVATE", False)
# Django's own check on request.body agrees with ours (its 2.5 MiB default answered 500s).
DATA_UPLOAD_MAX_MEMORY_SIZE = _MAX_BODY
# nginx serves the files itself when set (X-Accel-Redirect to this internal location); see docs/production.md.
EMDASH["MEDIA_ACCEL_PREFIX"] = os.environ.get("EMDASH_MEDIA_ACCEL_PREFIX", "")
if (_image_sizes := env_sizes("EMDASH_IMAGE_SIZES")) is not None:
    EMDASH["IMAGE_SIZES"] = _image_sizes
# ----------------------------------------------------------------------------------------------------------

# The REST API (api/): its views set their own parsers, renderers, authentication, route rules and error
# handler (api.base.ApiView), so nothing here changes other DRF views.
REST_FRAMEWORK = {"DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema"}
SPECTACULAR_SETTINGS = {
    "TITLE": "EmDash REST API",
    "DESCRIPTION": "Content, schema, media, taxonomies, menus, settings, search and API tokens. "
    'Errors: {"error": {"code", "message", "details"}} with the same codes as the MCP tools.',
    "VERSION": "1",
    # 3.1: the schemas are JSON Schema 2020-12, as the MCP tools' are (nullable values are anyOf branches).
    "OAS_VERSION": "3.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "SCHEMA_PATH_PREFIX": "/_emdash/api",
    "PREPROCESSING_HOOKS": ["api.openapi.only_rest_routes"],
    # One type per schema (anyOf branches, not type arrays): emdash.operations.single_type.
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "api.openapi.single_types"],
}

# Everything goes to the console (stderr) with the request's trace id ("-" outside a request); every unexpected
# error is one record (emdash.tracing). handler500 (config.views.server_error) shows the same id to the user.
# config/logging.json is the one format: the servers load it too (granian's and uvicorn's ``--log-config``), so
# their own lines before the app is loaded match; every logger (daphne, channels, redis, ...) ends at its root handler.
LOGGING = json.loads((BASE_DIR / "config" / "logging.json").read_text())
LOGGING["loggers"]["emdash"]["level"] = os.environ.get("EMDASH_LOG_LEVEL", "INFO")
