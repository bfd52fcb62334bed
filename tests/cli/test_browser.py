"""Real headless browser (Debian's chromium driven by Playwright): ``emdash login`` approved through the login page
and the verification page (code pre-filled, continue, approve); and the consent page of the code flow.

Playwright comes with the admin UI's dev dependencies; without it, or without /usr/bin/chromium, this test skips
with the reason (the same flow runs over plain HTTP in test_cli_e2e.py).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from emdash.roles import Role
from tests.cli.conftest import PASSWORD, emdash, start_login
from tests.factories import make_user

CHROMIUM = "/usr/bin/chromium"
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("cli_app")]


def _approve_in_browser(url: str, verification_uri_complete: str, email: str) -> str:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            page = browser.new_page()
            page.goto(verification_uri_complete)
            assert "/_emdash/admin/login/" in page.url  # anonymous: sent to log in first
            page.get_by_label("Email").fill(email)
            page.get_by_label("Password").fill(PASSWORD)
            page.get_by_role("button", name="Log in").click()
            page.get_by_role("heading", name="Connect a device").wait_for()
            assert "/_emdash/admin/device?code=" in page.url
            code_box = page.get_by_label("Code")
            prefilled = code_box.input_value()
            page.get_by_role("button", name="Continue").click()
            page.get_by_role("heading", name="Approve EmDash CLI?").wait_for()
            page.get_by_role("button", name="Approve").click()
            page.get_by_role("heading", name="Device connected").wait_for()
            return prefilled
        finally:
            browser.close()


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"needs chromium at {CHROMIUM}")
def test_login_approved_in_a_headless_browser(live_server, tmp_path: Path):
    user = make_user(Role.AUTHOR, email="browser@example.com")
    login, code = start_login(live_server.url)
    complete = f"{live_server.url}/_emdash/admin/device?code={code}"
    try:
        prefilled = _approve_in_browser(live_server.url, complete, user.email)
    except BaseException:
        login.kill()
        raise
    out, err = login.communicate(timeout=60)
    assert login.returncode == 0, err
    assert "browser@example.com (author)" in out
    assert prefilled == code
    whoami = emdash("whoami", "--json")
    assert json.loads(whoami.stdout)["user"]["email"] == "browser@example.com"


def _consent_in_browser(authorize_url: str, email: str, callback_prefix: str) -> str:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            page = browser.new_page()
            captured: list[str] = []

            def callback(route):  # the client's loopback listener, played by the test
                captured.append(route.request.url)
                route.fulfill(status=200, body="You can close this window.")

            page.route(callback_prefix + "**", callback)
            page.goto(authorize_url)
            page.get_by_label("Email").fill(email)
            page.get_by_label("Password").fill(PASSWORD)
            page.get_by_role("button", name="Log in").click()
            page.get_by_role("heading", name="Allow Browser App to use your EmDash account?").wait_for()
            page.get_by_role("checkbox", name="media:read").uncheck()
            page.get_by_role("button", name="Allow").click()
            page.wait_for_url(callback_prefix + "**")
            return captured[0]
        finally:
            browser.close()


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"needs chromium at {CHROMIUM}")
def test_consent_in_a_headless_browser(live_server):
    import httpx

    from accounts.oauth import codes

    user = make_user(Role.AUTHOR, email="consent@example.com")
    callback = "http://127.0.0.1:33419/cb"
    registered = httpx.post(
        live_server.url + "/_emdash/api/oauth/register",
        json={"client_name": "Browser App", "redirect_uris": [callback]},
    ).json()
    verifier = "v" * 64
    query = {
        "response_type": "code", "client_id": registered["client_id"], "redirect_uri": callback, "state": "xyz",
        "code_challenge": codes.s256(verifier), "code_challenge_method": "S256",
        "scope": "content:read content:write media:read schema:write",
    }  # fmt: skip
    url = live_server.url + "/_emdash/oauth/authorize?" + httpx.QueryParams(query).__str__()
    redirected = httpx.URL(_consent_in_browser(url, user.email, callback))
    assert redirected.params["state"] == "xyz"
    token = httpx.post(
        live_server.url + "/_emdash/api/oauth/token",
        data={"grant_type": "authorization_code", "code": redirected.params["code"], "redirect_uri": callback,
              "client_id": registered["client_id"], "code_verifier": verifier},
    )  # fmt: skip
    assert token.status_code == 200, token.text
    assert token.json()["scope"] == "content:read content:write"  # media:read unticked, schema:write not for authors
