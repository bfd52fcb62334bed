"""SPEC 13, the first day, in headless Chromium at 1280 and 390 px: a fresh install started with a starter, an
editor's whole first post, the menu editor by titles with drag and drop, the schema builder in editors' words,
messages by label that never leak onto a later page, and the tokens page's ready-to-paste client set-ups."""

from __future__ import annotations

import json
import re
import shlex
from typing import Any

import pytest
from django.core.management import call_command

from content.entries import services
from content.schema import specs as schema
from menus import selectors as menu_selectors
from menus import services as menu_services
from taxonomy import services as taxonomy_services
from tests.browser import screenshot
from tests.e2e.admin_helpers import log_in, png_file, rich_text
from tests.factories import make_collection, make_user
from tests.site.conftest import SYSTEM

pytestmark = pytest.mark.slow
WIDTHS = pytest.mark.parametrize("width", [1280, 390], ids=["1280", "390"])


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


@pytest.fixture
def tab(browser: Any, request: Any) -> Any:
    """A page at the test's ``width`` (not mobile emulation, which widens innerWidth over an overflowing page)."""
    width = request.node.callspec.params["width"]
    context = browser.new_context(viewport={"width": width, "height": 900 if width > 500 else 844})
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


def go(page: Any, link: str) -> None:
    """Follow a sidebar link; on a phone the sidebar first opens from its Menu button."""
    toggle = page.locator("[data-nav-toggle]")
    if toggle.is_visible():
        toggle.click()
    page.locator("#admin-nav").get_by_role("link", name=link, exact=True).click()


def fits(page: Any) -> None:
    width, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"{page.url}: scrollWidth {width} > innerWidth {inner}"


