"""The device-code journey in headless Chromium: a program asks for a code over HTTP, an editor approves it on the
admin's device page (inside the admin layout), the program polls the token endpoint and gets tokens; then the editor
revokes the program on the Connected apps screen and its token stops working at the MCP endpoint."""

from __future__ import annotations

import time

import httpx
import pytest

from accounts.oauth.models import AccessToken
from tests.browser import screenshot
from tests.e2e.admin_helpers import log_in
from tests.factories import make_user
from tests.oauth.conftest import (  # noqa: F401  (_fresh_rate_limits and cli_app are fixtures)
    DEVICE_CODE,
    DEVICE_GRANT,
    TOKEN,
    _fresh_rate_limits,
    cli_app,
)

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("cli_app")]


def _expect():
    from playwright.sync_api import expect

    return expect


def _poll_until_done(base: str, device_code: str, interval: int, timeout: float = 60) -> httpx.Response:
    """Poll the token endpoint the way RFC 8628 clients do: wait ``interval`` between polls, back off on slow_down."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        time.sleep(interval)
        response = httpx.post(
            base + TOKEN, data={"grant_type": DEVICE_GRANT, "device_code": device_code, "client_id": "emdash-cli"}
        )
        error = response.json().get("error") if response.status_code == 400 else None
        if error == "slow_down":
            interval += 5
        elif error != "authorization_pending":
            return response
    pytest.fail("the device code was never approved")


def _mcp_status(base: str, access_token: str) -> int:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    response = httpx.post(
        base + "/_emdash/api/mcp",
        json=body,
        headers={"Authorization": f"Bearer {access_token}", "Accept": "application/json, text/event-stream"},
    )
    return response.status_code


def test_approve_a_device_code_in_the_admin_then_revoke_the_connected_app(live_server, page):
    make_user("editor", email="editor@example.com")
    expect = _expect()
    base = live_server.url

    started = httpx.post(base + DEVICE_CODE, data={"client_id": "emdash-cli", "scope": "content:read content:write"})
    assert started.status_code == 200, started.text
    grant = started.json()
    first = httpx.post(
        base + TOKEN, data={"grant_type": DEVICE_GRANT, "device_code": grant["device_code"], "client_id": "emdash-cli"}
    )
    assert first.json()["error"] == "authorization_pending"

    log_in(page, base, "editor@example.com")
    page.goto(grant["verification_uri_complete"])
    nav = page.get_by_role("navigation", name="Admin")
    expect(nav.get_by_role("link", name="Connect a device")).to_have_attribute("aria-current", "page")
    expect(page.get_by_label("Code")).to_have_value(grant["user_code"])
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_role("heading", name="Approve EmDash CLI?")).to_be_visible()
    expect(page.get_by_role("checkbox", name="content:write")).to_be_checked()
    screenshot(page, "admin-device-approval")
    page.get_by_role("button", name="Approve", exact=True).click()
    expect(page.get_by_role("heading", name="Device connected")).to_be_visible()

    tokens = _poll_until_done(base, grant["device_code"], grant["interval"])
    assert tokens.status_code == 200, tokens.text
    issued = tokens.json()
    assert issued["scope"] == "content:read content:write" and issued["access_token"].startswith("ec_oat_")
    assert _mcp_status(base, issued["access_token"]) == 200

    page.get_by_role("link", name="See and revoke your connected apps").click()
    expect(page.get_by_role("heading", name="Connected apps")).to_be_visible()
    row = page.get_by_role("row").filter(has_text="EmDash CLI")
    expect(row).to_contain_text("content:read, content:write")
    screenshot(page, "admin-oauth-apps")
    page.once("dialog", lambda dialog: dialog.accept())
    row.get_by_role("button", name="Revoke EmDash CLI").click()
    expect(page.get_by_text("Access revoked")).to_be_visible()
    expect(page.get_by_text("No connected apps.")).to_be_visible()
    assert _mcp_status(base, issued["access_token"]) == 401
    assert not AccessToken.objects.filter(revoked_at__isnull=True).exists()
