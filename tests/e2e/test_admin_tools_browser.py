"""An admin moves a WordPress site in, in headless Chromium: the Tools page downloads an export, uploads a WXR
file, and the import's page follows the background job (refreshing itself) to its report of what was created and
what was skipped and why."""

from __future__ import annotations

from pathlib import Path

import pytest

from emdash import safe_fetch
from tests.browser import screenshot
from tests.e2e.admin_helpers import log_in
from tests.factories import make_user
from transfer import jobs
from transfer.models import ImportJob

pytestmark = pytest.mark.slow
WXR = Path(__file__).resolve().parent.parent / "transfer" / "wordpress_data" / "site.wxr"


def test_export_then_import_a_wordpress_site_from_the_tools_page(cms, live_server, page, monkeypatch):
    from playwright.sync_api import expect

    def refuse(*args, **kwargs):
        raise safe_fetch.FetchError("the network is off in tests")

    monkeypatch.setattr(safe_fetch, "fetch", refuse)
    make_user("admin", email="admin@example.com")
    base = live_server.url
    log_in(page, base, "admin@example.com")
    page.get_by_role("link", name="Tools").click()
    expect(page.get_by_role("heading", name="Tools")).to_be_visible()

    with page.expect_download() as download:
        page.get_by_role("button", name="Download export").click()
    assert download.value.suggested_filename.endswith(".tar.gz")

    page.get_by_label("WordPress export file (.xml)").set_input_files(str(WXR))
    page.get_by_role("button", name="Import WordPress site").click()
    expect(page.locator("[data-job-status]")).to_have_text("queued")
    job = ImportJob.objects.get()
    assert jobs.run(job.pk) == ImportJob.DONE  # the worker's task
    expect(page.locator("[data-job-status]")).to_have_text("done", timeout=8_000)  # the page refreshed itself
    expect(page.locator("[data-report]")).to_contain_text("Created")
    expect(page.locator("[data-skipped]")).to_contain_text("the network is off in tests")
    screenshot(page, "admin-tools-import")
