"""Bylines on the public site: the entry page, the cards of lists and the RSS feed (SPEC 10)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from bylines import services as byline_services
from content.entries import services
from tests.site.conftest import SYSTEM

pytestmark = pytest.mark.django_db


def credit() -> None:
    jane = byline_services.byline_create(
        actor=SYSTEM, slug="jane", display_name="Jane <Doe>", website_url="https://jane.example/"
    )
    sam = byline_services.byline_create(actor=SYSTEM, slug="sam", display_name="Sam Photo")
    bylines = [{"bylineId": jane.id}, {"bylineId": sam.id, "roleLabel": "Photos"}]
    entry = services.entry_update(actor=SYSTEM, collection="posts", id="hello-world", bylines=bylines)
    services.entry_publish(actor=SYSTEM, collection="posts", id=entry.id)


def test_the_entry_page_shows_every_credit_escaped(site: dict[str, Any]) -> None:
    credit()
    html = Client().get("/posts/hello-world/").content.decode()
    assert '<a href="https://jane.example/" rel="author">Jane &lt;Doe&gt;</a>' in html
    assert "Sam Photo (Photos)" in html


def test_cards_and_the_feed_show_the_primary_byline(site: dict[str, Any]) -> None:
    credit()
    listed = "".join(Client().get(f"/posts/?page={n}").content.decode() for n in (1, 2))  # one post per page
    assert '<span class="byline">Jane &lt;Doe&gt;</span>' in listed
    feed = Client().get("/feed.xml").content.decode()
    assert 'xmlns:dc="http://purl.org/dc/elements/1.1/">Jane &lt;Doe&gt;</dc:creator>' in feed
