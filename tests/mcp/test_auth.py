"""SPEC 4.1/4.4 on the MCP endpoint: bearer challenges, session cookies, and protected-resource discovery."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client, override_settings
from django.utils import timezone

from accounts.models import PersonalAccessToken
from accounts.tokens import token_revoke
from audit.models import AuditLog
from tests.mcp.conftest import MCP, URL, MakeMCP, body_of, request

pytestmark = pytest.mark.django_db

PING = request("ping")
CHALLENGE = 'Bearer resource_metadata="http://testserver/.well-known/oauth-protected-resource"'
SCOPES = [
    "content:read",
    "content:write",
    "media:read",
    "media:write",
    "schema:read",
    "schema:write",
    "taxonomies:manage",
    "menus:manage",
    "settings:read",
    "settings:manage",
    "admin",
    "content:draft",  # SPEC 9.1
]


def assert_401(response, *, token_sent: bool, challenge_start: str = CHALLENGE) -> None:
    assert response.status_code == 401, (response.status_code, response.content[:200])
    challenge = response["WWW-Authenticate"]
    assert challenge.startswith(challenge_start)
    # Every 401 names the starting scopes a client should ask for (RFC 6750 section 3, MCP 2025-11-25).
    assert 'scope="content:read content:write media:read schema:read"' in challenge
    if token_sent:
        assert 'error="invalid_token"' in challenge
    else:
        assert challenge == challenge_start + ', scope="content:read content:write media:read schema:read"'
    answer = body_of(response)
    assert answer["jsonrpc"] == "2.0" and "error" in answer


# --- no token, bad tokens ------------------------------------------------------------------------------


def test_missing_token_is_401_with_resource_metadata(db: None) -> None:
    response = MCP(Client(), None).post(PING)
    assert_401(response, token_sent=False)


@override_settings(EMDASH={"SITE_URL": "https://cms.example.com/"})
def test_challenge_uses_the_site_url(db: None) -> None:
    response = MCP(Client(), None).post(PING)
    assert_401(
        response,
        token_sent=False,
        challenge_start='Bearer resource_metadata="https://cms.example.com/.well-known/oauth-protected-resource"',
    )


@pytest.mark.parametrize(
    "header",
    [
        "Bearer ec_pat_" + "A" * 43,
        "Bearer ec_pat_",
        "Bearer ",
        "Bearer",
        "Bearer ec_oat_" + "B" * 43,
        "Bearer " + "x" * 5000,
        "Basic dXNlcjpwYXNz",
        "Token ec_pat_abc",
        "bearer   ",
    ],
)
def test_bad_authorization_headers_are_401_invalid_token(db: None, header: str) -> None:
    response = Client().generic(
        "POST",
        URL,
        b'{"jsonrpc":"2.0","id":1,"method":"ping"}',
        content_type="application/json",
        headers={"Authorization": header},
    )
    assert_401(response, token_sent=True)


def test_bearer_scheme_is_case_insensitive(mcp: MCP) -> None:
    response = mcp.post(PING, token=None, headers={"Authorization": f"bearer {mcp.token}"})
    assert response.status_code == 200


def test_a_pat_with_one_character_changed_is_refused(mcp: MCP) -> None:
    raw = mcp.token
    tampered = raw[:-1] + ("A" if raw[-1] != "A" else "B")
    assert_401(mcp.post(PING, token=tampered), token_sent=True)
    assert mcp.post(PING).status_code == 200


def test_expired_token_is_401(make_mcp: MakeMCP) -> None:
    client = make_mcp(expires_days=1)
    assert client.post(PING).status_code == 200
    PersonalAccessToken.objects.filter(pk=client.issued.token.pk).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    assert_401(client.post(PING), token_sent=True)


def test_revoked_token_is_401(mcp: MCP) -> None:
    assert mcp.post(PING).status_code == 200
    token_revoke(user=mcp.user, token_id=mcp.issued.token.pk)
    assert_401(mcp.post(PING), token_sent=True)


def test_token_of_an_inactive_user_is_401(mcp: MCP) -> None:
    mcp.user.is_active = False
    mcp.user.save()
    assert_401(mcp.post(PING), token_sent=True)


def test_bad_token_is_never_403_even_for_tool_calls(make_mcp: MakeMCP) -> None:
    client = make_mcp(token="ec_pat_nope")
    response = client.post(request("tools/call", {"name": "schema_list_collections"}))
    assert_401(response, token_sent=True)
    assert not AuditLog.objects.exists()


def test_token_in_the_query_string_is_ignored(mcp: MCP) -> None:
    for query in (f"access_token={mcp.token}", f"token={mcp.token}", f"authorization=Bearer%20{mcp.token}"):
        response = mcp.post(PING, token=None, path=f"{URL}?{query}")
        assert_401(response, token_sent=False)


def test_token_in_the_body_is_ignored(mcp: MCP) -> None:
    response = mcp.post(
        request("ping", {"_meta": {"access_token": mcp.token}}) | {"access_token": mcp.token}, token=None
    )
    assert_401(response, token_sent=False)


# --- session cookies ------------------------------------------------------------------------------------


@pytest.fixture
def session(mcp: MCP) -> MCP:
    """The admin of ``mcp``, logged in with a session cookie and no bearer token."""
    client = Client()
    client.force_login(mcp.user)
    return MCP(client, None, mcp.user)


def test_session_with_same_origin_is_accepted(session: MCP) -> None:
    response = session.post(PING, headers={"Origin": "http://testserver"})
    assert response.status_code == 200
    assert body_of(response)["result"] == {}


@override_settings(EMDASH={"ALLOWED_ORIGINS": ["https://admin.example.com"]})
def test_session_with_a_configured_origin_is_accepted(session: MCP) -> None:
    assert session.post(PING, headers={"Origin": "https://admin.example.com"}).status_code == 200


def test_session_without_origin_is_401(session: MCP) -> None:
    assert_401(session.post(PING), token_sent=False)


def test_session_with_a_foreign_origin_is_refused(session: MCP) -> None:
    assert session.post(PING, headers={"Origin": "https://evil.example.net"}).status_code in (401, 403)


def test_session_with_loopback_origin_outside_debug_is_refused(session: MCP) -> None:
    with override_settings(DEBUG=False):
        assert session.post(PING, headers={"Origin": "http://localhost:3000"}).status_code in (401, 403)


def test_bad_bearer_token_never_falls_back_to_the_session(session: MCP) -> None:
    response = session.post(PING, token="ec_pat_wrong", headers={"Origin": "http://testserver"})
    assert_401(response, token_sent=True)
    response = session.post(PING, token="", headers={"Origin": "http://testserver"})
    assert_401(response, token_sent=True)


def test_session_of_a_deactivated_user_is_401(session: MCP) -> None:
    session.user.is_active = False
    session.user.save()
    assert_401(session.post(PING, headers={"Origin": "http://testserver"}), token_sent=False)


def test_session_calls_are_audited_without_a_token(session: MCP) -> None:
    response = session.post(
        request("tools/call", {"name": "schema_list_collections"}), headers={"Origin": "http://testserver"}
    )
    assert body_of(response)["result"]["isError"] is False
    row = AuditLog.objects.get()
    assert row.user_id == session.user.pk and row.token_ref == ""


def test_session_role_still_applies(make_mcp: MakeMCP) -> None:
    subscriber = make_mcp("subscriber")
    client = Client()
    client.force_login(subscriber.user)
    response = MCP(client, None).post(
        request("tools/call", {"name": "schema_list_collections"}), headers={"Origin": "http://testserver"}
    )
    assert body_of(response)["error"]["data"]["code"] == "INSUFFICIENT_PERMISSIONS"


# --- discovery ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path", ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/_emdash/api/mcp"]
)
def test_protected_resource_metadata(db: None, path: str) -> None:
    response = Client().get(path)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    document = response.json()
    assert document["resource"] == "http://testserver/_emdash/api/mcp"
    assert document["authorization_servers"] == ["http://testserver/_emdash"]
    assert sorted(document["scopes_supported"]) == sorted(SCOPES)
    assert len(document["scopes_supported"]) == 12
    assert document["bearer_methods_supported"] == ["header"]


@override_settings(EMDASH={"SITE_URL": "https://cms.example.com/"})
def test_protected_resource_metadata_uses_the_site_url(db: None) -> None:
    for path in ("/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/_emdash/api/mcp"):
        document = Client().get(path).json()
        assert document["resource"] == "https://cms.example.com/_emdash/api/mcp"
        assert document["authorization_servers"] == ["https://cms.example.com/_emdash"]


def test_protected_resource_metadata_follows_the_request_origin(db: None) -> None:
    document = (
        Client().get("/.well-known/oauth-protected-resource", secure=True, headers={"Host": "localhost:8443"}).json()
    )
    assert document["resource"] == "https://localhost:8443/_emdash/api/mcp"


def test_challenge_points_at_a_document_that_exists(db: None) -> None:
    challenge = MCP(Client(), None).post(PING)["WWW-Authenticate"]
    url = challenge.split('resource_metadata="', 1)[1].split('"', 1)[0]
    assert url.startswith("http://testserver/")
    response = Client().get(url.removeprefix("http://testserver"))
    assert response.status_code == 200
    assert response.json()["resource"] == "http://testserver" + URL


def test_discovery_needs_no_credentials_and_allows_cors(db: None) -> None:
    response = Client().get("/.well-known/oauth-protected-resource", headers={"Origin": "https://evil.example.net"})
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == "*"
