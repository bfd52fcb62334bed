"""Purging shared caches after changes, against a fake purge endpoint on 127.0.0.1 (Varnish, Cloudflare, Fastly)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.db import transaction

from content.entries import services
from emdash import purge
from menus import services as menu_services
from settings_app import services as settings_services
from tests.factories import SYSTEM


class FakeCdn:
    def __init__(self) -> None:
        self.seen: list[dict[str, Any]] = []
        self.fail = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                outer.seen.append(
                    {"method": self.command, "path": self.path, "headers": dict(self.headers), "body": raw}
                )
                status = 500 if outer.fail > 0 else 200
                outer.fail -= 1
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            do_PURGE = do_POST = do_BAN = _answer

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def purged_keys(self) -> set[str]:
        found: set[str] = set()
        for request in self.seen:
            found.update((request["headers"].get("Surrogate-Key") or "").split())
            if request["body"]:
                found.update(json.loads(request["body"]).get("tags", []))
        return found


@pytest.fixture
def cdn() -> Iterator[FakeCdn]:
    fake = FakeCdn()
    yield fake
    fake.server.shutdown()


def _configure(settings: Any, **conf: Any) -> None:
    settings.EMDASH = {**settings.EMDASH, "CACHE_PURGE": conf}


def test_publish_purges_the_item_its_collection_and_lists_with_http_purge(posts, cdn, settings) -> None:
    _configure(settings, backend="http", url=f"{cdn.url}/")
    entry = services.entry_create(actor=SYSTEM, collection="posts", data={"title": "Hello"})
    assert purge.flush()
    cdn.seen.clear()
    services.entry_publish(actor=SYSTEM, collection="posts", id=entry.id)
    assert purge.flush()
    assert cdn.seen and all(r["method"] == "PURGE" for r in cdn.seen)
    assert {f"item:{entry.id}", "collection:posts", "content"} <= cdn.purged_keys()
    assert cdn.seen[-1]["headers"]["Cache-Tag"]
    cdn.seen.clear()
    services.entry_unpublish(actor=SYSTEM, collection="posts", id=entry.id)
    assert purge.flush() and f"item:{entry.id}" in cdn.purged_keys()


def test_a_rolled_back_write_purges_nothing(posts, cdn, settings) -> None:
    _configure(settings, backend="http", url=f"{cdn.url}/", method="BAN")
    with pytest.raises(RuntimeError), transaction.atomic():
        services.entry_create(actor=SYSTEM, collection="posts", data={"title": "Gone"})
        raise RuntimeError("roll back")
    assert purge.flush() and cdn.seen == []


def test_menu_and_settings_changes_purge_their_keys(posts, cdn, settings) -> None:
    _configure(settings, backend="http", url=f"{cdn.url}/", method="BAN")
    menu_services.menu_create(actor=SYSTEM, name="primary", label="Primary")
    menu_services.menu_set_items(
        actor=SYSTEM, name="primary", items=[{"label": "Home", "type": "custom", "customUrl": "/"}]
    )
    settings_services.settings_update(actor=SYSTEM, changes={"title": "Jam"})
    assert purge.flush()
    assert {"menu:primary", "settings"} <= cdn.purged_keys() and cdn.seen[0]["method"] == "BAN"


def test_cloudflare_gets_tags_through_its_api(posts, cdn, settings) -> None:
    _configure(settings, backend="cloudflare", zone="z1", token="cf-secret", api=cdn.url)
    settings_services.settings_update(actor=SYSTEM, changes={"title": "Jam"})
    assert purge.flush()
    request = cdn.seen[-1]
    assert request["method"] == "POST" and request["path"] == "/zones/z1/purge_cache"
    assert request["headers"]["Authorization"] == "Bearer cf-secret"
    assert json.loads(request["body"]) == {"tags": ["settings"]}


def test_fastly_gets_surrogate_keys_through_its_api(posts, cdn, settings) -> None:
    _configure(settings, backend="fastly", service="svc", token="fk", api=cdn.url)
    settings_services.settings_update(actor=SYSTEM, changes={"title": "Jam"})
    assert purge.flush()
    request = cdn.seen[-1]
    assert request["method"] == "POST" and request["path"] == "/service/svc/purge"
    assert request["headers"]["Fastly-Key"] == "fk" and request["headers"]["Surrogate-Key"] == "settings"


def test_a_failed_purge_is_retried_once(posts, cdn, settings) -> None:
    _configure(settings, backend="http", url=f"{cdn.url}/")
    cdn.fail = 1
    assert purge.send(["settings"]) is True
    assert len(cdn.seen) == 2


def test_a_broken_configuration_is_named(settings) -> None:
    _configure(settings, backend="fastly", token="x")
    with pytest.raises(purge.PurgeConfigError, match="service"):
        purge.config()
    settings.EMDASH = {**settings.EMDASH, "CACHE_PURGE": {"backend": "akamai"}}
    with pytest.raises(purge.PurgeConfigError, match="http, cloudflare, fastly"):
        purge.config()


def test_a_media_change_purges_the_items_collections_and_pages_showing_it(cms, cdn, settings) -> None:
    """The media stamp moving is not enough for a CDN: the items using the image, their collections' lists and
    pages, the pages showing any item and (for the site logo) every page are purged by key."""
    from media.services import media_update
    from tests.factories import make_collection
    from tests.media.helpers import media_rows

    cover, logo, unused = "01ARZ3NDEKTSV4RRFFQ69G5FA1", "01ARZ3NDEKTSV4RRFFQ69G5FA2", "01ARZ3NDEKTSV4RRFFQ69G5FA3"
    media_rows(cover, logo, unused)
    image_field = {"slug": "cover", "label": "Cover", "type": "image"}
    make_collection("posts", fields=[{"slug": "title", "label": "Title", "type": "string"}, image_field])
    make_collection("pages", fields=[{"slug": "title", "label": "Title", "type": "string"}, image_field])
    post = services.entry_create(
        actor=SYSTEM, collection="posts", data={"title": "P", "cover": {"id": cover}}, status="published"
    )
    page = services.entry_create(actor=SYSTEM, collection="pages", data={"title": "A", "cover": {"id": cover}})
    services.entry_create(actor=SYSTEM, collection="pages", data={"title": "No image"})
    settings_services.settings_update(actor=SYSTEM, changes={"logo": {"mediaId": logo}})
    _configure(settings, backend="http", url=f"{cdn.url}/")
    media_update(actor=SYSTEM, id=cover, alt="A new description")
    assert purge.flush()
    shown = {f"item:{post.id}", f"item:{page.id}", "collection:posts", "collection:pages", "content"}
    assert cdn.purged_keys() == shown
    cdn.seen.clear()
    media_update(actor=SYSTEM, id=logo, alt="Logo")
    assert purge.flush() and cdn.purged_keys() == {"settings"}
    cdn.seen.clear()
    media_update(actor=SYSTEM, id=unused, alt="Nobody shows it")
    assert purge.flush() and cdn.seen == []


def test_a_schema_change_purges_the_collections_reads(posts, cdn, settings) -> None:
    """Adding, changing or deleting a field changes every item's data (a new field shows with its default): the
    CDN's copies of the collection's items and lists must go, as the ETags already moved."""
    from content.schema import services as schema_services
    from content.schema import updates as schema_updates

    _configure(settings, backend="http", url=f"{cdn.url}/")
    schema_services.field_create(actor=SYSTEM, collection="posts", slug="subtitle", label="Subtitle", type="string")
    assert purge.flush() and {"collection:posts", "content"} <= cdn.purged_keys()
    cdn.seen.clear()
    schema_updates.field_update(actor=SYSTEM, collection="posts", field_slug="subtitle", label="Sub")
    assert purge.flush() and "collection:posts" in cdn.purged_keys()
    cdn.seen.clear()
    schema_services.field_delete(actor=SYSTEM, collection="posts", field_slug="subtitle")
    assert purge.flush() and "collection:posts" in cdn.purged_keys()
    cdn.seen.clear()
    schema_services.collection_delete(actor=SYSTEM, slug="posts", force=True)
    assert purge.flush() and {"collection:posts", "content"} <= cdn.purged_keys()


def test_a_failed_purge_logs_no_credential_of_the_url(settings, caplog) -> None:
    """A Varnish behind basic auth (user:password@host) or a purge URL with a key in its query: the log line says
    where the purge went without either."""
    _configure(settings, backend="http", url="http://purger:s3cret-pass@127.0.0.1:9/purge?key=s3cret-key", timeout=1)
    with caplog.at_level("WARNING", logger="emdash.purge"):
        assert purge.send(["settings"]) is False
    logged = " ".join(r.getMessage() for r in caplog.records)
    assert "127.0.0.1:9/purge" in logged
    assert "s3cret" not in logged and len(caplog.records) == 1
