"""Live updates in the browser: an assistant changes content over MCP and open admin pages show it without a
reload; the edit page warns before overwriting the newer version. Runs against a real daphne server
(ASGI + websockets) so the whole path — MCP write, commit signal, channel layer, websocket — is exercised."""

from __future__ import annotations

import json

import httpx
import pytest
from django.test import Client

from accounts.tokens import token_create
from content.entries import selectors
from tests.browser import screenshot
from tests.factories import SYSTEM, make_collection, make_entry, make_user

pytestmark = pytest.mark.slow


def _mcp(base: str, token: str, name: str, arguments: dict) -> dict:
    response = httpx.post(
        base + "/_emdash/api/mcp",
        content=json.dumps(
            {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
        ),
        headers={
            "Authorization": f"Bearer {token}",
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": "2025-11-25",
        },
        timeout=10,
    )
    body = response.json()
    assert response.status_code == 200 and not body["result"].get("isError"), body
    return body["result"]


def _sign_in(page, base: str, user) -> None:
    """A session made in the test process (the server shares its database) instead of the login form:
    the test settings' fast password hasher is not the server's."""
    client = Client()
    client.force_login(user)
    page.context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}])


def test_assistant_changes_over_mcp_appear_on_open_pages_and_block_stale_saves(daphne_server, page):
    from playwright.sync_api import expect

    base = daphne_server
    make_collection("posts")
    editor = make_user("editor", email="editor@example.com")
    bot = make_user("editor", email="assistant@example.com")
    bot.name = "Assistant Bot"  # editors see names (or roles), never other users' e-mail addresses
    bot.save()
    assistant = token_create(user=bot, name="ai", scopes=["admin"]).raw
    existing = make_entry(data={"title": "Written by a human"})
    _sign_in(page, base, editor)

    page.goto(base + "/_emdash/admin/content/posts/")
    expect(page.locator("body")).to_have_attribute("data-live", "connected")
    _mcp(base, assistant, "content_create", {"collection": "posts", "data": {"title": "Drafted by the assistant"}})
    expect(page.locator("#entry-rows")).to_contain_text("Drafted by the assistant")
    expect(page.locator("#live-banner")).to_contain_text("Assistant Bot via an API client")
    screenshot(page, "admin-live-list-update")

    page.goto(base + f"/_emdash/admin/content/posts/{existing.id}/")
    expect(page.locator("body")).to_have_attribute("data-live", "connected")
    page.get_by_role("textbox", name="Title", exact=True).fill("My local edit")
    _mcp(base, assistant, "content_update", {"collection": "posts", "id": existing.id, "data": {"title": "AI edit"}})
    warning = page.locator("#stale-warning")
    expect(warning).to_be_visible()
    expect(warning).to_contain_text("updated by Assistant Bot")
    screenshot(page, "admin-live-stale-warning")
    page.once("dialog", lambda dialog: dialog.accept())  # "Try anyway?" -> the server refuses the stale _rev
    page.get_by_role("button", name="Save draft").click()
    expect(page.get_by_role("textbox", name="Title", exact=True)).to_have_value("My local edit")
    expect(page.get_by_text("Overwrite the newer version", exact=True)).to_be_visible()
    assert selectors.entry_get(actor=SYSTEM, collection="posts", id=existing.id).to_dict()["data"]["title"] == "AI edit"
    page.get_by_label("Overwrite the newer version").check()
    page.get_by_role("button", name="Save draft").click()
    expect(page.get_by_text("Saved.")).to_be_visible()
    assert selectors.entry_get(actor=SYSTEM, collection="posts", id=existing.id).to_dict()["data"]["title"] == (
        "My local edit"
    )


def test_files_dropped_on_the_media_library_are_uploaded(cms, live_server, page, tmp_path):
    from playwright.sync_api import expect

    from media.models import MediaItem
    from tests.e2e.admin_helpers import log_in, png_file

    make_user("author", email="author@example.com")
    log_in(page, live_server.url, "author@example.com")
    page.goto(live_server.url + "/_emdash/admin/media/")
    data = list(png_file(tmp_path, "dropped.png", "orange").read_bytes())
    page.evaluate(
        """(bytes) => {
            const transfer = new DataTransfer();
            transfer.items.add(new File([new Uint8Array(bytes)], "dropped.png", { type: "image/png" }));
            const zone = document.querySelector("[data-dropzone]");
            zone.dispatchEvent(new DragEvent("dragover", { dataTransfer: transfer, bubbles: true }));
            zone.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true }));
        }""",
        data,
    )
    expect(page.locator(".media-card .filename")).to_have_text("dropped.png")
    assert MediaItem.objects.get().filename == "dropped.png"
