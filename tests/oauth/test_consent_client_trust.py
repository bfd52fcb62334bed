"""The consent and device pages say whether the client is verified (installed) or registered itself (RFC 7591)."""

from __future__ import annotations

import pytest
from django.test import Client

from emdash.roles import Role
from tests.oauth.conftest import DEVICE_PAGE, authorize_query, logged_in, pkce, start_device

pytestmark = pytest.mark.django_db

EVIL_REDIRECT = "https://callback.attacker.example:8443/cb"


def _register(name: str) -> str:
    body = {"client_name": name, "redirect_uris": [EVIL_REDIRECT], "token_endpoint_auth_method": "none"}
    response = Client().post("/_emdash/api/oauth/register", body, content_type="application/json")
    assert response.status_code == 201, response.content
    return response.json()["client_id"]


def test_a_dynamically_registered_client_is_marked_unverified_with_its_redirect_host():
    client_id = _register("EmDash Official Helper")
    _, challenge = pkce()
    browser, _ = logged_in(Role.EDITOR)
    page = browser.get(authorize_query(challenge, client_id=client_id, redirect_uri=EVIL_REDIRECT))
    assert page.status_code == 200
    text = page.content.decode()
    assert 'data-client-verified="false"' in text and 'data-client-verified="true"' not in text
    assert "Unverified application." in text
    assert "registered itself" in text and "not verified" in text
    assert "<strong>callback.attacker.example:8443</strong>" in text


def test_an_installed_client_is_shown_as_verified(app):
    _, challenge = pkce()
    browser, _ = logged_in(Role.EDITOR)
    text = browser.get(authorize_query(challenge)).content.decode()
    assert 'data-client-verified="true"' in text and "Unverified" not in text


def test_the_emdash_cli_is_shown_as_verified_on_the_device_page(cli_app):
    user_code = start_device().json()["user_code"]
    browser, _ = logged_in(Role.EDITOR, csrf=False)
    page = browser.post(DEVICE_PAGE, {"code": user_code})
    assert page.status_code == 200
    text = page.content.decode()
    assert "device_confirm" in [t.name.rsplit("/", 1)[-1].removesuffix(".html") for t in page.templates]
    assert 'data-client-verified="true"' in text and "Unverified" not in text
