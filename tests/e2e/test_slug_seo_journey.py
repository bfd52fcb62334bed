"""An editor moves a published post to a new slug and gives it SEO, in headless Chromium: the old URL stays live
until publish, then answers 301; the SEO fields end up in the page's <head>; the redirect is listed in the admin."""

from __future__ import annotations

import pytest

from content.entries import services
from tests.browser import screenshot
from tests.e2e.admin_helpers import log_in
from tests.factories import SYSTEM, make_entry, make_user

pytestmark = pytest.mark.slow


def test_move_a_published_post_with_seo_and_follow_the_redirect(posts, live_server, page):
    from playwright.sync_api import expect

    make_user("editor", email="editor@example.com")
    post = make_entry(data={"title": "Jam recipes", "excerpt": "Plain excerpt"})
    services.entry_publish(actor=SYSTEM, collection="posts", id=post.id)
    base = live_server.url
    log_in(page, base, "editor@example.com")

    page.goto(base + f"/_emdash/admin/content/posts/{post.id}/")
    page.get_by_label("Slug").fill("best-jam-recipes")
    page.get_by_text("SEO", exact=True).click()  # open the SEO section
    page.get_by_label("SEO title").fill("The best jam recipes")
    page.get_by_label("Meta description").fill("Twelve jams worth the sugar")
    page.get_by_role("button", name="Save draft").click()
    expect(page.get_by_text("Saved.")).to_be_visible()
    expect(page.locator("[data-slug-pending]")).to_contain_text("/posts/jam-recipes/")

    # Until publish the old URL is the live one, with the old head.
    old = page.request.get(base + "/posts/jam-recipes/", max_redirects=0)
    assert old.status == 200 and "The best jam recipes" not in old.text()
    assert page.request.get(base + "/posts/best-jam-recipes/", max_redirects=0).status == 404

    page.get_by_role("button", name="Publish changes").click()
    expect(page.get_by_text("Published.")).to_be_visible()
    moved = page.request.get(base + "/posts/jam-recipes/", max_redirects=0)
    assert moved.status == 301 and moved.headers["location"] == "/posts/best-jam-recipes/"

    page.goto(base + "/posts/jam-recipes/")  # the browser follows the 301
    assert page.url == base + "/posts/best-jam-recipes/"
    expect(page).to_have_title("The best jam recipes · EmDash")
    expect(page.locator('meta[name="description"]')).to_have_attribute("content", "Twelve jams worth the sugar")
    expect(page.locator('meta[property="og:title"]')).to_have_attribute("content", "The best jam recipes")

    page.goto(base + "/_emdash/admin/")
    page.get_by_role("link", name="Redirects").click()
    row = page.locator('tr[data-redirect="/posts/jam-recipes/"]')
    expect(row).to_contain_text("/posts/best-jam-recipes/")
    expect(row).to_contain_text("slug changed")
    screenshot(page, "admin-redirects")
