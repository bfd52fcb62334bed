"""The OAuth pages inside the admin: device approval in the admin layout, and the connected-apps screen."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.oauth.models import AccessToken, AuthorizationCode, RefreshToken
from audit.models import AuditLog
from emdash.roles import Role
from settings_app.localtime import format_datetime_local
from tests.oauth.conftest import (
    DEVICE_PAGE,
    authorize_query,
    code_for,
    consent,
    csrf_of,
    device_decide,
    exchange,
    logged_in,
    mcp_call,
    pkce,
    poll,
    start_device,
)

APPS = "/_emdash/admin/oauth-apps/"
pytestmark = pytest.mark.usefixtures("cli_app", "app")


def _device_tokens(client: Client) -> dict:
    """Start a device flow as ``emdash-cli``, approve it as the client's user, and redeem the tokens."""
    started = start_device().json()
    assert device_decide(client, started["user_code"]).status_code == 200
    tokens = poll(started["device_code"])
    assert tokens.status_code == 200, tokens.content
    return tokens.json()


def _revoke(client: Client, client_id: str, **extra: str):
    token = csrf_of(client, APPS)
    return client.post(f"{APPS}{client_id}/revoke/", {"csrfmiddlewaretoken": token, **extra})


# --- device approval in the admin layout -------------------------------------------------------------------------


def test_every_device_step_renders_inside_the_admin_layout_with_its_nav_entry_current():
    client, _ = logged_in()
    started = start_device().json()
    entry = client.get(DEVICE_PAGE + "?code=" + started["user_code"].replace("-", " ").lower())
    html = entry.content.decode()
    assert entry.status_code == 200 and 'class="sidebar"' in html  # the admin nav
    assert re.search(r'<a href="/_emdash/admin/device" aria-current="page">Connect a device</a>', html)
    assert f'value="{started["user_code"]}"' in html  # normalised pre-fill
    token = csrf_of(client, DEVICE_PAGE)
    confirm = client.post(DEVICE_PAGE, {"csrfmiddlewaretoken": token, "code": started["user_code"]})
    assert confirm.status_code == 200 and 'class="sidebar"' in confirm.content.decode()
    assert "Approve <strong>EmDash CLI</strong>?" in confirm.content.decode()
    done = device_decide(client, started["user_code"])
    assert done.status_code == 200 and 'class="sidebar"' in done.content.decode()
    assert "Device connected" in done.content.decode() and APPS in done.content.decode()


def test_a_wrong_code_shows_the_error_in_the_admin_layout_and_changes_nothing():
    client, _ = logged_in()
    response = device_decide(client, "BCDF-GHJK")
    html = response.content.decode()
    assert response.status_code == 400 and 'class="sidebar"' in html
    assert 'role="alert"' in html and "unknown, expired or already used" in html


def test_the_consent_page_keeps_its_standalone_layout(app):
    client, _ = logged_in()
    page = client.get(authorize_query(pkce()[1]))
    assert page.status_code == 200 and 'class="sidebar"' not in page.content.decode()


def test_the_nav_links_connected_apps_and_device_approval_for_every_role():
    client, _ = logged_in(Role.SUBSCRIBER)
    html = client.get("/_emdash/admin/tokens/").content.decode()
    assert f'href="{APPS}"' in html and f'href="{DEVICE_PAGE}"' in html


# --- connected apps ----------------------------------------------------------------------------------------------


def test_connected_apps_lists_each_client_with_its_live_scopes():
    client, user = logged_in(Role.EDITOR)
    _device_tokens(client)
    mcp_call(_device_tokens(client)["access_token"])  # a second approval of the same client, then used
    other, other_user = logged_in(Role.EDITOR)
    _device_tokens(other)  # someone else's connection is not listed
    page = client.get(APPS)
    html = page.content.decode()
    assert html.count("<strong>EmDash CLI</strong>") == 1 and "2 approvals" in html
    assert "content:read, content:write" in html and other_user.email not in html
    [connection] = page.context["connections"]
    assert connection.user == user and connection.grants == 2
    assert connection.last_used is not None and format_datetime_local(connection.last_used) in html  # site's zone
    assert connection.first_authorised <= connection.last_used


