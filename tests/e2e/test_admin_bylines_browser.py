"""Bylines (SPEC 10) in Chromium, as an editor uses them, at 1280 and 375 px: on the edit page credit two bylines
(one a guest), reorder them with the ↑ ↓ buttons from the keyboard, set a role, save and reload (the first is the
primary byline), remove one; on the Bylines screens add, edit and delete a byline. No sideways scrolling on a
phone; every control has an accessible name."""

from __future__ import annotations

from typing import Any

import pytest

from bylines.models import Byline
from bylines.services import byline_create
from emdash.actor import Actor
from tests.browser import sized_page, unnamed_controls, working_screenshot
from tests.e2e.admin_helpers import log_in
from tests.factories import SYSTEM, make_entry, make_user

pytestmark = pytest.mark.slow
WIDTHS = pytest.mark.parametrize("width", [1280, 375])


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


def _fits(page: Any) -> None:
    width, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"{page.url} is {width}px wide on a {inner}px screen"


def _credits(page: Any, base: str, entry_id: str) -> tuple[list[tuple[str, str | None]], str]:
    """The item's credits and primary byline as the REST API returns them (the page's session signs in)."""
    answer = page.request.get(f"{base}/_emdash/api/content/posts/{entry_id}")
    assert answer.status == 200
    item = answer.json()["item"]
    return [(c["byline"]["slug"], c.get("roleLabel")) for c in item["bylines"]], item["byline"]["slug"]


def _chosen(page: Any) -> list[str]:
    """The picker's rows as shown: the chosen byline's name (blank for an empty row) and the role."""
    name = "s => (s.value ? s.selectedOptions[0].dataset.name : '')"
    return [
        f"{row.locator('select').evaluate(name)}|{row.locator('input').input_value()}"
        for row in page.locator(".byline-row").all()
    ]


@WIDTHS
def test_an_editor_credits_orders_and_removes_bylines_on_an_item(posts, live_server, browser, width) -> None:
    expect = _expect()
    editor = make_user("editor", email="editor@example.com")
    byline_create(actor=SYSTEM, slug="jane", display_name="Jane Doe", user_id=editor.pk)
    byline_create(actor=SYSTEM, slug="gus", display_name="Gus Guest")
    entry = make_entry(by=Actor.for_user(editor), data={"title": "Field notes"})
    base = live_server.url
    with sized_page(browser, width) as page:
        log_in(page, base, "editor@example.com")
        page.goto(f"{base}/_emdash/admin/content/posts/{entry.id}/")
        picker = page.get_by_role("group", name="Bylines")
        expect(picker).to_contain_text("the author's own byline (Jane Doe) is shown")
        assert _credits(page, base, entry.id) == ([("jane", None)], "jane")  # inferred from the author
        expect(page.get_by_role("button", name="Move byline 1 up")).to_be_disabled()  # empty rows: nothing to move

        picker.get_by_label("Byline 1", exact=True).select_option(label="Jane Doe (en)")
        picker.get_by_label("Byline 2", exact=True).select_option(label="Gus Guest (guest, en)")
        picker.get_by_label("Role 2", exact=True).fill("Photography")
        expect(page.get_by_role("button", name="Move Jane Doe up")).to_be_disabled()
        expect(page.get_by_role("button", name="Move Gus Guest down")).to_be_disabled()
        up = page.get_by_role("button", name="Move Gus Guest up")
        up.focus()
        page.keyboard.press("Enter")  # from the keyboard: the guest becomes the primary credit
        assert _chosen(page) == ["Gus Guest|Photography", "Jane Doe|"]
        expect(page.locator("[data-byline-status]")).to_have_text("Gus Guest: position 1, the primary credit.")
        expect(page.get_by_role("button", name="Move Gus Guest down")).to_be_focused()  # ↑ is disabled at the top
        page.get_by_role("button", name="Add another byline").click()  # past the two spare rows
        expect(picker.get_by_label("Byline 3", exact=True)).to_be_focused()
        expect(picker.get_by_label("Role 3", exact=True)).to_have_value("")
        assert _chosen(page) == ["Gus Guest|Photography", "Jane Doe|", "|"]
        assert unnamed_controls(picker) == []
        if width < 500:
            _fits(page)
        working_screenshot(page, f"byline-picker-{width}")
        page.get_by_role("button", name="Save draft").click()
        expect(page.get_by_text("Saved.", exact=True)).to_be_visible()
        assert _credits(page, base, entry.id) == ([("gus", "Photography"), ("jane", None)], "gus")

        page.reload()
        assert _chosen(page) == ["Gus Guest|Photography", "Jane Doe|", "|", "|"]
        expect(page.locator("[data-save-status]")).not_to_have_attribute("data-state", "dirty")
        page.get_by_role("button", name="Remove Gus Guest").click()
        assert _chosen(page) == ["Jane Doe|", "|", "|", "|"]  # the rest move up; the primary is now Jane
        expect(page.locator("[data-byline-status]")).to_have_text("Gus Guest removed.")
        page.get_by_role("button", name="Save draft").click()
        expect(page.get_by_text("Saved.", exact=True)).to_be_visible()
        assert _credits(page, base, entry.id) == ([("jane", None)], "jane")
        assert _chosen(page) == ["Jane Doe|", "|", "|"]  # one credit and the two spare rows


