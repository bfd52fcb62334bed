"""Settings derived from EMDASH_SITE_URL and EMDASH_TRUST_PROXY (SPEC 2), and ``check --deploy`` with the
README's production variables: no warning at all (issue 10 item 1)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.e2e.admin_helpers import ROOT

PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "k" * 20 + "8f3kQ0pL2xZ9vR7tY6wE5uI4oP1aS3dF",
    "EMDASH_SITE_URL": "https://cms.example.com",
    "ALLOWED_HOSTS": "cms.example.com",
    "EMDASH_TRUST_PROXY": "1",
    "DATABASE_URL": "postgres://emdash:secret@db.internal:5432/emdash",
}
NAMES = [
    "CSRF_TRUSTED_ORIGINS", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD", "SECURE_SSL_REDIRECT", "SECURE_PROXY_SSL_HEADER",
    "USE_X_FORWARDED_HOST", "EMDASH_TRUST_PROXY", "X_FRAME_OPTIONS", "SECURE_CONTENT_TYPE_NOSNIFF", "DATABASES",
]  # fmt: skip


def _env(extra: dict[str, str]) -> dict[str, str]:
    keep = {k: v for k, v in os.environ.items() if not k.startswith(("EMDASH_", "DATABASE_URL", "DEBUG", "SECRET"))}
    return {
        **keep,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "EMDASH_VAR_DIR": os.environ.get("EMDASH_VAR_DIR", str(ROOT / "var")),
        **extra,
    }


def settings_for(extra: dict[str, str]) -> dict:
    """The settings a fresh process computes from these environment variables."""
    code = (
        "import json, django; from django.conf import settings; django.setup(); "
        f"print(json.dumps({{n: getattr(settings, n, None) for n in {NAMES!r}}}, default=str))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=_env(extra), capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_check_deploy_with_the_readme_production_variables_is_clean() -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=_env(PRODUCTION), capture_output=True, text=True,
    )  # fmt: skip
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "System check identified no issues" in output, output
    assert "WARNING" not in output


def test_check_deploy_still_warns_without_the_site_url() -> None:
    """The check is not silenced wholesale: drop EMDASH_SITE_URL and the cookie/HSTS warnings come back."""
    variables = {k: v for k, v in PRODUCTION.items() if k != "EMDASH_SITE_URL"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT,
        env=_env(variables),
        capture_output=True,
        text=True,
    )
    output = result.stdout + result.stderr
    for check in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert check in output


def test_https_site_behind_a_trusted_proxy() -> None:
    s = settings_for(PRODUCTION)
    assert s["CSRF_TRUSTED_ORIGINS"] == ["https://cms.example.com"]
    assert s["SESSION_COOKIE_SECURE"] and s["CSRF_COOKIE_SECURE"]
    assert s["SECURE_HSTS_SECONDS"] == 31536000 and s["SECURE_HSTS_INCLUDE_SUBDOMAINS"]
    assert s["SECURE_HSTS_PRELOAD"] is False  # opt-in: EMDASH_HSTS_PRELOAD=1
    assert s["SECURE_SSL_REDIRECT"] is True
    assert s["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert s["USE_X_FORWARDED_HOST"] is True and s["EMDASH_TRUST_PROXY"] == 1
    assert s["X_FRAME_OPTIONS"] == "DENY" and s["SECURE_CONTENT_TYPE_NOSNIFF"]


def test_without_trust_proxy_forwarded_headers_do_not_count() -> None:
    s = settings_for({**PRODUCTION, "EMDASH_TRUST_PROXY": "0"})
    assert s["SECURE_PROXY_SSL_HEADER"] is None and s["USE_X_FORWARDED_HOST"] is False
    assert s["EMDASH_TRUST_PROXY"] == 0


def test_development_defaults_stay_plain() -> None:
    s = settings_for({"DEBUG": "1"})
    assert s["CSRF_TRUSTED_ORIGINS"] == [] and not s["SESSION_COOKIE_SECURE"]
    assert s["SECURE_HSTS_SECONDS"] == 0 and not s["SECURE_SSL_REDIRECT"]


def test_allowed_origins_are_trusted_csrf_origins_and_knobs_are_configurable() -> None:
    s = settings_for(
        {**PRODUCTION, "EMDASH_ALLOWED_ORIGINS": "https://app.example.com", "EMDASH_HSTS_SECONDS": "600",
         "EMDASH_HSTS_PRELOAD": "1", "EMDASH_SSL_REDIRECT": "0", "EMDASH_TRUST_PROXY": "2"}
    )  # fmt: skip
    assert s["CSRF_TRUSTED_ORIGINS"] == ["https://cms.example.com", "https://app.example.com"]
    assert s["SECURE_HSTS_SECONDS"] == 600 and s["SECURE_HSTS_PRELOAD"] is True
    assert s["SECURE_SSL_REDIRECT"] is False and s["EMDASH_TRUST_PROXY"] == 2


def test_postgres_uses_a_bounded_pool_and_sqlite_is_unchanged() -> None:
    db = settings_for({**PRODUCTION, "EMDASH_DB_POOL_MAX": "7"})["DATABASES"]["default"]
    assert db["CONN_MAX_AGE"] == 0
    assert db["OPTIONS"]["pool"] == {"min_size": 1, "max_size": 7, "timeout": 10.0}
    unpooled = settings_for({**PRODUCTION, "EMDASH_DB_POOL_MAX": "0"})["DATABASES"]["default"]
    assert "pool" not in unpooled["OPTIONS"]
    sqlite = settings_for({"DATABASE_URL": "sqlite:////tmp/x.sqlite3"})["DATABASES"]["default"]
    assert "pool" not in sqlite["OPTIONS"] and sqlite["OPTIONS"]["transaction_mode"] == "IMMEDIATE"


@pytest.mark.parametrize(
    ("hops", "forwarded", "expected"),
    [
        (0, "203.0.113.7", "10.0.0.2"),  # not trusted: the header is ignored
        (1, "203.0.113.7", "203.0.113.7"),
        (1, "6.6.6.6, 203.0.113.7", "203.0.113.7"),  # the client's own entry on the left is not believed
        (2, "6.6.6.6, 203.0.113.7, 10.0.0.9", "203.0.113.7"),
        (1, "", "10.0.0.2"),
    ],
)
def test_client_ip_reads_x_forwarded_for_only_from_trusted_proxies(settings, hops, forwarded, expected) -> None:
    from django.test import RequestFactory

    from accounts.oauth import ratelimit
    from emdash.edge.proxy import client_ip

    settings.EMDASH_TRUST_PROXY = hops
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=forwarded)
    assert client_ip(request) == expected
    assert ratelimit.client_ip is client_ip  # one definition
