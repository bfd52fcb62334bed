"""The device authorization grant (RFC 8628) and the gaps django-oauth-toolkit leaves open."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connections
from django.test import Client
from django.utils import timezone

from accounts.oauth import device
from accounts.oauth.models import AccessToken, DeviceCode, OAuthClient
from emdash.roles import Role
from tests.oauth.conftest import DEVICE_PAGE, device_decide, logged_in, mcp_call, poll, start_device

pytestmark = pytest.mark.usefixtures("cli_app")


def _started(**extra: str) -> dict:
    response = start_device(**extra)
    assert response.status_code == 200, response.content
    return response.json()


def _approved(role: Role = Role.EDITOR, **extra: str) -> tuple[dict, object]:
    started = _started(**extra)
    client, user = logged_in(role)
    assert device_decide(client, started["user_code"]).status_code == 200
    return started, user


def test_device_code_response_has_every_rfc_field():
    body = _started()
    assert set(body) == {
        "device_code", "user_code", "verification_uri", "verification_uri_complete", "expires_in", "interval",
    }  # fmt: skip
    assert body["verification_uri"] == "http://testserver/_emdash/admin/device"
    assert body["verification_uri_complete"] == body["verification_uri"] + "?code=" + body["user_code"]
    assert body["expires_in"] == 900 and body["interval"] == 5
    code = body["user_code"]
    assert len(code) == 9 and code[4] == "-" and all(ch in device.USER_CODE_ALPHABET for ch in code.replace("-", ""))


def test_full_device_flow_pending_then_tokens_once():
    started = _started()
    pending = poll(started["device_code"])
    assert pending.status_code == 400 and pending.json()["error"] == "authorization_pending"
    client, _ = logged_in(Role.AUTHOR)
    confirm = device_decide(client, started["user_code"].lower(), "lookup")
    assert confirm.status_code == 200 and b"Approve <strong>EmDash CLI</strong>" in confirm.content
    assert DeviceCode.objects.get().status == "pending"
    done = device_decide(client, started["user_code"])
    assert done.status_code == 200 and b"Device connected" in done.content
    DeviceCode.objects.update(last_polled_at=None)
    tokens = poll(started["device_code"])
    assert tokens.status_code == 200, tokens.content
    body = tokens.json()
    assert body["scope"] == "content:draft content:read content:write media:read media:write"  # clamped to author
    assert mcp_call(body["access_token"]).status_code == 200


def test_an_approved_device_code_is_redeemed_only_once():
    started, _ = _approved()
    assert poll(started["device_code"]).status_code == 200
    again = poll(started["device_code"])
    assert again.status_code == 400 and again.json()["error"] == "invalid_grant"
    assert AccessToken.objects.count() == 1


def test_an_approved_device_code_cannot_be_redeemed_by_another_client():
    OAuthClient.objects.create(
        client_id="other-cli", name="Other", grant_types=["urn:ietf:params:oauth:grant-type:device_code"]
    )
    started, _ = _approved()
    stolen = poll(started["device_code"], client_id="other-cli")
    assert stolen.status_code == 400 and stolen.json()["error"] == "invalid_grant"
    assert poll(started["device_code"]).status_code == 200  # the rightful client still can


@pytest.mark.django_db(transaction=True)
def test_concurrent_redemptions_of_an_approved_code_issue_exactly_one_token(cli_app):
    started, _ = _approved()
    barrier = threading.Barrier(6)
    statuses: list[int] = []

    def attempt() -> None:
        try:
            barrier.wait()
            statuses.append(poll(started["device_code"]).status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=attempt) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(statuses) == [200] + [400] * 5
    assert AccessToken.objects.count() == 1


def test_polling_faster_than_the_interval_gets_slow_down_and_a_longer_interval():
    started = _started()
    assert poll(started["device_code"]).json()["error"] == "authorization_pending"
    fast = poll(started["device_code"])
    assert fast.status_code == 400 and fast.json()["error"] == "slow_down"
    assert DeviceCode.objects.get().interval == 10
    DeviceCode.objects.update(interval=58)
    poll(started["device_code"])
    assert DeviceCode.objects.get().interval == 60  # capped
    DeviceCode.objects.update(last_polled_at=timezone.now() - timedelta(seconds=61))
    assert poll(started["device_code"]).json()["error"] == "authorization_pending"


def test_a_token_request_without_device_code_is_invalid_request_not_a_500():
    response = Client().post(
        "/_emdash/api/oauth/token",
        {"grant_type": "urn:ietf:params:oauth:grant-type:device_code", "client_id": "emdash-cli"},
    )
    assert response.status_code == 400 and response.json()["error"] == "invalid_request"


def test_denied_codes_answer_access_denied():
    started = _started()
    client, _ = logged_in()
    done = device_decide(client, started["user_code"], "deny")
    assert done.status_code == 200 and b"denied" in done.content
    assert poll(started["device_code"]).json()["error"] == "access_denied"
    assert not AccessToken.objects.exists()


def test_expired_codes_answer_expired_token_and_cannot_be_approved():
    started = _started()
    DeviceCode.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert poll(started["device_code"]).json()["error"] == "expired_token"
    client, _ = logged_in()
    assert device_decide(client, started["user_code"]).status_code == 400
    assert DeviceCode.objects.get().status == "pending"


def test_unknown_device_code_is_invalid_grant():
    assert poll("not-a-real-code").json()["error"] == "invalid_grant"


@pytest.mark.parametrize("typed", ["{lower}", "{spaced}", "{nohyphen}", "  {code}  "])
def test_user_codes_ignore_case_spaces_and_hyphen(typed):
    started = _started()
    code = started["user_code"]
    variants = {
        "lower": code.lower(),
        "spaced": code.replace("-", " "),
        "nohyphen": code.replace("-", ""),
        "code": code,
    }
    client, _ = logged_in()
    assert device_decide(client, typed.format(**variants)).status_code == 200
    assert DeviceCode.objects.get().status == "approved"


def test_the_verification_page_prefills_the_code_and_requires_login():
    started = _started()
    anonymous = Client().get(DEVICE_PAGE + "?code=" + started["user_code"].lower())
    assert anonymous.status_code == 302 and "/_emdash/admin/login/" in anonymous["Location"]
    client, _ = logged_in()
    page = client.get(DEVICE_PAGE + "?code=" + started["user_code"].lower())
    assert f'value="{started["user_code"]}"' in page.content.decode()


def test_approving_without_csrf_is_refused():
    started = _started()
    client, _ = logged_in()
    response = client.post(DEVICE_PAGE, {"code": started["user_code"], "decision": "approve"})
    assert response.status_code == 403
    assert DeviceCode.objects.get().status == "pending"


def test_device_grants_are_clamped_to_the_approving_role():
    started, _ = _approved(Role.SUBSCRIBER, scope="content:read content:write admin")
    assert poll(started["device_code"]).json()["scope"] == "content:read"


def test_approval_with_no_scope_the_role_may_hold_is_refused():
    started = _started(scope="admin")
    client, _ = logged_in(Role.EDITOR)
    response = device_decide(client, started["user_code"])
    assert response.status_code == 400 and b"None of the requested scopes" in response.content
    assert DeviceCode.objects.get().status == "pending"


def test_wrong_user_codes_are_rate_limited_with_retry_after():
    client, _ = logged_in()
    for _ in range(10):
        assert device_decide(client, "BCDF-GHJK").status_code == 400
    limited = device_decide(client, "BCDF-GHJK")
    assert limited.status_code == 429 and int(limited["Retry-After"]) > 0
    started = _started()  # even a right code waits now
    assert device_decide(client, started["user_code"]).status_code == 429


def test_device_code_requests_are_rate_limited_with_retry_after():
    for _ in range(10):
        assert start_device().status_code == 200
    limited = start_device()
    assert limited.status_code == 429 and int(limited["Retry-After"]) > 0
    assert limited.json()["error"] == "rate_limited"


def test_device_polling_is_rate_limited_per_ip():
    started = _started()
    # The limit counts per minute window: a run that straddles a window's end needs up to twice the limit.
    statuses = []
    for _ in range(121):
        statuses.append(poll(started["device_code"]).status_code)
        if statuses[-1] == 429:
            break
    assert 429 in statuses


def test_device_code_for_a_foreign_resource_is_invalid_target():
    response = start_device(resource="https://other.example/_emdash/api/mcp")
    assert response.status_code == 400 and response.json()["error"] == "invalid_target"
    assert not DeviceCode.objects.exists()


def test_clients_without_the_device_grant_cannot_start_it(app):
    response = start_device(client_id="test-app")
    assert response.status_code == 400 and response.json()["error"] == "unauthorized_client"