@WIDTHS
def test_an_editor_adds_edits_and_deletes_a_byline_on_the_bylines_screens(cms, live_server, browser, width) -> None:
    expect = _expect()
    make_user("editor", email="editor@example.com")
    base = live_server.url
    with sized_page(browser, width) as page:
        log_in(page, base, "editor@example.com")
        page.goto(f"{base}/_emdash/admin/bylines/")
        expect(page.get_by_text("No bylines yet.")).to_be_visible()
        form = page.locator("form").filter(has=page.get_by_role("heading", name="Add a byline"))
        form.get_by_label("Name").fill("Ada Lovelace")
        form.get_by_label("Slug").fill("Ada L")
        form.get_by_label("Website").fill("https://ada.example/")
        form.get_by_role("button", name="Add byline").click()
        expect(page.locator("#id_slug-error")).to_be_visible()  # a bad slug: shown, nothing saved
        assert not Byline.objects.exists()
        expect(page.get_by_label("Name")).to_have_value("Ada Lovelace")  # the form keeps what was typed
        page.get_by_label("Slug").fill("ada")
        page.get_by_role("button", name="Add byline").click()
        expect(page.get_by_text("Byline added.")).to_be_visible()
        expect(page.get_by_role("heading", name="Ada Lovelace", level=1)).to_be_visible()
        if width < 500:
            _fits(page)
        working_screenshot(page, f"byline-edit-{width}")
        assert unnamed_controls(page.locator("main form").first) == []

        page.get_by_label("Name").fill("Ada King Lovelace")
        page.get_by_label("Bio").fill("Wrote the first program.")
        page.get_by_role("button", name="Save").click()
        expect(page.get_by_text("Saved.", exact=True)).to_be_visible()
        ada = Byline.objects.get(slug="ada")
        assert (ada.display_name, ada.bio, ada.website_url, ada.is_guest) == (
            "Ada King Lovelace",
            "Wrote the first program.",
            "https://ada.example/",
            True,
        )

        page.get_by_role("link", name="All bylines").click()
        row = page.locator("tr[data-byline=ada]")
        expect(row).to_contain_text("Ada King Lovelace")
        expect(row).to_contain_text("guest")
        delete = row.get_by_role("button", name="Delete Ada King Lovelace")
        if width < 500:
            _fits(page)
            box = delete.bounding_box()  # on screen, not scrolled out of the table's card
            assert box is not None and box["x"] + box["width"] <= width
        working_screenshot(page, f"bylines-list-{width}")
        page.once("dialog", lambda dialog: dialog.accept())  # "Delete the byline ...?"
        delete.click()
        expect(page.get_by_text("Byline deleted.")).to_be_visible()
        expect(page.get_by_text("No bylines yet.")).to_be_visible()
        assert not Byline.objects.exists()
