"""Issue 21.10 (SPEC 13, "OAuth errors are logged"): every refused OAuth request leaves one line with the error
code, the client and the reason, and never a secret value (code, verifier, refresh token, client secret)."""

from __future__ import annotations

import logging

import pytest
from django.test import Client

from tests.oauth.conftest import REDIRECT, TOKEN, authorize_query, code_for, exchange, logged_in, pkce

pytestmark = pytest.mark.usefixtures("app")
SECRET = "client-secret-value-that-must-not-appear"


def oauth_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "emdash.oauth" and r.levelno >= logging.WARNING]


def test_a_failed_code_exchange_is_logged_without_secrets(caplog):
    code, verifier, _ = code_for()
    wrong = "w" * 50
    with caplog.at_level(logging.INFO):
        response = exchange(code, wrong, client_secret=SECRET)
    assert response.status_code == 400
    [line] = oauth_lines(caplog)
    assert "error=invalid_grant" in line and "client=test-app" in line and "reason=PKCE verification failed" in line
    for secret in (code, verifier, wrong, SECRET):
        assert secret not in caplog.text


def test_a_replay_and_a_bad_refresh_are_logged_without_secrets(caplog):
    code, verifier, _ = code_for()
    tokens = exchange(code, verifier).json()
    with caplog.at_level(logging.INFO):
        exchange(code, verifier)
        refresh = {"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"], "client_id": "test-app"}
        Client().post(TOKEN, refresh)
    lines = oauth_lines(caplog)
    assert len(lines) == 2 and all("error=invalid_grant" in line and "client=test-app" in line for line in lines)
    assert "already used" in lines[0] and "revoked" in lines[1]
    for secret in (code, verifier, tokens["access_token"], tokens["refresh_token"]):
        assert secret not in caplog.text


def test_an_unknown_client_and_a_bad_registration_are_logged(caplog):
    with caplog.at_level(logging.INFO):
        Client().post(TOKEN, {"grant_type": "authorization_code", "client_id": "nobody", "code": "c" * 40})
        Client().post("/_emdash/api/oauth/register", b"{not json", content_type="application/json")
    first, second = oauth_lines(caplog)
    assert "error=invalid_client" in first and "client=nobody" in first
    assert "error=invalid_client_metadata" in second and "client=-" in second
    assert "c" * 40 not in caplog.text


def test_authorization_request_errors_are_logged(caplog):
    _, challenge = pkce()
    client, _ = logged_in()
    with caplog.at_level(logging.INFO):
        redirected = client.get(authorize_query(challenge, code_challenge_method="plain"))
        shown = client.get(authorize_query(challenge, redirect_uri=REDIRECT + "/other"))
    assert redirected.status_code == 302 and shown.status_code == 400
    first, second = oauth_lines(caplog)
    assert "error=invalid_request" in first and "client=test-app" in first and "PKCE is required" in first
    assert "error=invalid_client" in second and "redirect URI" in second
