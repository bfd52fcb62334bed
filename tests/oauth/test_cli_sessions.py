"""CLI sessions expire: emdash-cli refresh tokens live CLI_REFRESH_DAYS (sliding), other clients keep 90 days;
`emdash login` asks for the scopes `emdash mcp` needs, not `admin`."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client, override_settings
from django.utils import timezone

from accounts.oauth import tokens
from accounts.oauth.models import RefreshToken
from emdash.cli.main import DEFAULT_SCOPES, build_parser
from emdash.roles import Role
from tests.oauth.conftest import TOKEN, device_decide, logged_in, poll, start_device

pytestmark = pytest.mark.usefixtures("cli_app")


def _cli_tokens(role: Role = Role.ADMIN, scope: str | None = DEFAULT_SCOPES) -> dict:
    started = start_device(**({"scope": scope} if scope else {})).json()
    client, _ = logged_in(role)
    assert device_decide(client, started["user_code"]).status_code == 200
    response = poll(started["device_code"])
    assert response.status_code == 200, response.content
    return response.json()


def _expires_in(raw_refresh: str) -> timedelta:
    row = RefreshToken.objects.get(token_hash=tokens.hash_token(raw_refresh))
    return row.expires_at - timezone.now()


def test_cli_default_scopes_are_what_the_mcp_bridge_needs_not_admin():
    assert "admin" not in DEFAULT_SCOPES.split() and "settings:manage" not in DEFAULT_SCOPES.split()
    assert {"content:write", "media:write", "schema:write"} <= set(DEFAULT_SCOPES.split())
    body = _cli_tokens(Role.ADMIN)
    assert body["scope"] == " ".join(sorted(DEFAULT_SCOPES.split()))  # an admin still gets only these


def test_scopes_flag_overrides_the_default():
    args = build_parser().parse_args(["login", "--scopes", "content:read,admin"])
    assert args.scope == "content:read,admin"
    assert build_parser().parse_args(["login"]).scope is None  # the default applies in _login


def test_cli_refresh_tokens_live_30_days_and_slide_on_refresh():
    first = _cli_tokens()
    assert timedelta(days=29, hours=23) < _expires_in(first["refresh_token"]) <= timedelta(days=30)
    assert first["expires_in"] == 3600
    RefreshToken.objects.update(expires_at=timezone.now() + timedelta(days=2))  # 28 days later...
    response = Client().post(
        TOKEN, {"grant_type": "refresh_token", "refresh_token": first["refresh_token"], "client_id": "emdash-cli"}
    )
    assert response.status_code == 200, response.content
    assert _expires_in(response.json()["refresh_token"]) > timedelta(days=29)  # ...a refresh starts a new period


def test_an_unused_cli_session_ends_after_its_period():
    first = _cli_tokens()
    RefreshToken.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    response = Client().post(
        TOKEN, {"grant_type": "refresh_token", "refresh_token": first["refresh_token"], "client_id": "emdash-cli"}
    )
    assert response.status_code == 400 and response.json()["error"] == "invalid_grant"


@override_settings(EMDASH={"CLI_REFRESH_DAYS": 7})
def test_the_cli_period_is_a_setting():
    assert timedelta(days=6, hours=23) < _expires_in(_cli_tokens()["refresh_token"]) <= timedelta(days=7)


def test_other_clients_keep_90_days(app):
    from tests.oauth.conftest import code_for, exchange

    code, verifier, _ = code_for(Role.EDITOR)
    body = exchange(code, verifier).json()
    assert _expires_in(body["refresh_token"]) > timedelta(days=89)
