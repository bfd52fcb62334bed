"""Helpers for the OAuth tests: a registered public client, PKCE pairs, consent as a logged-in user."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from django.core.cache import cache
from django.test import Client

from accounts.oauth import codes
from accounts.oauth.models import OAuthClient
from emdash.roles import Role
from tests.factories import make_user

ORIGIN = "http://testserver"
MCP_URL = ORIGIN + "/_emdash/api/mcp"
REDIRECT = "http://127.0.0.1:8765/callback"
TOKEN = "/_emdash/api/oauth/token"
PASSWORD = "correct-horse-9"


@pytest.fixture(autouse=True)
def _fresh_rate_limits() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def app(db: None) -> OAuthClient:
    return OAuthClient.objects.create(
        client_id="test-app",
        name="Test App",
        redirect_uris=[REDIRECT],
        grant_types=["authorization_code", "refresh_token"],
    )


def pkce() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    return verifier, codes.s256(verifier)


def logged_in(role: Role = Role.EDITOR, *, csrf: bool = True) -> tuple[Client, Any]:
    user = make_user(role, password=PASSWORD)
    client = Client(enforce_csrf_checks=csrf)
    client.force_login(user)
    return client, user


def authorize_query(challenge: str, **overrides: str | None) -> str:
    params: dict[str, str | None] = {
        "response_type": "code",
        "client_id": "test-app",
        "redirect_uri": REDIRECT,
        "state": "st4te",
        "code_challenge": challenge,
        "code_challenge_method": "S256",
        "scope": "content:read content:write schema:write",
        **overrides,
    }
    return "/_emdash/oauth/authorize?" + urlencode({k: v for k, v in params.items() if v is not None})


def csrf_of(client: Client, url: str) -> str:
    page = client.get(url)
    assert page.status_code == 200, page.content[:500]
    return page.context["csrf_token"] if page.context else client.cookies["csrftoken"].value


def consent(
    client: Client, url: str, decision: str = "approve", scopes: list[str] | None = None
) -> dict[str, list[str]]:
    """Load the consent page, submit it with CSRF, and return the redirect's query parameters."""
    token = csrf_of(client, url)
    data: dict[str, Any] = {"csrfmiddlewaretoken": token, "decision": decision}
    if scopes is not None:
        data["scope"] = scopes
    else:
        data["scope"] = ["content:read", "content:write", "schema:write"]
    response = client.post(url, data)
    assert response.status_code == 302, response.content[:500]
    location = response["Location"]
    assert location.startswith(REDIRECT)
    return parse_qs(urlsplit(location).query)


def code_for(role: Role = Role.EDITOR, **overrides: str | None) -> tuple[str, str, Any]:
    """An authorization code (and its verifier) approved by a new user of ``role``."""
    verifier, challenge = pkce()
    client, user = logged_in(role)
    query = consent(client, authorize_query(challenge, **overrides))
    return query["code"][0], verifier, user


def exchange(code: str, verifier: str, **extra: str) -> Any:
    data = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": REDIRECT,
        "client_id": "test-app",
        "code_verifier": verifier,
        **extra,
    }
    return Client().post(TOKEN, data)


def mcp_call(token: str, method: str = "tools/list", params: dict[str, Any] | None = None) -> Any:
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params or {}}
    return Client().post(
        "/_emdash/api/mcp", body, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
    )


DEVICE_CODE = "/_emdash/api/oauth/device/code"
DEVICE_PAGE = "/_emdash/admin/device"
DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"


@pytest.fixture
def cli_app(db: None) -> OAuthClient:
    """The ``emdash-cli`` client as the migration creates it (transactional tests flush it, so re-create it)."""
    import importlib

    migration = importlib.import_module("accounts.oauth.migrations.0002_emdash_cli_client")
    client, _ = OAuthClient.objects.update_or_create(client_id="emdash-cli", defaults=migration.CLI)
    return client


def start_device(client_id: str = "emdash-cli", **extra: str) -> Any:
    return Client().post(DEVICE_CODE, {"client_id": client_id, **extra})


def poll(device_code: str, client_id: str = "emdash-cli") -> Any:
    return Client().post(TOKEN, {"grant_type": DEVICE_GRANT, "device_code": device_code, "client_id": client_id})


def device_decide(client: Client, user_code: str, decision: str = "approve") -> Any:
    """Submit the verification page as the logged-in user (with its CSRF token)."""
    token = csrf_of(client, DEVICE_PAGE + "?code=" + user_code)
    return client.post(DEVICE_PAGE, {"csrfmiddlewaretoken": token, "code": user_code, "decision": decision})
