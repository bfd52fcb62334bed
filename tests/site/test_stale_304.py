"""No stale 304: every write that changes a cached read moves its ETag (docs/caching.md), on the public files
(robots.txt, the sitemap, the feed), the pages, and the REST reads of menus, settings, taxonomies and bylines.

Each case reads its paths, checks a conditional GET is answered 304 (so the read has validators to go stale),
makes the change, and checks the old ETag now gets the new body with a new ETag."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from bylines import services as byline_services
from content.entries import services
from menus import services as menu_services
from settings_app import services as settings_services
from taxonomy import definitions as taxonomy_definitions
from taxonomy import services as taxonomy_services
from tests.api.helpers import client_for
from tests.site.conftest import SYSTEM

API = "/_emdash/api"


@pytest.fixture
def credited(site) -> dict[str, Any]:
    jane = byline_services.byline_create(actor=SYSTEM, slug="jane", display_name="Jane Doe")
    services.entry_update(actor=SYSTEM, collection="posts", id=site["hello"].id, bylines=[{"bylineId": jane.id}])
    services.entry_publish(actor=SYSTEM, collection="posts", id=site["hello"].id)
    return {**site, "jane": jane}


def _publish_draft(s: dict[str, Any]) -> None:
    services.entry_publish(actor=SYSTEM, collection="posts", id=s["draft"].id)


def _schedule_then_worker(s: dict[str, Any]) -> None:
    """The worker's sweep publishes a due item: as a publish by a person, it moves every validator showing it."""
    when = timezone.now() + timedelta(hours=1)
    services.entry_schedule(actor=SYSTEM, collection="posts", id=s["draft"].id, scheduled_at=when.isoformat())
    assert services.publish_due(now=when + timedelta(seconds=1)) == 1


def _edit_menu(s: dict[str, Any]) -> None:
    menu_services.menu_set_items(
        actor=SYSTEM, name="primary", items=[{"label": "Start", "type": "custom", "customUrl": "/"}]
    )


def _rename_term(s: dict[str, Any]) -> None:
    taxonomy_services.term_update(actor=SYSTEM, taxonomy="category", term="news", label="Breaking news")


def _new_term(s: dict[str, Any]) -> None:
    taxonomy_services.term_create(actor=SYSTEM, taxonomy="category", slug="jam", label="Jam")


def _relabel_taxonomy(s: dict[str, Any]) -> None:
    taxonomy_definitions.taxonomy_update(actor=SYSTEM, name="category", label_singular="Topic")


def _change_setting(s: dict[str, Any]) -> None:
    settings_services.settings_update(
        actor=SYSTEM, changes={"tagline": "Now with marmalade", "url": "https://jam.example", "seo": {}}
    )


def _edit_byline(s: dict[str, Any]) -> None:
    byline_services.byline_update(actor=SYSTEM, id=s["jane"].id, displayName="Jane Marmalade")


def _credit_only(s: dict[str, Any]) -> None:
    """An edit of the credits alone does not touch the item's row (its _rev): the item's ETag still moves."""
    sam = byline_services.byline_create(actor=SYSTEM, slug="sam", display_name="Sam")
    services.entry_update(actor=SYSTEM, collection="posts", id=s["hello"].id, bylines=[{"bylineId": sam.id}])


