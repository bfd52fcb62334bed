"""The browser harness itself: the system chromium renders the public site from the live server."""

from __future__ import annotations

import pytest

from content.entries import services
from emdash.actor import Actor
from tests.factories import make_collection

pytestmark = pytest.mark.slow


def test_public_home_shows_published_posts_and_hides_drafts(cms, live_server, page):
    make_collection("posts")
    system = Actor.system()
    published = services.entry_create(actor=system, collection="posts", data={"title": "Seen in Chromium"})
    services.entry_publish(actor=system, collection="posts", id=published.id)
    services.entry_create(actor=system, collection="posts", data={"title": "Secret draft"})

    page.goto(live_server.url + "/")
    body = page.locator("body")
    assert "Seen in Chromium" in body.inner_text()
    assert "Secret draft" not in page.content()
