"""Refresh rotation (exactly once, family revocation on reuse), revocation, and bearer checks on the MCP endpoint."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connections
from django.test import Client, override_settings
from django.utils import timezone

from accounts.oauth.models import AccessToken, RefreshToken
from emdash.roles import Role
from tests.oauth.conftest import MCP_URL, TOKEN, code_for, exchange, mcp_call

pytestmark = pytest.mark.usefixtures("app")


def _pair(role: Role = Role.EDITOR) -> dict:
    code, verifier, _ = code_for(role)
    response = exchange(code, verifier)
    assert response.status_code == 200
    return response.json()


def _refresh(refresh_token: str, **extra: str):
    data = {"grant_type": "refresh_token", "refresh_token": refresh_token, "client_id": "test-app", **extra}
    return Client().post(TOKEN, data)


def test_refresh_rotates_the_refresh_token_and_the_old_access_token_keeps_working_until_expiry():
    first = _pair()
    response = _refresh(first["refresh_token"])
    assert response.status_code == 200, response.content
    second = response.json()
    assert second["refresh_token"] != first["refresh_token"]
    assert second["scope"] == first["scope"]
    assert mcp_call(second["access_token"]).status_code == 200
    assert RefreshToken.objects.filter(state="rotated").count() == 1


def _age_rotations(seconds: float) -> None:
    """Move every rotation ``seconds`` into the past (as if that much time had passed since)."""
    for row in RefreshToken.objects.filter(state="rotated"):
        row.rotated_at -= timedelta(seconds=seconds)
        row.save(update_fields=["rotated_at"])


def test_reusing_a_rotated_refresh_token_after_the_grace_period_revokes_the_whole_family():
    """SPEC 4.2: reuse more than 30 s after the rotation is treated as theft."""
    first = _pair()
    second = _refresh(first["refresh_token"]).json()
    _age_rotations(31)
    reuse = _refresh(first["refresh_token"])
    assert reuse.status_code == 400 and reuse.json()["error"] == "invalid_grant"
    assert mcp_call(second["access_token"]).status_code == 401
    assert _refresh(second["refresh_token"]).json()["error"] == "invalid_grant"


def test_reusing_a_just_rotated_refresh_token_is_refused_without_revoking_the_family():
    """SPEC 4.2: within 30 s of the rotation a second presentation is a race or a retry, not theft."""
    first = _pair()
    second = _refresh(first["refresh_token"]).json()
    _age_rotations(29)
    reuse = _refresh(first["refresh_token"])
    assert reuse.status_code == 400 and reuse.json()["error"] == "invalid_grant"
    assert "just rotated" in reuse.json()["error_description"]
    assert mcp_call(second["access_token"]).status_code == 200
    third = _refresh(second["refresh_token"])
    assert third.status_code == 200 and mcp_call(third.json()["access_token"]).status_code == 200


def test_refresh_may_narrow_scopes_but_not_widen_them():
    first = _pair()
    wider = _refresh(first["refresh_token"], scope="content:read admin")
    assert wider.json()["error"] == "invalid_scope"
    narrower = _refresh(first["refresh_token"], scope="content:read")  # the refused request changed nothing
    assert narrower.status_code == 200 and narrower.json()["scope"] == "content:read"


def test_refresh_clamps_to_the_current_role():
    code, verifier, user = code_for(Role.EDITOR)
    first = exchange(code, verifier).json()
    user.role = Role.SUBSCRIBER
    user.save()
    assert _refresh(first["refresh_token"]).json()["scope"] == "content:read"


def test_refresh_for_a_foreign_resource_is_invalid_target_and_keeps_the_token():
    first = _pair()
    foreign = _refresh(first["refresh_token"], resource="https://other.example/_emdash/api/mcp")
    assert foreign.status_code == 400 and foreign.json()["error"] == "invalid_target"
    assert _refresh(first["refresh_token"], resource=MCP_URL).status_code == 200


def test_expired_refresh_tokens_are_refused():
    first = _pair()
    RefreshToken.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert _refresh(first["refresh_token"]).json()["error"] == "invalid_grant"


@pytest.mark.django_db(transaction=True)
def test_concurrent_refreshes_of_one_token_give_one_success_and_the_session_survives(app):
    """SPEC 4.2: 16 parallel refreshes → exactly one success; the losers get invalid_grant and revoke nothing."""
    first = _pair()
    barrier = threading.Barrier(16)
    responses: list = []

    def attempt() -> None:
        try:
            barrier.wait()
            responses.append(_refresh(first["refresh_token"]))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=attempt) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(r.status_code for r in responses) == [200] + [400] * 15
    assert {r.json()["error"] for r in responses if r.status_code == 400} == {"invalid_grant"}
    winner = next(r.json() for r in responses if r.status_code == 200)
    assert mcp_call(winner["access_token"]).status_code == 200
    again = _refresh(winner["refresh_token"])
    assert again.status_code == 200, again.content
    assert mcp_call(again.json()["access_token"]).status_code == 200
    # Only later reuse of the first token is theft: it revokes the whole family, the newest pair included.
    _age_rotations(31)
    assert _refresh(first["refresh_token"]).json()["error"] == "invalid_grant"
    assert mcp_call(again.json()["access_token"]).status_code == 401


def test_revoking_a_refresh_token_revokes_its_family_and_answers_200():
    first = _pair()
    response = Client().post(
        "/_emdash/api/oauth/token/revoke", {"token": first["refresh_token"], "client_id": "test-app"}
    )
    assert response.status_code == 200
    assert mcp_call(first["access_token"]).status_code == 401
    assert _refresh(first["refresh_token"]).json()["error"] == "invalid_grant"


def test_revoking_an_access_token_or_an_unknown_token():
    first = _pair()
    revoke = "/_emdash/api/oauth/token/revoke"
    assert Client().post(revoke, {"token": "ec_oat_unknown", "client_id": "test-app"}).status_code == 200
    assert Client().post(revoke, {"token": first["access_token"], "client_id": "test-app"}).status_code == 200
    assert mcp_call(first["access_token"]).status_code == 401
    assert _refresh(first["refresh_token"]).status_code == 200  # only the access token was revoked


def test_another_client_cannot_revoke_a_token():
    first = _pair()
    response = Client().post(
        "/_emdash/api/oauth/token/revoke", {"token": first["access_token"], "client_id": "emdash-cli"}
    )
    assert response.status_code == 200
    assert mcp_call(first["access_token"]).status_code == 200


def _assert_challenge(response) -> None:
    assert response.status_code == 401
    challenge = response["WWW-Authenticate"]
    assert 'resource_metadata="http://testserver/.well-known/oauth-protected-resource"' in challenge
    assert 'error="invalid_token"' in challenge


def test_expired_revoked_and_unknown_oauth_tokens_get_401_with_the_challenge_on_mcp():
    first = _pair()
    AccessToken.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    _assert_challenge(mcp_call(first["access_token"]))
    second = _pair()
    AccessToken.objects.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())
    _assert_challenge(mcp_call(second["access_token"]))
    _assert_challenge(mcp_call("ec_oat_" + "x" * 43))


def test_a_token_bound_to_another_resource_is_401_not_403():
    first = _pair()
    with override_settings(EMDASH={"SITE_URL": "https://cms.example.com"}):
        response = mcp_call(first["access_token"])
    assert response.status_code == 401
    assert (
        'resource_metadata="https://cms.example.com/.well-known/oauth-protected-resource"'
        in response["WWW-Authenticate"]
    )


def test_a_bad_oauth_token_never_falls_back_to_the_session_cookie():
    first = _pair()
    AccessToken.objects.update(revoked_at=timezone.now())
    client = Client()
    from tests.factories import make_user

    client.force_login(make_user(Role.ADMIN))
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    response = client.post(
        "/_emdash/api/mcp",
        body,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {first['access_token']}",
        HTTP_ORIGIN="http://testserver",
    )
    assert response.status_code == 401


def test_tokens_in_the_query_string_are_ignored():
    first = _pair()
    response = Client().post(
        f"/_emdash/api/mcp?access_token={first['access_token']}",
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        content_type="application/json",
    )
    assert response.status_code == 401
    assert 'error="invalid_token"' not in response["WWW-Authenticate"]


def test_oauth_scopes_limit_tool_calls():
    code, verifier, _ = code_for(Role.ADMIN, scope="content:read")
    token = exchange(code, verifier).json()["access_token"]
    response = mcp_call(token, "tools/call", {"name": "schema_list_collections", "arguments": {}})
    assert response.status_code == 403  # step-up: the challenge names the scope to ask for
    assert 'error="insufficient_scope", scope="schema:read"' in response["WWW-Authenticate"]
    error = response.json()["error"]
    assert error["data"]["code"] == "INSUFFICIENT_SCOPE" and error["data"]["requiredScope"] == "schema:read"


def test_userinfo_answers_for_the_bearer():
    first = _pair(Role.AUTHOR)
    response = Client().get("/_emdash/api/oauth/userinfo", HTTP_AUTHORIZATION=f"Bearer {first['access_token']}")
    assert response.status_code == 200
    body = response.json()
    assert body["role"] == "author" and body["client_id"] == "test-app"
    assert Client().get("/_emdash/api/oauth/userinfo").status_code == 401
