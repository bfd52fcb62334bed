"""The bylines picker on a site with more bylines than its list holds, in Chromium at 1280 and 375 px: the editor
types part of a name in "Find a byline", the rows' lists fill with the matches (each row keeps its choice), and the
one past the first hundred is credited and saved. Without JavaScript, "Find" posts the form back (nothing saved,
what was typed kept) and the match is chosen and saved the same way."""

from __future__ import annotations

from typing import Any

import pytest

from admin_ui.credits import MAX_CHOICES
from bylines.models import Byline
from content.entries import selectors
from content.hooks import rows_credits
from emdash.actor import Actor
from tests.browser import sized_page, unnamed_controls, working_screenshot
from tests.e2e.admin_helpers import log_in
from tests.factories import SYSTEM, make_entry, make_user

pytestmark = pytest.mark.slow
WIDTHS = pytest.mark.parametrize("width", [1280, 375])


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


def _byline(byline_id: str, slug: str, name: str) -> Byline:
    return Byline(id=byline_id, slug=slug, display_name=name, translation_group=byline_id)


def _site() -> tuple[Any, Byline]:
    """An editor, one of their items, MAX_CHOICES + 5 bylines "Aa 000".. and "Zed Zimmer" sorting after them all."""
    editor = make_user("editor", email="editor@example.com")
    Byline.objects.bulk_create(_byline(f"01JBYL{i:020d}", f"aa-{i:03d}", f"Aa {i:03d}") for i in range(MAX_CHOICES + 5))
    zed = _byline("01JBYLZ0000000000000000000", "zed", "Zed Zimmer")
    zed.save()
    return make_entry(by=Actor.for_user(editor), data={"title": "Field notes"}), zed


def _credited(entry_id: str) -> list[tuple[str, str | None]]:
    row = selectors.entry_get(actor=SYSTEM, collection="posts", id=entry_id).row
    found = rows_credits("posts", [row])
    return [(c["byline"]["slug"], c.get("roleLabel")) for c in found[0]["bylines"] if c.get("source") == "explicit"]


def _fits(page: Any) -> None:
    width, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"{page.url} is {width}px wide on a {inner}px screen"


@WIDTHS
def test_an_editor_finds_a_byline_past_the_first_hundred_as_they_type(posts, live_server, browser, width) -> None:
    expect = _expect()
    entry, zed = _site()
    base = live_server.url
    with sized_page(browser, width) as page:
        log_in(page, base, "editor@example.com")
        page.goto(f"{base}/_emdash/admin/content/posts/{entry.id}/")
        picker = page.get_by_role("group", name="Bylines")
        first = picker.get_by_label("Byline 1", exact=True)
        first.select_option(label="Aa 003")  # a choice made before searching stays in its row
        expect(first.locator("option")).to_have_count(MAX_CHOICES + 1)  # "—" and the first hundred
        search = picker.get_by_label("Find a byline")
        search.fill("zimm")
        expect(page.locator("[data-byline-status]")).to_have_text("1 byline match “zimm”.")
        expect(first.locator("option")).to_have_count(3)  # "—", its own choice, the match
        assert first.evaluate("s => s.selectedOptions[0].dataset.name") == "Aa 003"
        second = picker.get_by_label("Byline 2", exact=True)
        second.select_option(label="Zed Zimmer")
        picker.get_by_label("Role 2", exact=True).fill("Photos")
        search.press("Enter")  # a search again, not a save
        expect(page.locator("[data-byline-status]")).to_have_text("1 byline match “zimm”.")
        assert _credited(entry.id) == []
        assert unnamed_controls(picker) == []
        if width < 500:
            _fits(page)
        working_screenshot(page, f"byline-search-{width}")
        page.get_by_role("button", name="Save draft").click()
        expect(page.get_by_text("Saved.", exact=True)).to_be_visible()
        assert _credited(entry.id) == [("aa-003", None), ("zed", "Photos")]
        page.reload()  # both are listed (and chosen) in their rows, though "Zed" is past the first hundred
        expect(picker.get_by_label("Byline 2", exact=True)).to_have_value(zed.id)


@WIDTHS
def test_without_javascript_find_posts_the_form_back_and_the_match_is_saved(posts, live_server, browser, width) -> None:
    expect = _expect()
    entry, zed = _site()
    base = live_server.url
    viewport = {"width": width, "height": 900 if width > 500 else 844}
    context = browser.new_context(viewport=viewport, java_script_enabled=False)
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        log_in(page, base, "editor@example.com")
        page.goto(f"{base}/_emdash/admin/content/posts/{entry.id}/")
        page.locator("#id_f_title").fill("Typed before finding")
        picker = page.get_by_role("group", name="Bylines")
        picker.get_by_label("Find a byline").fill("zed")
        picker.get_by_role("button", name="Find").click()
        expect(page.get_by_text("1 byline match “zed”.")).to_be_visible()
        expect(page.locator("#id_f_title")).to_have_value("Typed before finding")  # kept, not saved
        assert selectors.entry_get(actor=SYSTEM, collection="posts", id=entry.id).to_dict()["data"]["title"] == (
            "Field notes"
        )
        picker.get_by_label("Byline 1", exact=True).select_option(zed.id)
        if width < 500:
            _fits(page)
        page.get_by_role("button", name="Save draft").click()
        expect(page.get_by_text("Saved.", exact=True)).to_be_visible()
        assert _credited(entry.id) == [("zed", None)]
        assert selectors.entry_get(actor=SYSTEM, collection="posts", id=entry.id).to_dict()["data"]["title"] == (
            "Typed before finding"
        )
    finally:
        context.close()


def test_without_javascript_enter_in_a_field_saves_rather_than_finds(posts, live_server, browser) -> None:
    """The form's default button (what Enter in a field submits with) is the save one, not the picker's "Find",
    which comes first in the form."""
    expect = _expect()
    entry, _ = _site()
    base = live_server.url
    context = browser.new_context(viewport={"width": 1280, "height": 900}, java_script_enabled=False)
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        log_in(page, base, "editor@example.com")
        page.goto(f"{base}/_emdash/admin/content/posts/{entry.id}/")
        page.locator("#id_f_title").fill("Saved with Enter")
        page.locator("#id_f_title").press("Enter")
        expect(page.get_by_text("Saved.", exact=True)).to_be_visible()
        assert selectors.entry_get(actor=SYSTEM, collection="posts", id=entry.id).to_dict()["data"]["title"] == (
            "Saved with Enter"
        )
        page.goto(f"{base}/_emdash/admin/content/posts/new/")
        page.locator("#id_f_title").fill("Made with Enter")
        page.locator("#id_f_title").press("Enter")
        expect(page.get_by_text("Made with Enter").first).to_be_visible()
        titles = {i["data"]["title"] for i in selectors.entry_list(actor=SYSTEM, collection="posts").present().items}
        assert "Made with Enter" in titles, titles
    finally:
        context.close()
