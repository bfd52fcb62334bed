"""Django settings, read from environment variables (see the README's Configuration section)."""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("EMDASH_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def _secret_key() -> str:
    """Use SECRET_KEY, else a random key kept under var/ so sessions and cursors survive restarts."""
    if key := os.environ.get("SECRET_KEY"):
        return key
    path = VAR_DIR / "secret_key"
    if not path.exists():
        import secrets

        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1],testserver")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "oauth2_provider",
    "channels",
    "emdash",
    "emdash.oauth",
    "content",
    "media",
    "taxonomy",
    "menus",
    "settings_app",
    "mcp_endpoint",
    "admin_ui",
    "api",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "public_site",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",  # static files under daphne, gunicorn and tests alike
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "emdash.input_guard.BadTextMiddleware",  # NUL / lone surrogates in path, query, forms: 400 (SPEC 2)
]

ROOT_URLCONF = "emdash.urls"
WSGI_APPLICATION = "emdash.wsgi.application"
ASGI_APPLICATION = "emdash.asgi.application"

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


def _databases() -> dict:
    url = os.environ.get("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'emdash.sqlite3'}"
    db = dj_database_url.parse(url, conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")))
    if db["ENGINE"] == "django.db.backends.sqlite3":
        # WAL lets readers run beside the writer; IMMEDIATE takes the write lock at BEGIN, so two
        # writers queue on the busy timeout instead of failing with "database is locked" mid-way.
        db["CONN_MAX_AGE"] = 0
        db["OPTIONS"] = {
            "transaction_mode": "IMMEDIATE",
            "timeout": 30,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=30000;",
        }
        # A file, not :memory:, so tests with threads and subprocesses share one database.
        db["TEST"] = {"NAME": str(VAR_DIR / "test.sqlite3")}
    else:
        db.setdefault("OPTIONS", {})
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
if S3_BUCKET := _env_first("EMDASH_S3_BUCKET", "AWS_STORAGE_BUCKET_NAME"):
    STORAGES["default"] = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": S3_BUCKET,
            "endpoint_url": _env_first("EMDASH_S3_ENDPOINT_URL", "AWS_S3_ENDPOINT_URL"),
            "region_name": _env_first("EMDASH_S3_REGION", "AWS_S3_REGION_NAME"),
            "custom_domain": _env_first("EMDASH_S3_PUBLIC_DOMAIN", "AWS_S3_CUSTOM_DOMAIN"),
            "location": (_env_first("EMDASH_S3_PREFIX") or "").strip("/"),
            "addressing_style": _env_first("AWS_S3_ADDRESSING_STYLE"),
            "querystring_auth": env_bool("AWS_QUERYSTRING_AUTH", True),
            "file_overwrite": False,
        },
    }

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": [REDIS_URL]}}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# Project settings; defaults and documentation live in emdash/conf.py.
EMDASH = {
    "SITE_URL": os.environ.get("EMDASH_SITE_URL", ""),
    "LOCALES": env_list("EMDASH_LOCALES", "en"),
    "ALLOWED_ORIGINS": env_list("EMDASH_ALLOWED_ORIGINS"),
}

# The REST API (api/): its views set their own parsers, renderers, authentication, route rules and error
# handler (api.base.ApiView), so nothing here changes other DRF views.
REST_FRAMEWORK = {"DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema"}
SPECTACULAR_SETTINGS = {
    "TITLE": "EmDash REST API",
    "DESCRIPTION": "Content, schema, media, taxonomies, menus, settings, search and API tokens. "
    'Errors: {"error": {"code", "message", "details"}} with the same codes as the MCP tools.',
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "SCHEMA_PATH_PREFIX": "/_emdash/api",
    "PREPROCESSING_HOOKS": ["api.openapi.only_rest_routes"],
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "loggers": {"emdash": {"handlers": ["console"], "level": os.environ.get("EMDASH_LOG_LEVEL", "INFO")}},
}
