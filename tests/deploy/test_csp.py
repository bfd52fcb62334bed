"""One Content-Security-Policy (django-csp) on every HTML page: no inline script, inline <style> only with the
request's nonce or, on public pages, by its hash, no style attributes or inline event handlers in any template
(issue 10 item 10)."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import pytest
from django.test import Client

from tests.factories import make_user

ROOT = Path(__file__).resolve().parents[2]


def _policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in header.split(";") if part.strip()}


def _assert_strict(response) -> dict[str, list[str]]:
    policy = _policy(response)
    assert policy["script-src"] == ["'self'"]
    assert policy["default-src"] == ["'self'"] and policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"] and policy["base-uri"] == ["'self'"]
    assert "'unsafe-inline'" not in policy["style-src"]
    html = response.content.decode()
    for nonce in re.findall(r"<style nonce=\"([^\"]+)\"", html):
        assert f"'nonce-{nonce}'" in policy["style-src"]
    assert not re.search(r"<script(?![^>]*\bsrc=)", html), "inline script"
    # Without a nonce (the public pages, so that a shared cache may keep them) only by the hash of its content.
    for css in re.findall(r"<style>(.*?)</style>", html, re.S):
        digest = base64.b64encode(hashlib.sha256(css.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in policy["style-src"], "inline style without the nonce or its hash"
    assert not re.search(r"<style(?![^>]*\bnonce=)[^>]+>", html), "inline style with other attributes"
    return policy


@pytest.mark.parametrize("path", ["/_emdash/admin/login/", "/", "/search/?q=x", "/no-such-page/"])
def test_anonymous_pages(db: None, path: str) -> None:
    _assert_strict(Client().get(path))


def test_signed_in_admin_consent_and_device_pages(db: None) -> None:
    client = Client()
    client.force_login(make_user("admin"))
    for path in (
        "/_emdash/admin/",
        "/_emdash/admin/tokens/",
        "/_emdash/admin/device",
        "/_emdash/oauth/authorize?client_id=nope",
    ):
        response = client.get(path)
        assert response.status_code in (200, 400), (path, response.status_code)
        _assert_strict(response)


def test_the_api_docs_page_gets_only_the_style_allowance_it_needs(db: None) -> None:
    page = Client().get("/_emdash/api/docs/")
    assert page.status_code == 200
    policy = _policy(page)
    assert policy["script-src"] == ["'self'"] and "'unsafe-inline'" in policy["style-src"]
    script = re.search(r'<script src="([^"]+\?script[^"]*)"', page.content.decode())
    assert script, "Swagger UI's initialiser must be an external script"
    served = Client().get(script.group(1).replace("&amp;", "&"))
    assert served.status_code == 200 and b"SwaggerUIBundle" in served.content


def test_no_template_has_inline_script_handlers_or_style_attributes() -> None:
    templates = [*ROOT.glob("templates/**/*.html"), *ROOT.glob("*/templates/**/*.html")]
    assert templates
    for template in templates:
        text = template.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)", text), template
        assert not re.search(r"\son[a-z]+\s*=", text), template
        assert not re.search(r"\sstyle\s*=", text), template
        assert "javascript:" not in text, template


def test_the_policy_kept_per_process_follows_the_settings(db: None, settings) -> None:
    # The header, the excluded prefixes and DEBUG are read once per process (emdash.edge.csp): a change of the
    # settings must still reach the next response.
    assert "Content-Security-Policy" in Client().get("/no-such-page/")
    settings.DEBUG = True  # Django's debug 404 page brings its own inline styles: django-csp leaves it bare
    assert "Content-Security-Policy" not in Client().get("/no-such-page/")
    settings.DEBUG = False
    settings.CONTENT_SECURITY_POLICY = {**settings.CONTENT_SECURITY_POLICY, "EXCLUDE_URL_PREFIXES": ["/search/"]}
    assert "Content-Security-Policy" not in Client().get("/search/?q=x")
    assert "Content-Security-Policy" in Client().get("/")
    directives = {**settings.CONTENT_SECURITY_POLICY["DIRECTIVES"], "frame-ancestors": ["'self'"]}
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": directives}
    assert _policy(Client().get("/"))["frame-ancestors"] == ["'self'"]
