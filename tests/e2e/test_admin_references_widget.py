"""The references widget (SPEC 10 "Many references") in Chromium, as an editor uses it: search two target
collections, add, reorder by mouse drag, by the ↑ ↓ buttons and by Alt+Arrow, remove, go past ``validation.max``
(the error is shown and nothing is saved), save and reload; the stored order is read back from the database and
the REST API. The same at 375 px, without sideways scrolling; every control has an accessible name."""

from __future__ import annotations

import re
from typing import Any

import pytest

from content.entries import selectors, services
from tests.browser import sized_page, unnamed_controls, working_screenshot
from tests.e2e.admin_helpers import log_in
from tests.factories import SYSTEM, make_collection, make_user

pytestmark = pytest.mark.slow
TITLE = {"slug": "title", "label": "Title", "type": "string", "required": True}
USES = {
    "slug": "uses",
    "label": "Uses",
    "type": "references",
    "options": {"collections": ["ingredients", "tools"]},
    "validation": {"max": 3},
}


@pytest.fixture
def kitchen(cms: None) -> dict[str, Any]:
    """Two target collections and a recipes collection whose ``uses`` field links to both (at most 3)."""
    make_collection("ingredients", fields=[TITLE], label_singular="Ingredient")
    make_collection("tools", fields=[TITLE], label_singular="Tool")
    make_collection("recipes", fields=[TITLE, USES], label_singular="Recipe")
    made = {
        name: services.entry_create(actor=SYSTEM, collection=collection, data={"title": name}, status=status)
        for name, collection, status in [
            ("Fine flour", "ingredients", "published"),
            ("Fine sugar", "ingredients", "published"),
            ("Fine sieve", "tools", "draft"),
            ("Balloon whisk", "tools", "published"),
        ]
    }
    make_user("editor", email="editor@example.com")
    return made


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


def _rows(page: Any) -> list[str]:
    return page.locator("[data-refs-list] li strong").all_inner_texts()


def _add(page: Any, query: str, title: str) -> None:
    search = page.get_by_role("searchbox", name="Search items to add to Uses")
    search.fill(query)
    page.get_by_role("button", name=re.compile(f"^Add {title} ")).click()


def _stored(recipe_id: str) -> list[str]:
    data = selectors.entry_get(actor=SYSTEM, collection="recipes", id=recipe_id).to_dict()["data"]
    return [target["title"] for target in data["uses"] or []]