def test_revoking_a_connection_revokes_every_token_and_is_audited():
    client, user = logged_in(Role.EDITOR)
    first, second = _device_tokens(client), _device_tokens(client)
    assert mcp_call(first["access_token"]).status_code == 200
    response = _revoke(client, "emdash-cli")
    assert response.status_code == 302 and response["Location"] == APPS
    for tokens in (first, second):
        assert mcp_call(tokens["access_token"]).status_code == 401
    refreshed = Client().post(
        "/_emdash/api/oauth/token",
        {"grant_type": "refresh_token", "refresh_token": first["refresh_token"], "client_id": "emdash-cli"},
    )
    assert refreshed.status_code == 400 and refreshed.json()["error"] == "invalid_grant"
    assert not AccessToken.objects.filter(user=user, revoked_at__isnull=True).exists()
    assert AuditLog.objects.filter(
        user=user, source="admin", action="oauth.revoke_connection", outcome="ok", target="oauth/emdash-cli"
    ).exists()
    assert "No connected apps." in client.get(APPS).content.decode()


def test_revoking_also_voids_unused_authorization_codes_of_that_client():
    code, verifier, user = code_for(Role.EDITOR)
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    # Redeem one code so the app is connected, and keep a second one unused.
    assert exchange(code, verifier).status_code == 200
    verifier2, challenge2 = pkce()
    unused = consent(client, authorize_query(challenge2))["code"][0]
    assert _revoke(client, "test-app").status_code == 302
    late = exchange(unused, verifier2)
    assert late.status_code == 400 and late.json()["error"] == "invalid_grant"
    assert AuthorizationCode.objects.filter(user=user).count() == 2


def test_another_users_connection_cannot_be_revoked():
    owner, owner_user = logged_in(Role.EDITOR)
    tokens = _device_tokens(owner)
    intruder, intruder_user = logged_in(Role.EDITOR)
    response = _revoke(intruder, "emdash-cli", user=str(owner_user.pk))
    assert response.status_code == 302
    assert mcp_call(tokens["access_token"]).status_code == 200  # still works
    assert AuditLog.objects.filter(user=intruder_user, action="oauth.revoke_connection").get().outcome != "ok"
    assert _revoke(intruder, "emdash-cli").status_code == 302  # the intruder has no such connection
    assert mcp_call(tokens["access_token"]).status_code == 200
    assert RefreshToken.objects.filter(user=owner_user, state=RefreshToken.ACTIVE).count() == 1


def test_admins_see_and_revoke_every_users_connections():
    owner, owner_user = logged_in(Role.EDITOR)
    tokens = _device_tokens(owner)
    admin, _ = logged_in(Role.ADMIN)
    assert owner_user.email not in admin.get(APPS).content.decode()
    assert owner_user.email in admin.get(APPS + "?all=1").content.decode()
    assert "All users" not in owner.get(APPS).content.decode()  # editors only ever see their own
    assert owner.get(APPS + "?all=1").context["show_all"] is False
    response = _revoke(admin, "emdash-cli", user=str(owner_user.pk), all="1")
    assert response.status_code == 302 and response["Location"] == APPS + "?all=1"
    assert mcp_call(tokens["access_token"]).status_code == 401


def test_revoking_needs_csrf_and_post():
    client, _ = logged_in(Role.EDITOR)
    tokens = _device_tokens(client)
    assert client.post(f"{APPS}emdash-cli/revoke/").status_code == 403
    assert client.get(f"{APPS}emdash-cli/revoke/").status_code == 405
    assert mcp_call(tokens["access_token"]).status_code == 200


def test_anonymous_visitors_are_sent_to_log_in():
    for url in (APPS, f"{APPS}emdash-cli/revoke/"):
        response = Client().get(url) if url == APPS else Client().post(url)
        assert response.status_code == 302 and response["Location"].startswith("/_emdash/admin/login/")


def test_only_grants_with_a_live_token_are_listed():
    client, user = logged_in(Role.EDITOR)
    _device_tokens(client)
    AccessToken.objects.filter(user=user).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert client.get(APPS).context["connections"][0].client.client_id == "emdash-cli"  # the refresh token lives
    RefreshToken.objects.filter(user=user).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert "No connected apps." in client.get(APPS).content.decode()
    assert _revoke(client, "emdash-cli").status_code == 302
    assert AuditLog.objects.get(action="oauth.revoke_connection").outcome == "NOT_FOUND"
