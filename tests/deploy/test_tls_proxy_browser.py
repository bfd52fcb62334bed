"""Production behind a TLS proxy (issue 10 item 1, SPEC 2), in headless Chromium.

daphne runs with the README's production variables (DEBUG=0, EMDASH_SITE_URL=https://…, EMDASH_TRUST_PROXY=1)
behind ``tls_proxy.TLSProxy``, which terminates HTTPS and forwards with X-Forwarded-Proto/Host/For. An editor
logs in and submits a form: no CSRF 403, the cookies are Secure, HSTS and the CSP arrive, and the browser
reports no Content-Security-Policy violation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher

from accounts.models import PersonalAccessToken
from tests.browser import screenshot
from tests.deploy.tls_proxy import TLSProxy, self_signed_cert
from tests.e2e.admin_helpers import PASSWORD
from tests.factories import make_user
from tests.servers import daphne

pytestmark = [pytest.mark.slow]


def _editor() -> Any:
    """An editor whose password the daphne process can check: the suite hashes with MD5 (fast), which the
    server's default PASSWORD_HASHERS do not accept, so store a (cheap) PBKDF2 hash instead."""
    user = make_user("editor", email="editor@example.com", password=PASSWORD)
    user.password = PBKDF2PasswordHasher().encode(PASSWORD, "prodtestsalt", iterations=1000)
    user.save(update_fields=["password"])
    return user


@pytest.fixture
def proxied_site(cms: None, tmp_path: Any) -> Iterator[str]:
    proxy = TLSProxy(*self_signed_cert(tmp_path))
    env = {"EMDASH_SITE_URL": proxy.url, "EMDASH_TRUST_PROXY": "1", "ALLOWED_HOSTS": "127.0.0.1,localhost"}
    with daphne(env) as (backend, _process):
        proxy.start(int(backend.rsplit(":", 1)[1]))
        try:
            yield proxy.url
        finally:
            proxy.shutdown()
            proxy.server_close()


@pytest.fixture
def tls_page(browser: Any) -> Iterator[Any]:
    """A page that accepts the throwaway certificate (the shared ``browser`` fixture launches Chromium);
    console messages are collected on ``page.console``."""
    context = browser.new_context(ignore_https_errors=True, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.console = []  # type: ignore[attr-defined]
    page.on("console", lambda message: page.console.append(message.text))  # type: ignore[attr-defined]
    yield page
    context.close()


def test_admin_login_and_a_form_post_work_behind_the_tls_proxy(proxied_site: str, tls_page: Any) -> None:
    user = _editor()
    page = tls_page
    first = page.goto(proxied_site + "/_emdash/admin/login/")
    assert first is not None and first.status == 200
    assert first.headers["strict-transport-security"].startswith("max-age=31536000")
    assert "script-src 'self'" in first.headers["content-security-policy"]
    page.get_by_label("Email").fill("editor@example.com")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(proxied_site + "/_emdash/admin/")  # a CSRF 403 would stay on the login URL

    page.get_by_role("link", name="API tokens").click()
    page.get_by_label("Name", exact=True).fill("Behind the proxy")
    page.get_by_role("checkbox", name=re.compile(r"content:read List")).check()
    page.get_by_role("button", name="Create token").click()
    assert page.get_by_label("New token").input_value().startswith("ec_pat_")
    assert PersonalAccessToken.objects.filter(user=user, name="Behind the proxy").exists()
    screenshot(page, "deploy-tls-proxy-token")

    cookies = {c["name"]: c for c in page.context.cookies()}
    assert cookies["sessionid"]["secure"] and cookies["csrftoken"]["secure"]
    assert cookies["sessionid"]["httpOnly"]
    violations = [text for text in page.console if "Content Security Policy" in text]
    assert violations == []


def _csrf_token(html: str) -> str:
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert match, "no CSRF token in the form"
    return match.group(1)


def test_the_same_journey_over_https_without_a_browser(proxied_site: str) -> None:
    """What the browser does, step by step over the proxy (runs where Chromium is not installed)."""
    user = _editor()
    with httpx.Client(base_url=proxied_site, verify=False) as client:
        login = client.get("/_emdash/admin/login/")
        assert "Secure" in login.headers["set-cookie"]
        origin = {"Origin": proxied_site, "Referer": proxied_site + "/_emdash/admin/login/"}
        form = {"email": "editor@example.com", "password": PASSWORD, "csrfmiddlewaretoken": _csrf_token(login.text)}
        signed_in = client.post("/_emdash/admin/login/", data=form, headers=origin)
        assert signed_in.status_code == 302, signed_in.text[:300]
        assert signed_in.headers["location"] == "/_emdash/admin/"
        assert all("Secure" in c for c in signed_in.headers.get_list("set-cookie"))
        page = client.get("/_emdash/admin/tokens/")
        data = {"name": "Over TLS", "scopes": "content:read", "csrfmiddlewaretoken": _csrf_token(page.text)}
        created = client.post("/_emdash/admin/tokens/", data=data, headers=origin)
        assert created.status_code in (200, 302), created.text[:300]
        forged = client.post("/_emdash/admin/tokens/", data=data, headers={"Origin": "https://evil.example.net"})
        assert forged.status_code == 403
    assert list(PersonalAccessToken.objects.filter(user=user).values_list("name", flat=True)) == ["Over TLS"]


def test_plain_http_to_the_backend_redirects_except_the_health_probe(cms: None) -> None:
    """Without the proxy's X-Forwarded-Proto the request is plain HTTP: redirected to HTTPS, but the load
    balancer's health probe is answered as is; a client cannot fake the header past the trusted proxy."""
    env = {"EMDASH_SITE_URL": "https://cms.example.com", "EMDASH_TRUST_PROXY": "1", "ALLOWED_HOSTS": "127.0.0.1"}
    with daphne(env) as (backend, _process):
        assert httpx.get(backend + "/_emdash/health").status_code == 200
        login = httpx.get(backend + "/_emdash/admin/login/")
        assert login.status_code == 301 and login.headers["location"].startswith("https://127.0.0.1")
        secure = httpx.get(backend + "/_emdash/admin/login/", headers={"X-Forwarded-Proto": "https"})
        assert secure.status_code == 200
