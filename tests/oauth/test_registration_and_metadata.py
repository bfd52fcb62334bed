"""Dynamic client registration (RFC 7591), discovery documents, and the dependency pins the issue asks for."""

from __future__ import annotations

import orjson
import pytest
from django.test import Client

from accounts.oauth.models import OAuthClient
from config.layout import PACKAGES
from emdash import scopes

REGISTER = "/_emdash/api/oauth/register"


def _register(body: object):
    return Client().post(REGISTER, orjson.dumps(body), content_type="application/json")


@pytest.mark.django_db
def test_a_public_client_registers_and_gets_a_client_id():
    response = _register(
        {"client_name": "Claude", "redirect_uris": ["https://claude.ai/cb", "http://127.0.0.1:33418/cb"]}
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["client_id"].startswith("ec_client_") and body["token_endpoint_auth_method"] == "none"
    assert "client_secret" not in body
    assert body["grant_types"] == ["authorization_code", "refresh_token"]
    assert OAuthClient.objects.get(client_id=body["client_id"]).registered_dynamically


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"redirect_uris": ["http://evil.example/cb"]}, "invalid_redirect_uri"),
        ({"redirect_uris": ["https://ok.example/cb#frag"]}, "invalid_redirect_uri"),
        ({"redirect_uris": ["myapp://cb"]}, "invalid_redirect_uri"),
        ({"redirect_uris": []}, "invalid_redirect_uri"),
        ({}, "invalid_redirect_uri"),
        ({"redirect_uris": ["https://ok.example/cb"], "token_endpoint_auth_method": "client_secret_basic"},
         "invalid_client_metadata"),
        ({"redirect_uris": ["https://ok.example/cb"], "grant_types": ["implicit"]}, "invalid_client_metadata"),
        ({"redirect_uris": ["https://ok.example/cb"], "response_types": ["token"]}, "invalid_client_metadata"),
        (["not", "an", "object"], "invalid_client_metadata"),
    ],
)  # fmt: skip
def test_bad_registrations_are_refused_and_create_nothing(body, error):
    response = _register(body)
    assert response.status_code == 400 and response.json()["error"] == error
    assert not OAuthClient.objects.filter(registered_dynamically=True).exists()


@pytest.mark.django_db
def test_registration_is_rate_limited():
    for _ in range(10):
        assert _register({"redirect_uris": ["https://ok.example/cb"]}).status_code == 201
    limited = _register({"redirect_uris": ["https://ok.example/cb"]})
    assert limited.status_code == 429 and int(limited["Retry-After"]) > 0
    assert OAuthClient.objects.filter(registered_dynamically=True).count() == 10


def test_authorization_server_metadata_lists_every_endpoint():
    response = Client().get("/.well-known/oauth-authorization-server/_emdash")
    assert response.status_code == 200
    body = response.json()
    origin = "http://testserver"
    assert body["issuer"] == origin + "/_emdash"
    assert body["authorization_endpoint"] == origin + "/_emdash/oauth/authorize"
    assert body["token_endpoint"] == origin + "/_emdash/api/oauth/token"
    assert body["registration_endpoint"] == origin + "/_emdash/api/oauth/register"
    assert body["revocation_endpoint"] == origin + "/_emdash/api/oauth/token/revoke"
    assert body["device_authorization_endpoint"] == origin + "/_emdash/api/oauth/device/code"
    assert body["response_types_supported"] == ["code"]
    assert body["grant_types_supported"] == [
        "authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code",
    ]  # fmt: skip
    assert body["code_challenge_methods_supported"] == ["S256"]
    assert body["token_endpoint_auth_methods_supported"] == ["none"]
    assert body["scopes_supported"] == list(scopes.ALL)


def test_metadata_uses_the_configured_site_url(settings):
    settings.EMDASH = {**settings.EMDASH, "SITE_URL": "https://cms.example.com/"}
    body = Client().get("/.well-known/oauth-authorization-server/_emdash").json()
    assert body["issuer"] == "https://cms.example.com/_emdash"
    prm = Client().get("/.well-known/oauth-protected-resource").json()
    assert prm["authorization_servers"] == [body["issuer"]]
    assert prm["resource"] == "https://cms.example.com/_emdash/api/mcp"


def test_django_oauth_toolkit_and_oauthlib_are_gone(settings):
    """SPEC 1: our OAuth server implements the grants itself; DOT and oauthlib are neither installed nor imported."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    pyproject = (root / "pyproject.toml").read_text()
    assert "django-oauth-toolkit" not in pyproject and "oauthlib" not in pyproject
    assert "oauth2_provider" not in settings.INSTALLED_APPS
    for source in (path for app in PACKAGES for path in (root / app).rglob("*.py") if "migrations" not in path.parts):
        text = source.read_text()
        assert "oauth2_provider" not in text and "import oauthlib" not in text, source


@pytest.mark.django_db
def test_the_cli_client_exists_from_the_migration():
    """No fixture creates it here: the row comes from emdash_oauth.0002 (db tests run before flushing ones)."""
    client = OAuthClient.objects.get(client_id="emdash-cli")
    assert client.grant_types == ["refresh_token", "urn:ietf:params:oauth:grant-type:device_code"]
    assert client.redirect_uris == [] and not client.registered_dynamically
