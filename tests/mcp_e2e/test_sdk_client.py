"""End to end with the official ``mcp`` SDK client against the real endpoint on a live HTTP server.

Every test runs in both client modes: ``auto`` (``server/discover``, adopting 2026-07-28) and
``legacy`` (the ``initialize`` handshake at 2025-11-25). The database is touched only outside the
event loop (setup before ``asyncio.run``, checks after it); everything in between goes over HTTP.
"""

from __future__ import annotations

import asyncio
import base64
import json
import urllib.request
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from mcp import Client, MCPError
from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client

from accounts.tokens import token_create, token_revoke
from audit.models import AuditLog
from content.entries import rows
from content.models import Collection
from content.schema import specs as schema
from emdash.roles import Role
from mcp_endpoint.registry import REGISTRY, load_tools
from tests.mcp_e2e.conftest import new_user, token_for
from tests.media.helpers import image_bytes, place

GIF = image_bytes("GIF", size=(3, 2))

load_tools()

MODES = [
    pytest.param("auto", "2026-07-28", id="auto"),
    pytest.param("legacy", "2025-11-25", id="legacy"),
]
STRUCTURED_VERSIONS = {"2025-06-18", "2025-11-25", "2026-07-28"}  # structuredContent exists from 2025-06-18 on
INVALID_REQUEST = -32600
UNAUTHORIZED = -32001

FIELDS: list[dict[str, Any]] = [
    {"slug": "title", "label": "Title", "type": "string", "required": True, "searchable": True},
    {
        "slug": "category",
        "label": "Category",
        "type": "select",
        "validation": {"options": ["news", "review", "opinion"]},
    },
    {"slug": "rating", "label": "Rating", "type": "integer", "validation": {"min": 1, "max": 5}},
    {"slug": "featured", "label": "Featured", "type": "boolean", "defaultValue": False},
    {"slug": "body", "label": "Body", "type": "portableText"},
    {"slug": "scratch", "label": "Scratch", "type": "text"},
]
# Fully keyed Portable Text, as it is stored (SPEC 6.4c fills in what a writer leaves out).
BODY = [
    {
        "_type": "block",
        "_key": "b1",
        "style": "normal",
        "markDefs": [],
        "children": [{"_type": "span", "_key": "s1", "text": "Written over MCP.", "marks": []}],
    }
]


@asynccontextmanager
async def connect(url: str, token: str, mode: str) -> AsyncIterator[Client]:
    async with (
        create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http,
        Client(streamable_http_client(url, http_client=http), mode=mode) as client,
    ):
        yield client


