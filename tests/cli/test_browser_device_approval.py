"""``emdash login`` approved in a real headless browser (Debian's chromium driven by Playwright): log in through
the login page, land on the verification page with the code pre-filled, continue, approve.

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
