"""Issue 14 in headless Chromium: bulk publish with a refusal, the menu editor's content search, terms on the first
save, a translation beside its source (desktop and phone), and a datetime field in a non-UTC zone."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import override_settings

from content.entries import selectors, services
from menus import selectors as menu_selectors
from menus import services as menu_services
from settings_app import services as settings_services
from taxonomy import selectors as taxonomy_selectors
from taxonomy import services as taxonomy_services
from tests.browser import screenshot
from tests.e2e.admin_helpers import log_in
from tests.factories import SYSTEM, actor, make_collection, make_entry, make_user

pytestmark = pytest.mark.slow


def _expect():
    from playwright.sync_api import expect

    return expect


def _status(id: str, collection: str = "posts") -> str:
    return selectors.entry_get(actor=SYSTEM, collection=collection, id=id).row.status


def test_bulk_publish_selected_with_the_keyboard_reports_the_refused_item(posts, live_server, page):
    expect = _expect()
    author = make_user("author", email="author@example.com")
    mine = [make_entry(by=actor(author), data={"title": f"My draft {n}"}) for n in (1, 2)]
    theirs = make_entry(data={"title": "The editor's draft"})
    taxonomy_services.term_create(actor=SYSTEM, taxonomy="category", slug="news", label="News")
    base = live_server.url
    log_in(page, base, "author@example.com")
    page.goto(base + "/_emdash/admin/content/posts/")
    select_all = page.get_by_role("checkbox", name="Select all items on this page")
    select_all.focus()
    page.keyboard.press("Space")  # keyboard only
    expect(page.get_by_text("3 selected")).to_be_visible()
    page.get_by_role("checkbox", name="Select My draft 2").press("Space")
    expect(page.get_by_text("2 selected")).to_be_visible()
    expect(select_all).to_have_js_property("indeterminate", True)
    page.get_by_role("checkbox", name="Select My draft 2").press("Space")
    screenshot(page, "admin-bulk-select")
    page.get_by_role("button", name="Publish", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Publish: 2 of 3 posts published.")
    refused = page.locator("[data-bulk-failed]")
    expect(refused).to_contain_text("The editor's draft")
    expect(refused).to_contain_text("changing content owned by someone else requires the editor role")
    screenshot(page, "admin-bulk-result")
    assert [_status(e.id) for e in mine] == ["published", "published"] and _status(theirs.id) == "draft"
    page.get_by_role("link", name="Back to the list").click()
    expect(page.locator("tr", has_text="My draft 1")).to_contain_text("published")


def test_pick_menu_content_by_searching_its_title(posts, live_server, page):
    expect = _expect()
    make_user("editor", email="editor@example.com")
    about = services.entry_publish(actor=SYSTEM, collection="posts", id=make_entry(data={"title": "About us"}).id)
    recipe = make_entry(data={"title": "Seville orange marmalade"})  # a draft: listed too
    make_entry(data={"title": "Strawberry jam"})
    menu_services.menu_create(actor=SYSTEM, name="primary", label="Primary")
    menu_services.menu_set_items(
        actor=SYSTEM,
        name="primary",
        items=[{"label": "About", "type": "post", "referenceCollection": "posts", "referenceId": about.id}],
    )
    base = live_server.url
    log_in(page, base, "editor@example.com")
    page.goto(base + "/_emdash/admin/menus/primary/")
    expect(page.locator(".menu-items li").first).to_contain_text("Posts: About us")  # a title, not an ID
    expect(page.locator(".menu-items")).not_to_contain_text(about.id)
    page.get_by_label("Links to").select_option("post")
    search = page.get_by_role("combobox", name="Find content by title")
    search.fill("marm")
    listbox = page.get_by_role("listbox", name="Matching content")
    expect(listbox.get_by_role("option")).to_have_count(1)
    expect(listbox).to_contain_text("Seville orange marmalade — Posts, draft")
    screenshot(page, "admin-menu-picker")
    search.press("ArrowDown")
    search.press("Enter")
    expect(page.get_by_text("Links to: Seville orange marmalade (Posts, draft)")).to_be_visible()
    page.get_by_role("button", name="Add to menu").click()
    expect(page.locator(".menu-items li").nth(1)).to_contain_text("Seville orange marmalade")
    page.get_by_role("button", name="Save menu").click()
    expect(page.get_by_text("Menu saved.")).to_be_visible()
    items = menu_selectors.menu_get(actor=SYSTEM, name="primary")["items"]
    assert [(i["label"], i["referenceId"]) for i in items] == [
        ("About", about.id),
        ("Seville orange marmalade", recipe.id),
    ]


def test_categories_and_tags_on_the_first_save(posts, live_server, page):
    expect = _expect()
    make_user("author", email="author@example.com")
    taxonomy_services.term_create(actor=SYSTEM, taxonomy="category", slug="recipes", label="Recipes")
    taxonomy_services.term_create(actor=SYSTEM, taxonomy="tag", slug="citrus", label="Citrus")
    base = live_server.url
    log_in(page, base, "author@example.com")
    page.goto(base + "/_emdash/admin/content/posts/new/")
    page.get_by_role("textbox", name="Title", exact=True).fill("Lime curd")
    page.get_by_role("checkbox", name="Recipes").check()
    page.get_by_role("checkbox", name="Citrus").check()
    screenshot(page, "admin-new-with-terms")
    page.get_by_role("button", name="Create draft").click()
    expect(page.get_by_text("Created.")).to_be_visible()
    expect(page.get_by_role("checkbox", name="Recipes")).to_be_checked()
    entry_id = page.url.rstrip("/").split("/")[-1]
    terms = taxonomy_selectors.entry_terms(actor=SYSTEM, collection="posts", id=entry_id)
    assert [t["slug"] for t in terms["category"]] == ["recipes"] and [t["slug"] for t in terms["tag"]] == ["citrus"]


def _box(page: Any, selector: str) -> dict[str, float]:
    return page.locator(selector).bounding_box()


def test_a_translation_beside_its_source_on_desktop_and_phone(posts, live_server, page, browser):
    expect = _expect()
    make_user("editor", email="editor@example.com")
    with override_settings(EMDASH={"LOCALES": ["en", "fr"]}):
        source = make_entry(data={"title": "Orange marmalade", "excerpt": "Bitter oranges, sugar and patience."})
        base = live_server.url
        log_in(page, base, "editor@example.com")
        page.goto(base + f"/_emdash/admin/content/posts/{source.id}/")
        page.get_by_label("Translate into").select_option("fr")
        page.get_by_role("button", name="Create translation").click()
        expect(page.get_by_text("Translation created.")).to_be_visible()
        column = page.get_by_role("region", name="Source: en")
        expect(column).to_contain_text("Bitter oranges, sugar and patience.")
        page.get_by_role("textbox", name="Title", exact=True).fill("Confiture d'orange")
        page.get_by_role("textbox", name="Excerpt").fill("Oranges amères, sucre et patience.")
        page.get_by_role("button", name="Save draft").click()
        expect(page.get_by_text("Saved.")).to_be_visible()
        source_box, form_box = _box(page, "[data-translation-source]"), _box(page, "#entry-form")
        assert source_box["x"] + source_box["width"] <= form_box["x"] and abs(source_box["y"] - form_box["y"]) < 5
        screenshot(page, "admin-translation-side-by-side")
        translation_url = page.url

        phone = browser.new_context(viewport={"width": 375, "height": 812})
        try:
            tab = phone.new_page()
            log_in(tab, base, "editor@example.com")
            tab.goto(translation_url)
            source_box, form_box = _box(tab, "[data-translation-source]"), _box(tab, "#entry-form")
            assert source_box["y"] + source_box["height"] <= form_box["y"]  # stacked: the source above the form
            width, inner = tab.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
            assert width <= inner
            screenshot(tab, "admin-phone-translation")
        finally:
            phone.close()
    assert selectors.entry_get(actor=SYSTEM, collection="posts", id=source.id).to_dict()["data"]["title"] == (
        "Orange marmalade"
    )


def test_a_datetime_field_round_trips_in_new_york_time(cms, live_server, page):
    expect = _expect()
    make_user("editor", email="editor@example.com")
    make_collection(
        "events",
        fields=[
            {"slug": "title", "label": "Title", "type": "string", "required": True},
            {"slug": "starts_at", "label": "Starts at", "type": "datetime"},
        ],
    )
    settings_services.settings_update(actor=SYSTEM, changes={"timezone": "America/New_York"})
    base = live_server.url
    log_in(page, base, "editor@example.com")
    page.goto(base + "/_emdash/admin/content/events/new/")
    starts = page.get_by_label(re.compile(r"^Starts at"))
    expect(page.locator("label[for=id_f_starts_at]")).to_contain_text("America/New_York time")
    page.get_by_role("textbox", name="Title", exact=True).fill("Fireworks")
    starts.fill("2026-07-04T21:30")  # EDT, UTC-4
    page.get_by_role("button", name="Create draft").click()
    expect(page.get_by_text("Created.")).to_be_visible()
    entry_id = page.url.rstrip("/").split("/")[-1]
    data = selectors.entry_get(actor=SYSTEM, collection="events", id=entry_id).to_dict()["data"]
    assert data["starts_at"] == "2026-07-05T01:30:00Z"
    page.reload()
    expect(page.get_by_label(re.compile(r"^Starts at"))).to_have_value("2026-07-04T21:30")
    page.get_by_label(re.compile(r"^Starts at")).fill("2026-12-31T23:59")  # EST, UTC-5
    page.get_by_role("button", name="Save draft").click()
    expect(page.get_by_text("Saved.")).to_be_visible()
    screenshot(page, "admin-datetime-field")
    data = selectors.entry_get(actor=SYSTEM, collection="events", id=entry_id).to_dict()["data"]
    assert data["starts_at"] == "2027-01-01T04:59:00Z"
    expect(page.get_by_label(re.compile(r"^Starts at"))).to_have_value("2026-12-31T23:59")