class Session:
    """A connected client plus the checks every call needs; remembers which tools it called."""

    def __init__(self, client: Client, version: str) -> None:
        assert client.protocol_version == version
        self.client = client
        self.version = version
        self.called: set[str] = set()

    async def ok(self, name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        """Call a tool that must succeed; the payload, from structuredContent and the text (which must agree)."""
        result = await self.client.call_tool(name, arguments or {})
        text = result.content[0].text
        assert not result.is_error, f"{name} failed: {text}"
        self.called.add(name)
        body = json.loads(text)
        assert isinstance(body, dict)
        if self.version in STRUCTURED_VERSIONS:
            assert result.structured_content == body, f"{name}: structuredContent differs from the text"
        else:
            assert result.structured_content is None
        assert result.meta and result.meta.get("traceId"), "every result carries _meta.traceId"
        return body

    async def tool_error(self, name: str, arguments: dict[str, Any]) -> tuple[str, str]:
        """Call a tool that must answer with a tool error; (code, message)."""
        result = await self.client.call_tool(name, arguments)
        assert result.is_error is True, f"{name} unexpectedly succeeded: {result.content}"
        assert result.meta is not None and result.meta.get("traceId")
        self.called.add(name)
        return result.meta["code"], result.content[0].text

    async def rpc_error(self, name: str, arguments: dict[str, Any]) -> MCPError:
        with pytest.raises(MCPError) as info:
            await self.client.call_tool(name, arguments)
        return info.value


def future(days: int = 3) -> str:
    return (datetime.now(UTC) + timedelta(days=days)).isoformat().replace("+00:00", "Z")


def ids(page: dict[str, Any]) -> list[str]:
    return [i["id"] for i in page["items"]]


# --- the whole tool set in one realistic session --------------------------------------------------


async def domain_tools(s: Session, storage_key: str, post_id: str, admin_id: int) -> None:
    """Media, settings, taxonomies, menus and search around the published article ``post_id``."""
    # The WordPress import's own tests are in tests/transfer; here: a private address is refused (SPEC 6.4b).
    code, _ = await s.tool_error("import_wordpress", {"url": "http://127.0.0.1:9/export.xml"})
    assert code == "VALIDATION_ERROR"
    made = (
        await s.ok(
            "media_create",
            {"filename": "cover.png", "mimeType": "image/png", "storageKey": storage_key, "alt": "Cover"},
        )
    )["item"]
    media_id = made["id"]
    assert (made["width"], made["height"], made["mimeType"]) == (40, 20, "image/png") and made["url"]
    assert [m["id"] for m in (await s.ok("media_list", {"mimeType": "image/"}))["items"]] == [media_id]
    assert (await s.ok("media_get", {"id": media_id}))["item"]["alt"] == "Cover"
    uploaded = (await s.ok("media_upload", {"filename": "dot.gif", "data": base64.b64encode(GIF).decode()}))["item"]
    assert uploaded["mimeType"] == "image/gif" and uploaded["width"] == 3 and uploaded["url"]
    updated = (await s.ok("media_update", {"id": media_id, "caption": "On the cover"}))["item"]
    assert (updated["alt"], updated["caption"]) == ("Cover", "On the cover")

    site = await s.ok("settings_update", {"title": "SDK site", "logo": {"mediaId": media_id}, "postsPerPage": 5})
    assert site["title"] == "SDK site" and site["logo"]["url"] == made["url"] and site["postsPerPage"] == 5
    assert await s.ok("settings_get") == site
    code, message = await s.tool_error("settings_update", {"url": "javascript:alert(1)"})
    assert code == "VALIDATION_ERROR" and "url" in message

    assert {"category", "tag"} <= {t["name"] for t in (await s.ok("taxonomy_list"))["taxonomies"]}
    news = (await s.ok("taxonomy_create_term", {"taxonomy": "category", "slug": "news", "label": "News"}))["term"]
    world = {"taxonomy": "category", "slug": "world", "label": "World", "parentId": news["id"]}
    assert (await s.ok("taxonomy_create_term", world))["term"]["parentId"] == news["id"]
    renamed = await s.ok("taxonomy_update_term", {"taxonomy": "category", "termSlug": "world", "label": "World news"})
    assert renamed["term"]["label"] == "World news"
    terms = (await s.ok("taxonomy_list_terms", {"taxonomy": "category"}))["items"]
    assert {t["slug"] for t in terms} == {"news", "world"}
    cycle = {"taxonomy": "category", "termSlug": "news", "parentId": news["id"]}
    code, message = await s.tool_error("taxonomy_update_term", cycle)
    assert code == "VALIDATION_ERROR" and "parentId" in message, "a term cannot be its own parent"
    code, message = await s.tool_error("taxonomy_delete_term", {"taxonomy": "category", "termSlug": "news"})
    assert code == "CONFLICT" and "world" in message, "a term with children is not deleted"
    assert await s.ok("taxonomy_delete_term", {"taxonomy": "category", "termSlug": "world"}) == {"deleted": True}

    # SPEC 10: taxonomy definitions and the signed upload are tools too.
    made_tax = await s.ok("taxonomy_create", {"name": "cuisine", "label": "Cuisines", "collections": ["articles"]})
    assert made_tax["taxonomy"]["name"] == "cuisine", made_tax
    changed = (await s.ok("taxonomy_update", {"name": "cuisine", "label": "Kitchens", "hierarchical": True}))[
        "taxonomy"
    ]
    assert changed["label"] == "Kitchens" and changed["hierarchical"] is True, changed
    assert await s.ok("taxonomy_delete", {"name": "cuisine"}) == {"deleted": True}
    png = image_bytes()
    ticket = await s.ok("media_upload_url", {"filename": "big.png", "mimeType": "image/png", "size": len(png)})
    assert ticket["uploadUrl"].startswith("http"), ticket
    put = urllib.request.Request(ticket["uploadUrl"], data=png, method="PUT", headers={"Content-Type": "image/png"})
    await asyncio.to_thread(lambda: urllib.request.urlopen(put, timeout=30).close())
    confirmed = await s.ok(
        "media_confirm", {"storageKey": ticket["storageKey"], "filename": "big.png", "mimeType": "image/png"}
    )
    assert confirmed["item"]["mimeType"] == "image/png" and confirmed["item"]["url"], confirmed

    created = await s.ok("menu_create", {"name": "primary", "label": "Primary"})
    assert (created["name"], created["itemCount"]) == ("primary", 0)
    assert (await s.ok("menu_update", {"name": "primary", "label": "Main menu"}))["label"] == "Main menu"
    entries = [
        {"label": "Home", "type": "custom", "customUrl": "/"},
        {"label": "Hello", "type": "post", "referenceCollection": "articles", "referenceId": post_id, "parentIndex": 0},
        {"label": "News", "type": "taxonomy", "referenceCollection": "category", "referenceId": "news"},
    ]
    assert await s.ok("menu_set_items", {"name": "primary", "items": entries}) == {"name": "primary", "itemCount": 3}
    menu = await s.ok("menu_get", {"name": "primary"})
    assert [i["label"] for i in menu["items"]] == ["Home", "Hello", "News"]
    home, hello, _ = menu["items"]
    assert hello["parentId"] == home["id"] and hello["url"] == "/articles/hello-mcp/"
    listed = (await s.ok("menu_list"))["items"]
    assert [(m["name"], m["itemCount"]) for m in listed] == [("primary", 3)]
    code, _ = await s.tool_error("menu_set_items", {"name": "primary", "items": [{**entries[1], "parentIndex": 1}]})
    assert code == "VALIDATION_ERROR"
    assert (await s.ok("menu_get", {"name": "primary"}))["itemCount"] == 3, "a refused replace changes nothing"

    # SPEC 10: term and menu variants in another locale, bylines credited on an item.
    french = {"taxonomy": "category", "slug": "actualites", "label": "Actualites", "locale": "fr"}
    variant = (await s.ok("taxonomy_create_term", {**french, "translationOf": "news"}))["term"]
    group = await s.ok("taxonomy_term_translations", {"taxonomy": "category", "termSlug": "actualites"})
    assert group["translationGroup"] == variant["translationGroup"] == news["id"]
    assert [t["locale"] for t in group["translations"]] == ["en", "fr"]
    principal = {"name": "primary", "label": "Principal", "locale": "fr", "translationOf": "primary"}
    assert (await s.ok("menu_create", principal))["translationGroup"] == str(created["id"])
    menus = await s.ok("menu_translations", {"name": "primary", "locale": "fr"})
    assert [m["locale"] for m in menus["translations"]] == ["en", "fr"]
    assert await s.ok("menu_delete", {"name": "primary", "locale": "fr"}) == {"deleted": True}
    jane = await s.ok("byline_create", {"slug": "jane", "displayName": "Jane", "userId": admin_id})
    assert jane["isGuest"] is False and (await s.ok("byline_get", {"id": "jane"}))["id"] == jane["id"]
    assert (await s.ok("byline_update", {"id": jane["id"], "bio": "Writes"}))["bio"] == "Writes"
    assert [b["id"] for b in (await s.ok("byline_list", {"search": "jan"}))["items"]] == [jane["id"]]
    assert (await s.ok("byline_translations", {"id": jane["id"]}))["translationGroup"] == jane["id"]
    guest = await s.ok("byline_create", {"slug": "guest", "displayName": "Guest"})
    credits = [{"bylineId": guest["id"], "roleLabel": "Photos"}]
    credited = await s.ok("content_update", {"collection": "articles", "id": post_id, "bylines": credits})
    assert credited["item"]["byline"]["id"] == guest["id"]
    assert await s.ok("byline_delete", {"id": guest["id"]}) == {"deleted": guest["id"]}
    again = (await s.ok("content_get", {"collection": "articles", "id": post_id}))["item"]
    assert again["bylines"][0]["source"] == "inferred" and again["byline"]["id"] == jane["id"]

    found = (await s.ok("search", {"query": "hello", "collections": ["articles"]}))["items"]
    assert [(f["collection"], f["id"]) for f in found] == [("articles", post_id)]
    assert "<mark>" in found[0]["snippet"]
    assert (await s.ok("search", {"query": '"unbalanced AND (', "collections": ["articles"]}))["items"] == []

    assert await s.ok("menu_delete", {"name": "primary"}) == {"deleted": True}

    made = await s.ok("redirect_create", {"source": "/sdk-old/", "target": "/articles/"})
    assert made["kind"] == "manual" and made["target"] == "/articles/"
    assert "/sdk-old/" in [r["source"] for r in (await s.ok("redirect_list"))["items"]]
    code, _ = await s.tool_error("redirect_create", {"source": "/sdk-2/", "target": "//evil.example/"})
    assert code == "VALIDATION_ERROR"
    assert await s.ok("redirect_delete", {"redirectId": made["id"]}) == {"deleted": True}
    # the logo uses it (SPEC 10 media usage): refused with the uses listed, then forced
    assert (await s.ok("media_get", {"id": media_id}))["item"]["usage"] == [{"collection": "settings", "field": "logo"}]
    code, message = await s.tool_error("media_delete", {"id": media_id})
    assert code == "MEDIA_IN_USE" and "settings.logo" in message
    repaired = await s.ok("media_usage_repair", {"mediaId": media_id})
    assert repaired["usages"] == 1 and repaired["addedCount"] == repaired["removedCount"] == 0
    assert await s.ok("media_delete", {"id": media_id, "force": True}) == {"deleted": True}
    code, _ = await s.tool_error("media_get", {"id": media_id})
    assert code == "NOT_FOUND"


async def changeset_tools(s: Session, post_id: str) -> None:
    """The nine change set tools on the published article: propose taking it down, review, publish, revert.
    The session is one admin, so the four-eyes rule is switched off for it (its own test: test_changeset_cycle)."""
    made = (await s.ok("changeset_create", {"title": "Take it down", "description": "Outdated"}))["changeset"]
    target = {"id": made["id"], "collection": "articles", "item": post_id}
    assert (await s.ok("changeset_add", {**target, "action": "delete"}))["changeset"]["entryCount"] == 1
    assert (await s.ok("changeset_remove", target))["changeset"]["entryCount"] == 0
    await s.ok("changeset_add", {**target, "action": "unpublish"})
    shown = await s.ok("changeset_get", {"id": made["id"]})
    assert [(e["id"], e["action"], e["urls"]) for e in shown["entries"]] == [
        (post_id, "unpublish", ["/articles/hello-mcp/"])
    ]
    assert (await s.ok("changeset_submit", {"id": made["id"]}))["changeset"]["state"] == "submitted"
    refused = await s.rpc_error("changeset_review", {"id": made["id"], "decision": "approve"})
    assert refused.data == {"code": "INSUFFICIENT_PERMISSIONS"} and "changesetsSelfApprove" in str(refused)
    await s.ok("settings_update", {"changesetsSelfApprove": True})
    assert (await s.ok("changeset_review", {"id": made["id"], "decision": "approve"}))["changeset"]["state"] == (
        "approved"
    )
    queue = await s.ok("changeset_list", {"state": "approved"})
    assert [c["id"] for c in queue["items"]] == [made["id"]]
    published = await s.ok("changeset_publish", {"id": made["id"]})
    assert published["published"] == [f"articles/{post_id}"]
    assert (await s.ok("content_get", {"collection": "articles", "id": post_id}))["item"]["status"] == "draft"
    reverted = await s.ok("changeset_revert", {"id": made["id"]})
    assert reverted["reverted"] == [f"articles/{post_id}"] and reverted["skipped"] == []
    assert (await s.ok("content_get", {"collection": "articles", "id": post_id}))["item"]["status"] == "published"
    await s.ok("settings_update", {"changesetsSelfApprove": None})


async def every_tool(url: str, token: str, admin_id: int, mode: str, version: str, storage_key: str) -> set[str]:
    async with connect(url, token, mode) as client:
        s = Session(client, version)
        assert client.server_info is not None and client.server_info.name == "emdash"
        listed = await client.list_tools()
        assert {t.name for t in listed.tools} == set(REGISTRY), "tools/list must hold every registered tool"
        for definition in listed.tools:
            assert definition.input_schema["type"] == "object"
            assert definition.meta and definition.meta["emdash/scope"] == REGISTRY[definition.name].scope

        # --- schema: a collection with several field types ---
        col = await s.ok(
            "schema_create_collection",
            {
                "slug": "articles",
                "label": "Articles",
                "labelSingular": "Article",
                "supports": ["drafts", "revisions", "scheduling", "search"],
            },
        )
        assert (col["slug"], col["label"], col["labelSingular"]) == ("articles", "Articles", "Article")
        assert sorted(col["supports"]) == ["drafts", "revisions", "scheduling", "search"]
        for field in FIELDS:
            made = await s.ok("schema_create_field", {"collection": "articles", **field})
            assert (made["slug"], made["type"]) == (field["slug"], field["type"])
        assert "articles" in [c["slug"] for c in (await s.ok("schema_list_collections"))["items"]]
        got = await s.ok("schema_get_collection", {"slug": "articles"})
        assert {f["slug"]: f["type"] for f in got["fields"]} == {f["slug"]: f["type"] for f in FIELDS}
        select = next(f for f in got["fields"] if f["slug"] == "category")
        assert select["validation"]["options"] == ["news", "review", "opinion"]
        changed = await s.ok("schema_update_collection", {"slug": "articles", "description": "Long reads"})
        assert changed["description"] == "Long reads" and changed["label"] == "Articles"
        moved = await s.ok("schema_update_field", {"collection": "articles", "fieldSlug": "category", "position": 1})
        assert moved["slug"] == "category"
        order = [f["slug"] for f in (await s.ok("schema_get_collection", {"slug": "articles"}))["fields"]]
        assert order[0] == "category" and sorted(order) == sorted(f["slug"] for f in FIELDS)

        # --- create, read, list, update with _rev ---
        data = {"title": "Hello MCP", "category": "news", "rating": 4, "featured": True, "body": BODY}
        code, message = await s.tool_error(
            "content_create", {"collection": "articles", "data": {**data, "category": "gossip"}}
        )
        assert code == "VALIDATION_ERROR" and "category" in message
        created = await s.ok("content_create", {"collection": "articles", "data": data})
        item = created["item"]
        item_id, rev = item["id"], created["_rev"]
        target = {"collection": "articles", "id": item_id}
        assert (item["status"], item["slug"], item["locale"]) == ("draft", "hello-mcp", "en")
        assert item["data"]["category"] == "news" and item["data"]["rating"] == 4 and item["data"]["body"] == BODY
        fetched = await s.ok("content_get", {"collection": "articles", "id": "hello-mcp"})
        assert fetched["item"]["id"] == item_id and fetched["_rev"] == rev
        listed = await s.ok("content_list", {"collection": "articles"})
        assert ids(listed) == [item_id]
        summary = listed["items"][0]["data"]
        assert summary == {"title": "Hello MCP", "category": "news", "rating": 4, "featured": True}, (
            "summaries leave out long text and rich text"
        )
        found = {"fields": {"category": {"in": ["news", "review"]}, "rating": {"gte": 4}, "featured": True}}
        assert ids(await s.ok("content_list", {"collection": "articles", "filter": found})) == [item_id]
        missed = {"fields": {"rating": {"lte": 3}}, "author": admin_id}
        assert ids(await s.ok("content_list", {"collection": "articles", "filter": missed})) == []
        code, message = await s.tool_error("content_list", {"collection": "articles", "filter": {"fields": {"x": 1}}})
        assert code == "VALIDATION_ERROR" and "filter.fields.x" in message
        updated = await s.ok("content_update", {**target, "data": {"title": "Hello MCP v2", "rating": 5}, "_rev": rev})
        assert updated["item"]["data"]["title"] == "Hello MCP v2" and updated["item"]["data"]["rating"] == 5
        assert updated["item"]["data"]["category"] == "news", "a partial update keeps the other fields"
        assert updated["_rev"] != rev

        # --- compare, publish, unpublish, schedule, unschedule ---
        compared = await s.ok("content_compare", target)
        assert compared["hasChanges"] is True and compared["live"] is None
        assert compared["draft"]["title"] == "Hello MCP v2"
        published = (await s.ok("content_publish", target))["item"]
        assert published["status"] == "published" and published["publishedAt"]
        compared = await s.ok("content_compare", target)
        assert compared["hasChanges"] is False and compared["live"]["title"] == "Hello MCP v2"
        unpublished = (await s.ok("content_unpublish", target))["item"]
        assert unpublished["status"] == "draft" and unpublished["publishedAt"] is None
        when = future()
        scheduled = (await s.ok("content_schedule", {**target, "scheduledAt": when}))["item"]
        assert scheduled["status"] == "scheduled"
        assert datetime.fromisoformat(scheduled["scheduledAt"]) == datetime.fromisoformat(when)
        unscheduled = (await s.ok("content_unschedule", target))["item"]
        assert unscheduled["status"] == "draft" and unscheduled["scheduledAt"] is None

        # --- duplicate, translations, revisions ---
        copy = (await s.ok("content_duplicate", target))["item"]
        assert copy["id"] != item_id and copy["slug"] != item["slug"] and copy["status"] == "draft"
        assert copy["data"]["title"] == "Hello MCP v2 (Copy)" and copy["data"]["category"] == "news"
        french = {"title": "Bonjour MCP", "category": "review"}
        fr = await s.ok(
            "content_create", {"collection": "articles", "data": french, "locale": "fr", "translationOf": item_id}
        )
        fr_id = fr["item"]["id"]
        assert fr["item"]["locale"] == "fr" and fr["item"]["translationGroup"] == item["translationGroup"]
        translations = await s.ok("content_translations", target)
        assert translations["translationGroup"] == item["translationGroup"]
        assert [(t["id"], t["locale"]) for t in translations["translations"]] == [(item_id, "en"), (fr_id, "fr")]
        history = await s.ok("revision_list", target)
        assert history["total"] >= 3 and len(history["items"]) == history["total"]
        assert {r["authorId"] for r in history["items"]} == {admin_id}
        stamps = [r["createdAt"] for r in history["items"]]
        assert stamps == sorted(stamps, reverse=True), "revisions come newest first"
        first = history["items"][-1]
        assert first["data"]["title"] == "Hello MCP"
        restored = await s.ok("revision_restore", {"revisionId": first["id"]})
        assert restored["item"]["id"] == item_id and restored["item"]["data"]["title"] == "Hello MCP"
        assert restored["item"]["status"] == "draft", "restoring a revision does not publish"

        # --- discard a draft made after publishing ---
        await s.ok("content_publish", target)
        edited = (await s.ok("content_update", {**target, "data": {"title": "Unpublished edit"}}))["item"]
        assert edited["hasDraft"] is True and edited["data"]["title"] == "Unpublished edit"
        assert edited["liveData"]["title"] == "Hello MCP"
        discarded = (await s.ok("content_discard_draft", target))["item"]
        assert discarded["hasDraft"] is False and discarded["data"]["title"] == "Hello MCP"
        assert discarded["status"] == "published" and "liveData" not in discarded

        # --- trash, restore, permanent delete ---
        assert await s.ok("content_delete", target) == {"deleted": True}
        code, _ = await s.tool_error("content_get", target)
        assert code == "NOT_FOUND", "trashed items are invisible to get"
        assert ids(await s.ok("content_list_trashed", {"collection": "articles"})) == [item_id]
        back = await s.ok("content_restore", target)
        assert back["restored"] is True and back["item"]["id"] == item_id and back["item"]["status"] == "published"
        assert await s.ok("content_delete", {"collection": "articles", "id": copy["id"]}) == {"deleted": True}
        gone = await s.ok("content_permanent_delete", {"collection": "articles", "id": copy["id"]})
        assert gone == {"deleted": True}
        assert ids(await s.ok("content_list_trashed", {"collection": "articles"})) == []
        assert sorted(ids(await s.ok("content_list", {"collection": "articles"}))) == sorted([item_id, fr_id])
        assert ids(await s.ok("content_list", {"collection": "articles", "locale": "fr"})) == [fr_id]

        await domain_tools(s, storage_key, item_id, admin_id)
        await changeset_tools(s, item_id)
        since = (datetime.now(UTC) - timedelta(hours=1)).isoformat().replace("+00:00", "Z")
        plan = await s.ok("changes_revert", {"by": {"user": str(admin_id)}, "since": since})  # a dry run (SPEC 9.3)
        assert plan, "the dry run lists what this session did"

        # --- schema teardown ---
        dropped = await s.ok("schema_delete_field", {"collection": "articles", "fieldSlug": "scratch"})
        assert dropped == {"deleted": "scratch", "collection": "articles"}
        got = await s.ok("schema_get_collection", {"slug": "articles"})
        assert "scratch" not in {f["slug"] for f in got["fields"]}
        code, message = await s.tool_error("schema_delete_collection", {"slug": "articles"})
        assert code == "COLLECTION_HAS_CONTENT" and "force" in message
        assert await s.ok("schema_delete_collection", {"slug": "articles", "force": True}) == {"deleted": "articles"}
        assert "articles" not in [c["slug"] for c in (await s.ok("schema_list_collections"))["items"]]
        return s.called


@pytest.mark.parametrize(("mode", "version"), MODES)
def test_every_tool_through_the_sdk(cms, mcp_url, settings, tmp_path, mode, version):
    settings.EMDASH = {**settings.EMDASH, "LOCALES": ["en", "fr"]}  # i18n on, for translations
    settings.MEDIA_ROOT = str(tmp_path)
    storage_key = place(image_bytes())
    admin = new_user(Role.ADMIN)
    token = token_create(user=admin, name="sdk e2e", scopes=["admin"])
    called = asyncio.run(every_tool(mcp_url, token.raw, admin.pk, mode, version, storage_key))
    assert called == set(REGISTRY), f"not called: {sorted(set(REGISTRY) - called)}"
    # SPEC 7: the 43 tools plus media_upload, schema_update_collection/_field and redirect_list/_create/_delete;
    # SPEC 12: import_wordpress; SPEC 9.2: the nine changeset_* tools; SPEC 9.3: changes_revert; SPEC 10:
    # media_usage_repair, taxonomy_create/_update/_delete, media_upload_url, media_confirm, 6 byline tools,
    # taxonomy_term_translations, menu_translations
    assert len(REGISTRY) == 74
    assert not (tmp_path / storage_key).exists(), "media_delete removed the file"
    # The calls really went through the server: the registry is clean and each was audited.
    schema.invalidate()
    assert not Collection.objects.filter(slug="articles").exists()
    assert "articles" not in schema.current().collections
    audited = AuditLog.objects.filter(source="mcp", token_ref=f"pat:{token.token.pk}")
    assert set(audited.values_list("action", flat=True)) == set(REGISTRY)
    assert {a.user_id for a in audited} == {admin.pk}


# --- documented errors ------------------------------------------------------------------------


def _rpc_data(error: MCPError) -> dict[str, Any]:
    assert error.code == INVALID_REQUEST, (error.code, error.message)
    assert isinstance(error.data, dict), error.data
    return error.data


async def permission_errors(url: str, tokens: dict[str, str], mode: str, version: str) -> str:
    target = {"collection": "posts"}
    async with connect(url, tokens["author_a"], mode) as client:
        mine = await Session(client, version).ok("content_create", {**target, "data": {"title": "By author A"}})
    item_id = mine["item"]["id"]

    # A token without the scope: an editor whose token only reads.
    async with connect(url, tokens["reader"], mode) as client:
        s = Session(client, version)
        assert (await s.ok("content_get", {**target, "id": item_id}))["item"]["id"] == item_id
        error = await s.rpc_error("content_create", {**target, "data": {"title": "Nope"}})
        assert _rpc_data(error) == {"code": "INSUFFICIENT_SCOPE", "requiredScope": "content:write"}
        assert error.message.startswith("Insufficient scope: requires content:write. Re-authorise")
        error = await s.rpc_error("schema_create_collection", {"slug": "nope", "label": "Nope"})
        assert _rpc_data(error) == {"code": "INSUFFICIENT_SCOPE", "requiredScope": "schema:write"}

    # A role too low for the tool, whatever the token grants.
    async with connect(url, tokens["contributor"], mode) as client:
        s = Session(client, version)
        error = await s.rpc_error("content_create", {**target, "data": {"title": "Nope"}})
        assert _rpc_data(error) == {"code": "INSUFFICIENT_PERMISSIONS"}
        assert error.message.startswith("Insufficient permissions: ") and "author" in error.message
        compared = await s.ok("content_compare", {**target, "id": item_id})  # contributors may read drafts
        assert compared["draft"]["title"] == "By author A"

    # Not the owner: author B may edit their own item but not author A's.
    async with connect(url, tokens["author_b"], mode) as client:
        s = Session(client, version)
        theirs = await s.ok("content_create", {**target, "data": {"title": "By author B"}})
        await s.ok("content_update", {**target, "id": theirs["item"]["id"], "data": {"title": "B again"}})
        for name, extra in [
            ("content_update", {"data": {"title": "Hijacked"}}),
            ("content_publish", {}),
            ("content_delete", {}),
        ]:
            error = await s.rpc_error(name, {**target, "id": item_id, **extra})
            assert _rpc_data(error) == {"code": "INSUFFICIENT_PERMISSIONS"}, name
            assert "editor" in error.message
            assert str(tokens["author_a_id"]) not in error.message, "errors never name authors"
    return item_id


@pytest.mark.parametrize(("mode", "version"), MODES)
def test_permission_errors_through_the_sdk(posts, mcp_url, mode, version):
    author_a, author_b = new_user(Role.AUTHOR), new_user(Role.AUTHOR)
    tokens: dict[str, Any] = {
        "author_a": token_for(author_a, ["content:read", "content:write"]),
        "author_a_id": author_a.pk,
        "author_b": token_for(author_b, ["content:read", "content:write"]),
        "reader": token_for(new_user(Role.EDITOR), ["content:read", "schema:read"]),
        "contributor": token_for(new_user(Role.CONTRIBUTOR), ["content:read", "content:write"]),
    }
    item_id = asyncio.run(permission_errors(mcp_url, tokens, mode, version))
    spec = schema.get_collection("posts")
    row = spec.model.objects.get(pk=item_id)
    assert (row.status, row.version, row.deleted_at, row.author_id) == ("draft", 1, None, author_a.pk)
    assert rows.current_values(spec, row)["title"] == "By author A", "the refused calls changed the item"
    assert spec.model.objects.count() == 2  # A's item and B's own; nothing from the refused creates
    assert not Collection.objects.filter(slug="nope").exists()


def _flatten(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in _flatten(inner)]
    return [exc]


async def connect_only(url: str, token: str, mode: str) -> None:
    async with connect(url, token, mode) as client:
        await client.list_tools()


@pytest.mark.parametrize(("mode", "version"), MODES)
def test_bad_tokens_fail_to_connect(mcp_url, mode, version):
    user = new_user(Role.ADMIN)
    revoked = token_create(user=user, name="revoked", scopes=["admin"])
    token_revoke(user=user, token_id=revoked.token.pk)
    good = token_for(user, ["admin"])
    for bad in ["ec_pat_" + "x" * 43, good[:-2] + "zz", revoked.raw, "not-a-token"]:
        with pytest.raises(Exception) as info:
            asyncio.run(connect_only(mcp_url, bad, mode))
        errors = [e for e in _flatten(info.value) if isinstance(e, MCPError)]
        assert errors, f"expected an MCPError inside {info.value!r}"
        assert all(e.code == UNAUTHORIZED for e in errors), [(e.code, e.message) for e in errors]
        assert "Unauthorized" in errors[0].message
    asyncio.run(connect_only(mcp_url, good, mode))  # the same server accepts a good token


# --- optimistic concurrency -------------------------------------------------------------------


async def stale_rev(url: str, token: str, mode: str, version: str) -> str:
    async with connect(url, token, mode) as client:
        s = Session(client, version)
        created = await s.ok("content_create", {"collection": "posts", "data": {"title": "Original"}})
        item_id, old_rev = created["item"]["id"], created["_rev"]
        first = await s.ok(
            "content_update", {"collection": "posts", "id": item_id, "data": {"title": "First writer"}, "_rev": old_rev}
        )
        assert first["_rev"] != old_rev
        result = await client.call_tool(
            "content_update",
            {"collection": "posts", "id": item_id, "data": {"title": "Second writer"}, "_rev": old_rev},
        )
        assert result.is_error is True
        assert result.meta is not None and result.meta["code"] == "CONFLICT"
        assert "_rev" in result.content[0].text
        assert result.structured_content is None
        current = await s.ok("content_get", {"collection": "posts", "id": item_id})
        assert current["item"]["data"]["title"] == "First writer" and current["_rev"] == first["_rev"]
        again = await s.ok(
            "content_update",
            {"collection": "posts", "id": item_id, "data": {"title": "Second writer"}, "_rev": current["_rev"]},
        )
        assert again["item"]["data"]["title"] == "Second writer"
        return item_id


@pytest.mark.parametrize(("mode", "version"), MODES)
def test_stale_rev_is_a_conflict_tool_error(posts, mcp_url, mode, version):
    token = token_for(new_user(Role.AUTHOR), ["content:read", "content:write"])
    item_id = asyncio.run(stale_rev(mcp_url, token, mode, version))
    row = schema.get_collection("posts").model.objects.get(pk=item_id)
    assert row.version == 3, "the conflicting write wrote nothing"
