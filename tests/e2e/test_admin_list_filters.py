"""The content list in Chromium: filter by a taxonomy term, sort by clicking a column header (and by keyboard)."""

from __future__ import annotations

import pytest

from tests.browser import screenshot
from tests.e2e.admin_helpers import log_in
from tests.filter_data import build_catalog

pytestmark = pytest.mark.slow


def _titles(page) -> list[str]:
    return page.locator("#entry-rows tr td:not(.select-col) > a").all_inner_texts()


def test_filter_a_list_by_a_term_and_sort_by_a_column(cms, live_server, page) -> None:
    from playwright.sync_api import expect

    catalog = build_catalog()
    base = live_server.url
    log_in(page, base, catalog.alice.email)
    page.get_by_role("link", name="Posts", exact=True).click()
    expect(page.locator("#entry-rows tr")).to_have_count(4)

    page.get_by_label("Category").select_option(label="News")
    page.get_by_role("button", name="Apply").click()
    expect(page.locator("#entry-rows tr")).to_have_count(2)
    assert "terms.category=news" in page.url

    page.get_by_role("link", name="Title").click()  # first click: A to Z
    expect(page.get_by_role("columnheader", name="Title")).to_have_attribute("aria-sort", "ascending")
    assert _titles(page) == ["Alpha", "Gamma"] and "terms.category=news" in page.url
    expect(page.get_by_label("Category")).to_have_value("news")  # the filter is kept

    page.get_by_role("link", name="Title").focus()  # again, from the keyboard: Z to A
    page.keyboard.press("Enter")
    expect(page.get_by_role("columnheader", name="Title")).to_have_attribute("aria-sort", "descending")
    assert _titles(page) == ["Gamma", "Alpha"]

    page.get_by_label("Author").select_option(label=catalog.alice.email)
    page.get_by_label("Date", exact=True).select_option(label="Created")
    page.get_by_label("From").fill("2026-03-01")
    page.get_by_role("button", name="Apply").click()
    assert _titles(page) == ["Gamma"]
    expect(page.get_by_role("columnheader", name="Title")).to_have_attribute("aria-sort", "descending")
    page.get_by_label("From").fill("")
    page.get_by_role("button", name="Apply").click()
    assert _titles(page) == ["Gamma", "Alpha"]
    screenshot(page, "admin-list-filters")
