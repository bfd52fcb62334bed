"""CSRF behind a TLS proxy, with Django's test client (issue 10 item 1): the form posts a browser makes over
https://cms.example.com pass with the derived settings, and fail without them (today's 403)."""

from __future__ import annotations

import re

import pytest
from django.test import Client, override_settings

from tests.factories import make_user

SITE = "https://cms.example.com"
BEHIND_PROXY = {
    "ALLOWED_HOSTS": ["cms.example.com"],
    "CSRF_TRUSTED_ORIGINS": [SITE],
    "SECURE_PROXY_SSL_HEADER": ("HTTP_X_FORWARDED_PROTO", "https"),
    "SESSION_COOKIE_SECURE": True,
    "CSRF_COOKIE_SECURE": True,
}
LOGIN = "/_emdash/admin/login/"


def _login(client: Client, origin: str, proto: str | None) -> int:
    extra = {"HTTP_HOST": "cms.example.com"}
    if proto:
        extra["HTTP_X_FORWARDED_PROTO"] = proto
    page = client.get(LOGIN, **extra)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode())
    assert token
    data = {"email": "ed@example.com", "password": "correct-horse-9", "csrfmiddlewaretoken": token.group(1)}
    return client.post(LOGIN, data, HTTP_ORIGIN=origin, HTTP_REFERER=SITE + LOGIN, **extra).status_code


@pytest.mark.parametrize(
    ("settings_used", "origin", "proto", "expected"),
    [
        (BEHIND_PROXY, SITE, "https", 302),  # the browser behind the proxy: signed in
        (BEHIND_PROXY, "https://evil.example.net", "https", 403),  # a foreign origin: refused
        (BEHIND_PROXY, SITE, None, 302),  # proxy header missing: the origin is still trusted
        ({"ALLOWED_HOSTS": ["cms.example.com"]}, SITE, "https", 403),  # before: no trusted origin, no proxy header
    ],
)
def test_admin_login_csrf_matrix(db: None, settings_used, origin, proto, expected) -> None:
    make_user("editor", email="ed@example.com")
    with override_settings(**settings_used):
        assert _login(Client(enforce_csrf_checks=True), origin, proto) == expected


@override_settings(**BEHIND_PROXY)
def test_cookies_are_secure_and_the_request_counts_as_https(db: None) -> None:
    make_user("editor", email="ed@example.com")
    client = Client(enforce_csrf_checks=True)
    assert _login(client, SITE, "https") == 302
    assert client.cookies["sessionid"]["secure"] and client.cookies["csrftoken"]["secure"]
    response = client.get(
        "/.well-known/oauth-protected-resource", HTTP_HOST="cms.example.com", HTTP_X_FORWARDED_PROTO="https"
    )
    assert response.json()["resource"] == SITE + "/_emdash/api/mcp"


@override_settings(SECURE_SSL_REDIRECT=True)  # the exemption comes from config/settings.py
def test_ssl_redirect_spares_the_health_probe(db: None) -> None:
    assert Client().get("/_emdash/health").status_code == 200
    response = Client().get("/_emdash/admin/login/")
    assert response.status_code == 301 and response["Location"].startswith("https://")