def test_an_editor_links_orders_and_saves_items_of_two_collections(kitchen, live_server, browser) -> None:
    expect = _expect()
    ids = {name: entry.id for name, entry in kitchen.items()}
    with sized_page(browser, 1280) as page:
        log_in(page, live_server.url, "editor@example.com")
        page.goto(live_server.url + "/_emdash/admin/content/recipes/new/")
        page.get_by_role("textbox", name="Title", exact=True).fill("Sponge cake")
        expect(page.locator("[data-refs-source]")).to_be_hidden()  # the ids box gives way to the list

        # One search answers from both target collections, with each hit's collection and status.
        page.get_by_role("searchbox", name="Search items to add to Uses").fill("fine")
        found = page.locator("[data-refs-results] button")
        expect(found).to_have_count(3)
        assert sorted(found.all_inner_texts()) == [
            "Fine flour\nIngredients · published",
            "Fine sieve\nTools · draft",
            "Fine sugar\nIngredients · published",
        ]
        found.filter(has_text="Fine flour").click()
        expect(found).to_have_count(2)  # what is in the list is not offered again
        found.filter(has_text="Fine sugar").click()
        _add(page, "whisk", "Balloon whisk")
        page.get_by_role("searchbox", name="Search items to add to Uses").fill("flour")
        nothing = "Nothing found for “flour” that is not in the list already."
        expect(page.locator("[data-refs-status]")).to_have_text(nothing)

        # From the keyboard: Enter searches at once, ArrowDown reaches the hits, Enter adds.
        search = page.get_by_role("searchbox", name="Search items to add to Uses")
        search.fill("")
        search.type("sieve")
        search.press("Enter")
        expect(found).to_have_count(1)
        search.press("ArrowDown")
        expect(page.get_by_role("button", name="Add Fine sieve (Tools, draft)")).to_be_focused()
        page.keyboard.press("Enter")
        assert _rows(page) == ["Fine flour", "Fine sugar", "Balloon whisk", "Fine sieve"]
        expect(page.locator("[data-refs-status]")).to_have_text(
            "Added Fine sieve: position 4 of 4. More than 3: remove one before saving."
        )
        working_screenshot(page, "references-over-max-1280")

        # Four items where the field takes three: the server refuses, the form keeps the list, nothing is saved.
        page.get_by_role("button", name="Create draft").click()
        expect(page.locator("#id_f_uses-error")).to_contain_text("at most 3")
        expect(page.locator(".field.has-error[data-field-type=references]")).to_be_visible()
        assert _rows(page) == ["Fine flour", "Fine sugar", "Balloon whisk", "Fine sieve"]
        assert selectors.entry_list(actor=SYSTEM, collection="recipes").present().items == []

        # Reorder: a real mouse drag of the whisk above the flour, the ↑ button, then Alt+ArrowDown on a row.
        rows = page.locator("[data-refs-list] li")
        rows.filter(has_text="Balloon whisk").locator(".handle").drag_to(
            rows.filter(has_text="Fine flour"), target_position={"x": 40, "y": 3}
        )
        assert _rows(page) == ["Balloon whisk", "Fine flour", "Fine sugar", "Fine sieve"]
        expect(page.locator("[data-refs-status]")).to_contain_text("Balloon whisk: position 1 of 4.")
        up = page.get_by_role("button", name="Move Fine sieve up")
        up.focus()
        page.keyboard.press("Enter")
        expect(up).to_be_focused()  # focus stays on the button, so it can be pressed again
        assert _rows(page) == ["Balloon whisk", "Fine flour", "Fine sieve", "Fine sugar"]
        rows.filter(has_text="Balloon whisk").focus()
        page.keyboard.press("Alt+ArrowDown")
        assert _rows(page) == ["Fine flour", "Balloon whisk", "Fine sieve", "Fine sugar"]
        expect(page.get_by_role("button", name="Move Fine flour up")).to_be_disabled()
        expect(page.get_by_role("button", name="Move Fine sugar down")).to_be_disabled()

        page.get_by_role("button", name="Remove Fine sugar").click()
        expect(page.locator("[data-refs-status]")).to_have_text("Fine sugar removed.")
        assert _rows(page) == ["Fine flour", "Balloon whisk", "Fine sieve"]
        assert page.locator("[data-refs-source]").input_value().split() == [
            ids["Fine flour"],
            ids["Balloon whisk"],
            ids["Fine sieve"],
        ]
        assert unnamed_controls(page.locator("[data-refs-picker]")) == []
        page.get_by_role("button", name="Create draft").click()
        expect(page.get_by_role("heading", name="Sponge cake")).to_be_visible()

        recipe = selectors.entry_list(actor=SYSTEM, collection="recipes").present().items[0]
        assert _stored(recipe["id"]) == ["Fine flour", "Balloon whisk", "Fine sieve"]
        api = page.request.get(f"{live_server.url}/_emdash/api/content/recipes/{recipe['id']}")
        assert api.status == 200
        uses = api.json()["item"]["data"]["uses"]
        assert [(u["collection"], u["id"]) for u in uses] == [
            ("ingredients", ids["Fine flour"]),
            ("tools", ids["Balloon whisk"]),
            ("tools", ids["Fine sieve"]),
        ]

        page.reload()
        assert _rows(page) == ["Fine flour", "Balloon whisk", "Fine sieve"]
        expect(page.locator("[data-save-status]")).not_to_have_attribute("data-state", "dirty")
        expect(page.locator("[data-refs-list] li").first).to_contain_text("Ingredients · published")
        working_screenshot(page, "references-saved-1280")


def test_the_references_widget_works_on_a_375px_phone(kitchen, live_server, browser) -> None:
    expect = _expect()
    ids = [entry.id for entry in kitchen.values()]
    recipe = services.entry_create(
        actor=SYSTEM, collection="recipes", data={"title": "Shortbread", "uses": ids[:3]}, status="draft"
    )
    with sized_page(browser, 375) as page:
        log_in(page, live_server.url, "editor@example.com")
        page.goto(f"{live_server.url}/_emdash/admin/content/recipes/{recipe.id}/")
        # Opening the page changes nothing: the unsaved-changes mark stays off.
        expect(page.locator("[data-save-status]")).not_to_have_attribute("data-state", "dirty")
        assert _rows(page) == ["Fine flour", "Fine sugar", "Fine sieve"]
        page.get_by_role("button", name="Move Fine sieve up").click()
        page.get_by_role("button", name="Remove Fine flour").click()
        _add(page, "whisk", "Balloon whisk")
        assert _rows(page) == ["Fine sieve", "Fine sugar", "Balloon whisk"]
        width, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert width <= inner, f"the edit page is {width}px wide on a {inner}px screen"
        box = page.locator("[data-refs-list] li").last.bounding_box()
        assert box is not None and box["x"] + box["width"] <= inner
        working_screenshot(page, "references-375")
        assert unnamed_controls(page.locator("[data-refs-picker]")) == []
        page.get_by_role("button", name="Save draft").click()
        expect(page.get_by_text("Saved.", exact=True)).to_be_visible()
    assert _stored(recipe.id) == ["Fine sieve", "Fine sugar", "Balloon whisk"]