@WIDTHS
def test_fresh_install_blog_starter_then_an_editor_publishes_a_post_and_links_it_in_the_menu(
    cms, live_server, tab, width
):
    """The whole first day: migrate + an admin (the test database), ``emdash_setup --starter blog``, no demo."""
    expect = _expect()
    make_user("admin", email="owner@example.com")
    call_command("emdash_setup", starter="blog", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert schema.current(fresh=True).get("posts").model.objects.count() == 0
    make_user("editor", email="editor@example.com")
    base = live_server.url
    log_in(tab, base, "editor@example.com")

    go(tab, "Posts")
    expect(tab.get_by_role("heading", name="Posts", level=1)).to_be_visible()
    fits(tab)
    tab.get_by_role("link", name="New post").click()
    tab.get_by_role("textbox", name="Title", exact=True).fill("Our first post")
    tab.get_by_role("textbox", name="Excerpt").fill("Hello from a real site.")
    rich_text(tab).click()
    tab.keyboard.type("Written on the first day.")
    tab.get_by_role("button", name="Create draft").click()
    expect(tab.get_by_text("Created.")).to_be_visible()
    tab.get_by_role("button", name="Publish", exact=True).click()
    expect(tab.get_by_text("Published.")).to_be_visible()
    fits(tab)

    go(tab, "Menus")
    tab.get_by_role("link", name="Primary").click()
    expect(tab.locator(".menu-items li")).to_have_count(1)  # the starter's Home link
    tab.get_by_label("Links to").select_option(label="A post")
    tab.get_by_role("combobox", name="Find content by title").fill("first")
    expect(tab.get_by_role("option", name=re.compile("Our first post"))).to_be_visible()
    tab.keyboard.press("Enter")
    tab.get_by_role("button", name="Add to menu").click()
    expect(tab.locator(".menu-items li").nth(1)).to_contain_text("Post: Our first post")
    fits(tab)
    screenshot(tab, f"first-day-menu-{width}")
    tab.get_by_role("button", name="Save menu").click()
    expect(tab.get_by_text("Menu saved.")).to_be_visible()

    site = tab.context.new_page()
    site.goto(base + "/")
    header = site.locator("#site-nav")
    if site.get_by_role("button", name="Menu").is_visible():
        site.get_by_role("button", name="Menu").click()
    header.get_by_role("link", name="Our first post").click()
    expect(site.get_by_role("heading", name="Our first post", level=1)).to_be_visible()
    expect(site.get_by_text("Written on the first day.")).to_be_visible()
    fits(site)
    screenshot(site, f"first-day-site-{width}")


@WIDTHS
def test_the_empty_dashboard_offers_starters_and_applies_one(cms, live_server, tab, width):
    expect = _expect()
    make_user("admin", email="owner@example.com")
    log_in(tab, live_server.url, "owner@example.com")
    region = tab.get_by_role("region", name="Start your site")
    expect(region).to_be_visible()
    expect(tab.get_by_text("No collections yet.")).to_be_hidden()
    fits(tab)
    screenshot(tab, f"admin-starters-{width}")
    region.get_by_role("button", name=re.compile("^Blog")).click()
    expect(tab.get_by_text("Blog starter applied.")).to_be_visible()
    expect(tab.get_by_role("region", name="Start your site")).to_have_count(0)
    assert set(schema.current(fresh=True).collections) == {"posts", "pages"}


@WIDTHS
def test_menu_editor_shows_titles_and_reorders_and_nests_by_drag_and_drop(cms, live_server, tab, width):
    expect = _expect()
    make_collection("posts", label_singular="Post")
    news = taxonomy_services.term_create(actor=SYSTEM, taxonomy="category", slug="news", label="News")
    post = services.entry_create(actor=SYSTEM, collection="posts", data={"title": "Launch day"})
    menu_services.menu_create(actor=SYSTEM, name="primary", label="Primary")
    menu_services.menu_set_items(
        actor=SYSTEM,
        name="primary",
        items=[
            {"label": "Home", "type": "custom", "customUrl": "/"},
            {"label": "News", "type": "taxonomy", "referenceCollection": "category", "referenceId": news.id},
            {"label": "Launch", "type": "post", "referenceCollection": "posts", "referenceId": post.id},
        ],
    )
    make_user("editor", email="editor@example.com")
    log_in(tab, live_server.url, "editor@example.com")
    tab.goto(live_server.url + "/_emdash/admin/menus/primary/")
    rows = tab.locator(".menu-items li")
    expect(rows.nth(1)).to_contain_text("Category: News")
    expect(rows.nth(2)).to_contain_text("Post: Launch day")
    assert news.id not in tab.locator(".menu-items").inner_text() and post.id not in tab.content().split("<textarea")[0]

    launch, home = rows.filter(has_text="Launch"), rows.filter(has_text="Home")
    launch.locator(".handle").drag_to(home, target_position={"x": 40, "y": 3})  # drop above Home
    expect(rows.nth(0)).to_contain_text("Launch")
    news_row = rows.filter(has_text="News")
    news_row.locator(".handle").drag_to(news_row, target_position={"x": 140, "y": 20})  # dragged right: nested
    expect(tab.get_by_role("button", name="Outdent News")).to_be_enabled()
    expect(tab.locator("[data-menu-status]")).to_contain_text("News: position 3 of 3, under Home")
    fits(tab)
    screenshot(tab, f"admin-menu-drag-{width}")
    tab.get_by_role("button", name="Save menu").click()
    expect(tab.get_by_text("Menu saved.")).to_be_visible()
    saved = menu_selectors.menu_get(actor=SYSTEM, name="primary")["items"]
    assert [(i["label"], i["parentIndex"]) for i in saved] == [("Launch", None), ("Home", None), ("News", 1)]


@WIDTHS
def test_schema_builder_asks_for_the_label_first_and_derives_the_slug(cms, live_server, tab, width):
    expect = _expect()
    make_user("admin", email="owner@example.com")
    log_in(tab, live_server.url, "owner@example.com")
    tab.goto(live_server.url + "/_emdash/admin/schema/")
    form = tab.locator("form", has=tab.get_by_role("heading", name="New collection"))
    labels = form.locator("label").all_inner_texts()
    assert labels.index("Label (plural)") < labels.index("Slug")
    form.get_by_label("Label (plural)").fill("Recipe Ideas")
    expect(form.get_by_label("Slug")).to_have_value("recipe_ideas")
    form.get_by_label("Slug").fill("recipes")  # editable, and no longer follows the label
    form.get_by_label("Label (plural)").fill("Recipes")
    expect(form.get_by_label("Slug")).to_have_value("recipes")
    form.get_by_role("button", name="Create collection").click()
    expect(tab.get_by_text("Collection created.")).to_be_visible()

    field_form = tab.locator("form", has=tab.get_by_role("heading", name="Add a field"))
    field_form.get_by_label("Label").fill("Cooking time")
    expect(field_form.get_by_label("Slug")).to_have_value("cooking_time")
    type_select = field_form.get_by_label("Type")
    options = type_select.locator("option").all_inner_texts()
    assert {"Short text", "Rich text", "Multiple choice", "Whole number"} <= set(options)
    assert not {"portableText", "multiSelect", "string"} & set(options)
    type_select.select_option(label="Whole number")
    expect(field_form.get_by_text("A count or a position, without decimals.")).to_be_visible()
    expect(field_form.get_by_text("One line: a title, a name, a subtitle.")).to_be_hidden()
    fits(tab)
    screenshot(tab, f"admin-schema-add-field-{width}")
    field_form.get_by_role("button", name="Add field").click()
    expect(tab.get_by_text("Field added.")).to_be_visible()
    expect(tab.locator("table")).to_contain_text("Whole number")
    field = schema.current(fresh=True).get("recipes").get_field("cooking_time")
    assert field is not None and field.type == "integer" and field.label == "Cooking time"


@WIDTHS
def test_messages_name_fields_by_label_and_an_inline_upload_leaves_none_for_later(
    cms, media_root, live_server, tab, width, tmp_path
):
    expect = _expect()
    make_collection(
        "books",
        label="Books",
        label_singular="Book",
        fields=[
            {"slug": "title", "label": "Title", "type": "string", "required": True},
            {"slug": "isbn", "label": "ISBN", "type": "string", "unique": True},
            {"slug": "body", "label": "Body", "type": "portableText"},
        ],
    )
    services.entry_create(actor=SYSTEM, collection="books", data={"title": "First", "isbn": "978-0"})
    make_user("editor", email="editor@example.com")
    log_in(tab, live_server.url, "editor@example.com")
    tab.goto(live_server.url + "/_emdash/admin/content/books/new/")
    tab.get_by_role("textbox", name="Title", exact=True).fill("Second")
    tab.get_by_role("textbox", name="ISBN").fill("978-0")
    tab.get_by_role("button", name="Create draft").click()
    expect(tab.locator(".banner.error")).to_contain_text("Another book already uses this ISBN.")
    assert "isbn" not in tab.locator(".banner.error").inner_text()

    tab.get_by_role("textbox", name="ISBN").fill("978-1")
    rich_text(tab).click()
    tab.get_by_role("button", name="Image").click()
    dialog = tab.get_by_role("dialog", name="Insert an image")
    dialog.get_by_label("Upload a new image").set_input_files(str(png_file(tmp_path, "photo1.png")))
    expect(dialog.get_by_text("Uploaded photo1.png.")).to_be_visible()
    dialog.get_by_role("button", name="Cancel").click()
    tab.goto(live_server.url + "/_emdash/admin/media/")  # a later page: the upload's message must not wait here
    expect(tab.get_by_role("heading", name="Media", level=1)).to_be_visible()
    assert "Uploaded photo1.png" not in tab.content()
    tab.goto(live_server.url + "/_emdash/admin/")
    assert "Uploaded photo1.png" not in tab.content()


@WIDTHS
def test_tokens_page_shows_the_endpoint_and_ready_to_paste_client_configs(cms, live_server, tab, width):
    expect = _expect()
    make_user("editor", email="editor@example.com")
    log_in(tab, live_server.url, "editor@example.com")
    tab.goto(live_server.url + "/_emdash/admin/tokens/")
    endpoint = live_server.url + "/_emdash/api/mcp"
    expect(tab.locator("#mcp-endpoint")).to_have_text(endpoint)
    tab.get_by_label("Name", exact=True).fill("Laptop")
    tab.get_by_role("checkbox", name=re.compile(r"content:read List")).check()
    tab.get_by_role("button", name="Create token").click()
    token = tab.get_by_label("New token").input_value()
    claude = shlex.split(tab.get_by_label(re.compile("^Claude Code")).input_value())
    assert claude == ["claude", "mcp", "add", "--transport", "http", "emdash", endpoint, "--header",
                      f"Authorization: Bearer {token}"]  # fmt: skip
    cursor = json.loads(tab.get_by_label(re.compile("^Cursor")).input_value())
    assert cursor == {"mcpServers": {"emdash": {"url": endpoint, "headers": {"Authorization": f"Bearer {token}"}}}}
    vscode = json.loads(tab.get_by_label(re.compile("^VS Code")).input_value())["servers"]["emdash"]
    assert vscode["type"] == "http" and vscode["url"] == endpoint
    fits(tab)
    screenshot(tab, f"admin-token-configs-{width}")
    # What the page says to paste works: the VS Code set-up's URL and header list the tools.
    answer = tab.request.post(
        vscode["url"],
        headers={**vscode["headers"], "Content-Type": "application/json", "Accept": "application/json"},
        data=json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    )
    assert answer.status == 200 and answer.json()["result"]["tools"]
    tab.reload()
    assert token not in tab.content()  # shown once
