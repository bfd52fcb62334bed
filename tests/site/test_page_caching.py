"""Public pages: ETag/Last-Modified, 304 before rendering, public cache headers, surrogate keys, no nonce, and
the query budget of an entry page (menus and settings cached per process, invalidated through change stamps)."""

from __future__ import annotations

import base64
import hashlib
import re

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from content.entries import services
from content.stamps import forget_all
from menus import services as menu_services
from settings_app import services as settings_services
from tests.site.conftest import SYSTEM


def test_entry_page_is_public_with_validators_keys_and_no_vary_cookie(site) -> None:
    response = Client().get("/posts/hello-world/")
    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=60, s-maxage=300"
    assert response["ETag"].startswith('"') and response["Last-Modified"]
    assert "cookie" not in response.get("Vary", "").lower()
    keys = response["Surrogate-Key"].split()
    assert f"item:{site['hello'].id}" in keys and "collection:posts" in keys
    assert {"settings", "menu:primary", "menu:footer"} <= set(keys)
    assert response["Cache-Tag"] == ",".join(keys)


def test_conditional_get_answers_304_before_rendering(site) -> None:
    client = Client()
    first = client.get("/posts/hello-world/")
    with CaptureQueriesContext(connection) as captured:
        again = client.get("/posts/hello-world/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == first["ETag"] and again["Cache-Control"].startswith("public")
    # The change stamps, nothing else; on SQLite not even those: nothing was written since the 200 read them.
    assert len(captured) == (0 if connection.vendor == "sqlite" else 1), [q["sql"] for q in captured.captured_queries]
    since = client.get("/posts/hello-world/", HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert since.status_code == 304
    stale = client.get("/posts/hello-world/", HTTP_IF_NONE_MATCH='"other"')
    assert stale.status_code == 200


def test_any_visible_change_moves_the_etag(site) -> None:
    client = Client()
    etag = client.get("/posts/hello-world/")["ETag"]
    services.entry_update(actor=SYSTEM, collection="posts", id=site["second"].id, data={"title": "Second, edited"})
    services.entry_publish(actor=SYSTEM, collection="posts", id=site["second"].id)
    after_content = client.get("/posts/hello-world/", HTTP_IF_NONE_MATCH=etag)
    assert after_content.status_code == 200
    etag = after_content["ETag"]
    menu_services.menu_set_items(
        actor=SYSTEM, name="primary", items=[{"label": "Home", "type": "custom", "customUrl": "/"}]
    )
    after_menu = client.get("/posts/hello-world/", HTTP_IF_NONE_MATCH=etag)
    assert after_menu.status_code == 200 and "About" not in after_menu.content.decode()
    etag = after_menu["ETag"]
    settings_services.settings_update(actor=SYSTEM, changes={"title": "Jam Weekly"})
    after_settings = client.get("/posts/hello-world/", HTTP_IF_NONE_MATCH=etag)
    assert after_settings.status_code == 200 and "Jam Weekly" in after_settings.content.decode()


def test_signed_in_visitors_get_private_pages(site, django_user_model) -> None:
    client = Client()
    client.cookies["sessionid"] = "anything"
    response = client.get("/posts/hello-world/")
    assert response.status_code == 200 and response["Cache-Control"].startswith("private")
    assert "Surrogate-Key" not in response


def test_public_pages_carry_no_nonce_and_their_style_is_allowed_by_hash(site) -> None:
    response = Client().get("/posts/hello-world/")
    policy = response["Content-Security-Policy"]
    assert "nonce-" not in policy and "nonce=" not in response.content.decode()
    style = re.search(r"<style>(.*?)</style>", response.content.decode(), re.S)
    assert style is not None
    digest = base64.b64encode(hashlib.sha256(style.group(1).encode()).digest()).decode()
    assert f"'sha256-{digest}'" in policy


def test_previews_stay_private_and_uncached(site) -> None:
    response = Client().get("/_emdash/share/not-a-token/")
    assert response["Cache-Control"] == "private, no-store" and "ETag" not in response


def test_entry_page_costs_at_most_four_queries(site) -> None:
    client = Client()
    forget_all()
    client.get("/posts/hello-world/")  # menus and settings built once for this process
    with CaptureQueriesContext(connection) as captured:
        response = client.get("/posts/hello-world/")
    assert response.status_code == 200
    assert len(captured) <= 4, "\n".join(q["sql"] for q in captured.captured_queries)


def test_menus_rebuild_when_another_process_changed_them(site) -> None:
    """The per-process menu cache follows the change stamp, which any process's write raises."""
    client = Client()
    assert "About" in client.get("/posts/hello-world/").content.decode()
    menu_services.menu_set_items(
        actor=SYSTEM, name="primary", items=[{"label": "Shop", "type": "custom", "customUrl": "/shop"}]
    )
    page = client.get("/posts/hello-world/").content.decode()
    assert "Shop" in page and ">About<" not in page
