"""Editors' journeys through the admin in headless Chromium, with screenshots of the main screens.

The device-code approval journey (and the Connected apps screen) is in test_admin_device.py."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import PersonalAccessToken
from content.entries import selectors, services
from menus import selectors as menu_selectors
from tests.browser import screenshot
from tests.e2e.admin_helpers import log_in, png_file, rich_text
from tests.factories import SYSTEM, make_entry, make_user

pytestmark = pytest.mark.slow


def _expect():
    from playwright.sync_api import expect

    return expect


def test_write_a_post_with_rich_text_and_a_cover_publish_it_and_read_it_on_the_site(posts, live_server, page, tmp_path):
    from content.schema import services as schema_services
    from tests.factories import make_collection  # noqa: F401  (posts fixture made the collection)

    schema_services.field_create(actor=SYSTEM, collection="posts", slug="cover", label="Cover image", type="image")
    make_user("editor", email="editor@example.com")
    expect = _expect()
    base = live_server.url

    page.goto(base + "/_emdash/admin/")
    screenshot(page, "admin-login")
    log_in(page, base, "editor@example.com")

    # Upload the cover through the media library.
    page.get_by_role("link", name="Media").click()
    page.get_by_label("Files to upload").set_input_files(str(png_file(tmp_path)))
    page.get_by_role("button", name="Upload", exact=True).click()
    expect(page.locator(".media-card")).to_have_count(1)
    page.locator(".media-card summary").click()
    page.get_by_label("Alt text").fill("A teal rectangle")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.get_by_text("Media details saved.")).to_be_visible()
    screenshot(page, "admin-media-library")

    # Write the post.
    page.get_by_role("link", name="Posts").click()
    page.get_by_role("link", name="New posts").click()
    page.get_by_role("textbox", name="Title", exact=True).fill("Hello from Chromium")
    rich_text(page).click()
    page.keyboard.type("An opening paragraph with ")
    page.get_by_role("button", name="Bold").click()
    page.keyboard.type("bold text")
    page.keyboard.press("Control+b")
    page.keyboard.type(" and more.")
    page.keyboard.press("Enter")
    page.get_by_role("button", name="Bulleted list").click()
    page.keyboard.type("first point")
    page.get_by_label("Cover image").select_option(label="cover.png")
    expect(page.locator(".field:has(select[name='f_cover']) .media-preview")).to_be_visible()
    screenshot(page, "admin-entry-new")
    page.get_by_role("button", name="Create draft").click()
    expect(page.get_by_text("Created.")).to_be_visible()

    # Publish and read it on the public site.
    page.get_by_role("button", name="Publish").click()
    expect(page.get_by_text("Published.")).to_be_visible()
    expect(page.locator("[data-entry-status]")).to_have_text("published")
    screenshot(page, "admin-entry-edit")
    item = selectors.entry_list(actor=SYSTEM, collection="posts", status="published").present().items[0]
    stored = selectors.entry_get(actor=SYSTEM, collection="posts", id=item["id"]).to_dict()["data"]
    assert stored["body"][0]["children"][1] == {
        **stored["body"][0]["children"][1],
        "text": "bold text",
        "marks": ["strong"],
    }
    assert stored["body"][1]["listItem"] == "bullet"
    assert stored["cover"]["id"]
    page.goto(base + f"/posts/{item['slug']}/")
    expect(page.get_by_role("heading", name="Hello from Chromium")).to_be_visible()
    expect(page.get_by_text("An opening paragraph with bold text and more.")).to_be_visible()


def test_schedule_a_post_edit_a_draft_compare_and_restore_a_revision(posts, live_server, page):
    make_user("editor", email="editor@example.com")
    later = make_entry(data={"title": "For next week"})
    live = make_entry(data={"title": "Version one"})
    services.entry_publish(actor=SYSTEM, collection="posts", id=live.id)
    expect = _expect()
    base = live_server.url
    log_in(page, base, "editor@example.com")

    # Schedule.
    page.goto(base + f"/_emdash/admin/content/posts/{later.id}/")
    when = (timezone.now() + timedelta(days=7)).strftime("%Y-%m-%dT%H:%M")
    page.get_by_label("Publish at").fill(when)
    page.get_by_role("button", name="Schedule").click()
    expect(page.get_by_text("Scheduled.")).to_be_visible()
    expect(page.locator("[data-entry-status]")).to_have_text("scheduled")

    # Edit the published one: the change is a draft, compare shows both.
    page.goto(base + f"/_emdash/admin/content/posts/{live.id}/")
    page.get_by_role("textbox", name="Title", exact=True).fill("Version two")
    page.get_by_role("button", name="Save draft").click()
    expect(page.get_by_text("unpublished changes")).to_be_visible()
    page.get_by_role("link", name="Compare").click()
    expect(page.locator("tr.changed")).to_contain_text("Version one")
    expect(page.locator("tr.changed")).to_contain_text("Version two")
    screenshot(page, "admin-compare")

    # Restore the first revision as the draft.
    page.get_by_role("link", name="Version two").click()
    page.get_by_role("link", name="Revisions").click()
    page.get_by_role("link", name="Compare with current").last.click()
    screenshot(page, "admin-revisions")
    page.get_by_role("button", name=re.compile("^Restore")).last.click()
    expect(page.get_by_text("Revision restored")).to_be_visible()
    expect(page.get_by_role("textbox", name="Title", exact=True)).to_have_value("Version one")

    page.goto(base + "/_emdash/admin/")
    expect(page.get_by_role("region", name="Scheduled")).to_contain_text("For next week")
    screenshot(page, "admin-dashboard")
    page.goto(base + "/_emdash/admin/content/posts/")
    screenshot(page, "admin-entry-list")


def test_build_a_nested_menu_with_the_keyboard(posts, live_server, page):
    make_user("editor", email="editor@example.com")
    expect = _expect()
    base = live_server.url
    log_in(page, base, "editor@example.com")
    page.get_by_role("link", name="Menus").click()
    page.get_by_role("textbox", name=re.compile("^Name")).fill("primary")
    page.get_by_label("Label", exact=True).fill("Primary")
    page.get_by_role("button", name="Create menu").click()
    for label, url in [("Home", "/"), ("Docs", "/docs/"), ("API", "/docs/api/"), ("About", "/about/")]:
        page.get_by_label("Label", exact=True).fill(label)
        page.get_by_label("URL").fill(url)
        page.get_by_label("Label", exact=True).press("Enter")
    expect(page.locator(".menu-items li")).to_have_count(4)
    page.get_by_role("button", name="Indent API").focus()
    page.keyboard.press("Enter")  # API under Docs
    page.get_by_role("button", name="Move About up").click()
    page.get_by_role("button", name="Move About up").click()  # About before Docs
    screenshot(page, "admin-menu-editor")
    page.get_by_role("button", name="Save menu").click()
    expect(page.get_by_text("Menu saved.")).to_be_visible()
    items = menu_selectors.menu_get(actor=SYSTEM, name="primary")["items"]
    assert [(i["label"], i["parentIndex"]) for i in items] == [
        ("Home", None),
        ("About", None),
        ("Docs", None),
        ("API", 2),
    ]


def test_create_a_token_and_see_it_only_once(cms, live_server, page):
    user = make_user("editor", email="editor@example.com")
    expect = _expect()
    base = live_server.url
    log_in(page, base, "editor@example.com")
    page.get_by_role("link", name="API tokens").click()
    page.get_by_label("Name", exact=True).fill("Claude Code")
    page.get_by_role("checkbox", name=re.compile(r"content:read List")).check()
    page.get_by_role("checkbox", name=re.compile(r"content:write Create")).check()
    page.get_by_role("button", name="Create token").click()
    shown = page.get_by_label("New token").input_value()
    assert shown.startswith("ec_pat_")
    screenshot(page, "admin-token-created")
    token = PersonalAccessToken.objects.get(user=user)
    assert token.scopes == ["content:read", "content:write"]
    page.reload()
    expect(page.get_by_label("New token")).to_have_count(0)
    assert shown not in page.content()
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Revoke Claude Code").click()
    expect(page.get_by_text("Token revoked.")).to_be_visible()


def test_an_author_cannot_reach_admin_only_screens(posts, live_server, page):
    make_user("author", email="author@example.com")
    expect = _expect()
    base = live_server.url
    log_in(page, base, "author@example.com")
    nav = page.get_by_role("navigation", name="Admin")
    expect(nav.get_by_role("link", name="Posts")).to_be_visible()
    for hidden in ("Users", "Schema", "Settings", "Audit log", "Menus", "Taxonomies"):
        expect(nav.get_by_role("link", name=hidden)).to_have_count(0)
    for path in ("users", "schema", "settings", "audit", "menus"):
        response = page.goto(base + f"/_emdash/admin/{path}/")
        assert response is not None and response.status == 403
        expect(page.get_by_role("alert")).to_contain_text("does not allow")
    screenshot(page, "admin-forbidden-for-author")


def test_admin_screens_render_for_admins(posts, live_server, page):
    from taxonomy import services as taxonomy_services

    make_user("admin", email="admin@example.com")
    news = taxonomy_services.term_create(actor=SYSTEM, taxonomy="category", slug="news", label="News")
    taxonomy_services.term_create(actor=SYSTEM, taxonomy="category", slug="local", label="Local", parent_id=news.id)
    expect = _expect()
    base = live_server.url
    log_in(page, base, "admin@example.com")
    for path, heading, name in [
        ("schema/", "Schema", "admin-schema"),
        ("schema/posts/", "Posts posts", "admin-schema-collection"),
        ("taxonomies/category/", "Categories", "admin-taxonomy-terms"),
        ("taxonomies/category/local/", "Edit", "admin-taxonomy-term-edit"),
        ("settings/", "Site settings", "admin-settings"),
        ("users/", "Users and roles", "admin-users"),
        ("audit/", "Audit log", "admin-audit-log"),
    ]:
        page.goto(base + "/_emdash/admin/" + path)
        expect(page.get_by_role("heading", level=1)).to_contain_text(heading.split()[0])
        screenshot(page, name)
