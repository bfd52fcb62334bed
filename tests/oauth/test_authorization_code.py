"""Authorization code + PKCE: consent (login, CSRF, role clamping, deny), exact redirect URIs, single-use codes."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client

from accounts.oauth.models import AccessToken, AuthorizationCode
from emdash.roles import Role
from tests.oauth.conftest import (
    MCP_URL,
    REDIRECT,
    authorize_query,
    code_for,
    consent,
    exchange,
    logged_in,
    mcp_call,
    pkce,
)

pytestmark = pytest.mark.usefixtures("app")


def test_authorize_sends_anonymous_visitors_to_the_login_page_and_back():
    _, challenge = pkce()
    url = authorize_query(challenge)
    response = Client().get(url)
    assert response.status_code == 302
    assert response["Location"].startswith("/_emdash/admin/login/?next=")
    login_page = Client().get(response["Location"])
    assert login_page.status_code == 200
    assert b'name="password"' in login_page.content


def test_consent_page_lists_requested_scopes_and_marks_those_the_role_cannot_hold():
    _, challenge = pkce()
    client, _ = logged_in(Role.AUTHOR)
    page = client.get(authorize_query(challenge))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Test App" in text and "content:write" in text
    assert "schema:write</code> (not available to your role)" in text


def test_full_code_exchange_issues_hashed_tokens_bound_to_the_mcp_url():
    code, verifier, user = code_for(Role.EDITOR)
    response = exchange(code, verifier)
    assert response.status_code == 200, response.content
    assert response["Cache-Control"] == "no-store"
    body = response.json()
    assert body["access_token"].startswith("ec_oat_") and body["refresh_token"].startswith("ec_ort_")
    assert body["token_type"] == "Bearer" and body["expires_in"] == 3600
    assert body["scope"] == "content:read content:write"  # schema:write clamped away for an editor
    row = AccessToken.objects.get(user=user)
    assert row.resource == MCP_URL
    assert body["access_token"] not in str(list(AccessToken.objects.values()))  # only the hash is stored
    assert mcp_call(body["access_token"]).status_code == 200


def test_granted_scopes_are_requested_and_selected_and_allowed():
    verifier, challenge = pkce()
    client, _ = logged_in(Role.ADMIN)
    query = consent(client, authorize_query(challenge), scopes=["content:read", "media:read"])
    body = exchange(query["code"][0], verifier).json()
    assert body["scope"] == "content:read"  # media:read was selected but never requested


def test_deny_redirects_with_access_denied_and_state_and_issues_no_code():
    _, challenge = pkce()
    client, _ = logged_in()
    query = consent(client, authorize_query(challenge), decision="deny")
    assert query["error"] == ["access_denied"] and query["state"] == ["st4te"]
    assert query["iss"] == ["http://testserver/_emdash"]
    assert "code" not in query
    assert not AuthorizationCode.objects.exists()


def test_consent_post_without_csrf_token_is_refused():
    _, challenge = pkce()
    client, _ = logged_in()
    response = client.post(authorize_query(challenge), {"decision": "approve", "scope": ["content:read"]})
    assert response.status_code == 403
    assert not AuthorizationCode.objects.exists()


@pytest.mark.parametrize(
    "redirect",
    [REDIRECT + "/", REDIRECT + "?x=1", "http://127.0.0.1:8766/callback", "https://evil.example/callback", None],
)
def test_a_redirect_uri_not_registered_exactly_gets_an_error_page_not_a_redirect(redirect):
    _, challenge = pkce()
    client, _ = logged_in()
    response = client.get(authorize_query(challenge, redirect_uri=redirect))
    assert response.status_code == 400
    assert b"redirect URI does not exactly match" in response.content


def test_unknown_client_gets_an_error_page():
    _, challenge = pkce()
    client, _ = logged_in()
    response = client.get(authorize_query(challenge, client_id="nope"))
    assert response.status_code == 400 and b"Unknown client" in response.content


@pytest.mark.parametrize(
    ("overrides", "error"),
    [
        ({"code_challenge_method": "plain"}, "invalid_request"),
        ({"code_challenge_method": None}, "invalid_request"),
        ({"code_challenge": None}, "invalid_request"),
        ({"response_type": "token"}, "unsupported_response_type"),
        ({"scope": "content:read root"}, "invalid_scope"),
        ({"resource": "https://other.example/mcp"}, "invalid_target"),
    ],
)
def test_bad_authorization_requests_redirect_back_with_the_rfc_error(overrides, error):
    _, challenge = pkce()
    client, _ = logged_in()
    response = client.get(authorize_query(challenge, **overrides))
    assert response.status_code == 302
    query = parse_qs(urlsplit(response["Location"]).query)
    assert query["error"] == [error] and query["state"] == ["st4te"]
    assert not AuthorizationCode.objects.exists()


def test_a_code_works_once_and_a_replay_revokes_the_tokens_it_issued():
    code, verifier, _ = code_for()
    first = exchange(code, verifier)
    assert first.status_code == 200
    second = exchange(code, verifier)
    assert second.status_code == 400 and second.json()["error"] == "invalid_grant"
    assert mcp_call(first.json()["access_token"]).status_code == 401


def test_wrong_verifier_wrong_redirect_or_wrong_client_is_invalid_grant():
    code, verifier, _ = code_for()
    assert exchange(code, "x" * 50).json()["error"] == "invalid_grant"
    code, verifier, _ = code_for()
    assert exchange(code, verifier, redirect_uri=REDIRECT + "/").json()["error"] == "invalid_grant"
    code, verifier, _ = code_for()
    assert exchange(code, verifier, client_id="emdash-cli").json()["error"] == "unauthorized_client"


def test_expired_codes_are_refused():
    code, verifier, _ = code_for()
    AuthorizationCode.objects.update(expires_at="2000-01-01T00:00:00Z")
    response = exchange(code, verifier)
    assert response.status_code == 400 and response.json()["error"] == "invalid_grant"
    assert not AccessToken.objects.exists()


def test_token_request_for_a_foreign_resource_is_invalid_target_and_spends_nothing():
    code, verifier, _ = code_for()
    response = exchange(code, verifier, resource="https://other.example/_emdash/api/mcp")
    assert response.status_code == 400 and response.json()["error"] == "invalid_target"
    assert exchange(code, verifier, resource=MCP_URL).status_code == 200


def test_token_endpoint_accepts_json_bodies():
    code, verifier, _ = code_for()
    body = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": REDIRECT,
        "client_id": "test-app",
        "code_verifier": verifier,
    }
    response = Client().post("/_emdash/api/oauth/token", body, content_type="application/json")
    assert response.status_code == 200, response.content


@pytest.mark.parametrize(
    ("data", "status", "error"),
    [
        ({}, 400, "invalid_request"),
        ({"grant_type": "password"}, 400, "unsupported_grant_type"),
        ({"grant_type": "authorization_code"}, 401, "invalid_client"),
        ({"grant_type": "authorization_code", "client_id": "nope"}, 401, "invalid_client"),
        ({"grant_type": "authorization_code", "client_id": "test-app"}, 400, "invalid_request"),
    ],
)
def test_malformed_token_requests_get_plain_rfc_errors(data, status, error):
    response = Client().post("/_emdash/api/oauth/token", data)
    assert response.status_code == status
    assert response.json()["error"] == error and "error_description" in response.json()


@pytest.mark.django_db(transaction=True)
def test_concurrent_exchanges_of_one_code_succeed_exactly_once(app):
    import threading

    from django.db import connections

    code, verifier, _ = code_for()
    barrier = threading.Barrier(6)
    statuses: list[int] = []

    def attempt() -> None:
        try:
            barrier.wait()
            statuses.append(exchange(code, verifier).status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=attempt) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(statuses) == [200] + [400] * 5
    assert AccessToken.objects.count() == 1


def test_resolving_an_oauth_token_is_one_query_plus_a_last_used_stamp_a_minute(django_assert_num_queries):
    from accounts.auth import resolve_bearer

    code, verifier, user = code_for()
    raw = exchange(code, verifier).json()["access_token"]
    with django_assert_num_queries(2):  # the lookup, and (first use this minute) the last-used stamp, as for PATs
        resolve_bearer(raw, MCP_URL)
    with django_assert_num_queries(1):
        actor = resolve_bearer(raw, MCP_URL)
    assert actor is not None and actor.user == user and actor.token_id.startswith("oauth:")
    assert actor.client_id == "test-app"
    assert resolve_bearer(raw) is None  # no audience, no OAuth token
    assert resolve_bearer(raw, "https://other.example/_emdash/api/mcp") is None