HELLO = f"{API}/content/posts/hello-world"
CASES: dict[str, tuple[Callable[[dict[str, Any]], None], list[str]]] = {
    "publish": (_publish_draft, ["/feed.xml", "/sitemap.xml", "/posts/", f"{API}/content/posts", "/search/?q=plans"]),
    "scheduled publish by the worker": (
        _schedule_then_worker,
        ["/feed.xml", "/sitemap.xml", "/", f"{API}/content/posts", f"{API}/search?q=plans"],
    ),
    "menu edit": (_edit_menu, [f"{API}/menus/primary", f"{API}/menus", "/posts/hello-world/", "/category/news/"]),
    "term rename": (
        _rename_term,
        [
            f"{API}/taxonomies/category/terms",
            f"{API}/taxonomies/category/terms/news",
            f"{API}/content/posts/hello-world/terms/category",
            HELLO,
            "/category/news/",
            "/posts/hello-world/",
            "/feed.xml",
        ],
    ),
    "term create": (_new_term, [f"{API}/taxonomies/category/terms", "/sitemap.xml"]),
    "taxonomy relabel": (_relabel_taxonomy, [f"{API}/taxonomies", f"{API}/taxonomies/category", "/category/news/"]),
    "setting change": (_change_setting, ["/robots.txt", "/feed.xml", "/sitemap.xml", "/"]),
    "byline edit": (
        _edit_byline,
        ["/feed.xml", "/posts/hello-world/", HELLO, f"{API}/content/posts", f"{API}/bylines", f"{API}/bylines/jane"],
    ),
    "credits only": (_credit_only, [HELLO, "/feed.xml", "/posts/hello-world/"]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_change_never_leaves_a_stale_304(credited, case) -> None:
    change, paths = CASES[case]
    client = Client()
    before = {}
    for path in paths:
        first = client.get(path)
        assert first.status_code == 200, (path, first.content[:300])
        assert first["Cache-Control"].startswith("public"), path
        assert client.get(path, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304, path
        before[path] = first
    change(credited)
    for path, first in before.items():
        again = client.get(path, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 200, f"{case}: {path} kept its ETag"
        assert again["ETag"] != first["ETag"] and again.content != first.content, path


def test_a_settings_change_moves_the_editors_settings_read(site) -> None:
    admin = client_for("admin")
    first = admin.get(f"{API}/settings")
    assert first.status_code == 200 and first["Cache-Control"] == "private, no-cache"
    assert admin.get(f"{API}/settings", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    _change_setting(site)
    assert admin.get(f"{API}/settings", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


def test_a_draft_keeps_visitors_validators_and_moves_editors(site) -> None:
    """A draft changes nothing visitors see: their copies stay valid (no purge either); editors see it."""
    visitor, editor = Client(), client_for("editor")
    public = visitor.get(f"{API}/content/posts")
    private = editor.get(f"{API}/content/posts?status=draft")
    page = visitor.get("/posts/")
    services.entry_create(actor=SYSTEM, collection="posts", data={"title": "Another secret"})
    services.entry_update(actor=SYSTEM, collection="posts", id=site["draft"].id, data={"title": "Plans B"})
    assert visitor.get(f"{API}/content/posts", HTTP_IF_NONE_MATCH=public["ETag"]).status_code == 304
    assert visitor.get("/posts/", HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 304
    again = editor.get(f"{API}/content/posts?status=draft", HTTP_IF_NONE_MATCH=private["ETag"])
    assert again.status_code == 200 and "Another secret" in again.content.decode()


@pytest.mark.parametrize(
    ("path", "keys"),
    [
        ("/robots.txt", {"settings"}),
        ("/sitemap.xml", {"settings", "content", "taxonomies"}),
        ("/feed.xml", {"settings", "collection:posts", "taxonomies"}),
        (f"{API}/menus", {"menus"}),
        (f"{API}/menus/primary", {"menu:primary", "content"}),
        (f"{API}/taxonomies/category/terms", {"taxonomies"}),
        (f"{API}/bylines", {"bylines"}),
    ],
)
def test_public_files_and_reads_carry_their_surrogate_keys(credited, path, keys) -> None:
    response = Client().get(path)
    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=60, s-maxage=300"
    assert set(response["Surrogate-Key"].split()) == keys
    assert "cookie" not in response.get("Vary", "").lower()


def test_if_none_match_star_never_hides_a_missing_thing(site) -> None:
    for path in (f"{API}/menus/nope", f"{API}/taxonomies/category/terms/nope", f"{API}/bylines/nope"):
        assert Client().get(path, HTTP_IF_NONE_MATCH="*").status_code == 404, path
    assert Client().get(f"{API}/menus/primary", HTTP_IF_NONE_MATCH="*").status_code == 200
