"""Arguments for every EmDash tool, keyed by tool name, for the SDK client runs (test_sdk_every_tool.py).

Each builder gets a :class:`Fixtures` and returns the tool's arguments. Tools that change or delete something get
an item of their own, made through other tools just before, so every call (direct or as a task) succeeds whatever
ran before it. The tool set comes from tools/list: a listed tool without a builder fails the test with a message
naming it. The TypeScript run (conformance/tool-args.mjs) keeps the same table.
"""

from __future__ import annotations

import asyncio
import base64
import functools
import io
import threading
import urllib.request
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from PIL import Image, PngImagePlugin

Call = Callable[[str, dict[str, Any]], Awaitable[dict[str, Any]]]
Args = dict[str, Any]


def unique_png(text: str) -> bytes:
    """A small PNG whose bytes differ per ``text`` (media_upload deduplicates by hash)."""
    info = PngImagePlugin.PngInfo()
    info.add_text("Comment", text)
    buffer = io.BytesIO()
    Image.new("RGB", (4, 3), (10, 120, 200)).save(buffer, format="PNG", pnginfo=info)
    return buffer.getvalue()


def future(days: int = 3) -> str:
    return (datetime.now(UTC) + timedelta(days=days)).isoformat().replace("+00:00", "Z")


def past(days: int = 1) -> str:
    return future(-days)


class Fixtures:
    """What the builders point at, made through ``call`` (a direct tool call that must succeed)."""

    def __init__(self, call: Call, tag: str, storage_keys: list[str]) -> None:
        self.call = call
        self.tag = tag
        self.storage_keys = storage_keys
        self.count = 0
        self.collection = self.item_id = self.media_id = self.menu = ""

    def uniq(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.tag}n{self.count}"

    async def setup(self) -> None:
        """The session's collection, a published item, a media item and a menu for the read-only builders."""
        self.collection = self.uniq("sdk")
        supports = ["drafts", "revisions", "scheduling", "search"]
        await self.call("schema_create_collection", {"slug": self.collection, "label": "SDK", "supports": supports})
        title = {"slug": "title", "label": "Title", "type": "string", "required": True, "searchable": True}
        await self.call("schema_create_field", {"collection": self.collection, **title})
        body = {"slug": "body", "label": "Body", "type": "text"}
        await self.call("schema_create_field", {"collection": self.collection, **body})
        self.item_id = await self.item("published")
        self.media_id = await self.media()
        self.menu = await self.new_menu()

    async def item(self, state: str = "draft") -> str:
        """An item of the session's collection in ``state``; returns its id."""
        data = {"title": f"Searchable sdk item {self.uniq('t')}", "body": "Written by an SDK client."}
        made = await self.call("content_create", {"collection": self.collection, "data": data})
        target = {"collection": self.collection, "id": made["item"]["id"]}
        if state in ("published", "changed"):
            await self.call("content_publish", target)
        if state == "changed":
            await self.call("content_update", {**target, "data": {"title": "Draft edit"}})
        if state == "scheduled":
            await self.call("content_schedule", {**target, "scheduledAt": future()})
        if state == "trashed":
            await self.call("content_delete", target)
        return str(made["item"]["id"])

    async def target(self, state: str) -> Args:
        return {"collection": self.collection, "id": await self.item(state)}

    async def media(self) -> str:
        name = self.uniq("m")
        data = base64.b64encode(unique_png(name)).decode()
        return str((await self.call("media_upload", {"filename": f"{name}.png", "data": data}))["item"]["id"])

    def storage_key(self) -> str:
        if not self.storage_keys:
            raise AssertionError("media_create: no placed file left; place more in the test")
        return self.storage_keys.pop(0)

    async def term(self) -> str:
        slug = self.uniq("term")
        await self.call("taxonomy_create_term", {"taxonomy": "tag", "slug": slug, "label": f"Term {slug}"})
        return slug

    async def new_taxonomy(self) -> str:
        name = self.uniq("tax")
        await self.call("taxonomy_create", {"name": name, "label": f"Taxonomy {name}"})
        return name

    async def signed_upload(self) -> Args:
        """media_upload_url, then the PUT of the bytes to its uploadUrl: media_confirm's arguments."""
        name = self.uniq("s")
        content = unique_png(name)
        ticket = await self.call(
            "media_upload_url", {"filename": f"{name}.png", "mimeType": "image/png", "size": len(content)}
        )
        put = urllib.request.Request(
            ticket["uploadUrl"], data=content, method="PUT", headers={"Content-Type": "image/png"}
        )
        await asyncio.to_thread(lambda: urllib.request.urlopen(put, timeout=30).close())
        return {"storageKey": ticket["storageKey"], "filename": f"{name}.png", "mimeType": "image/png"}

    async def new_menu(self) -> str:
        name = self.uniq("menu")
        await self.call("menu_create", {"name": name, "label": f"Menu {name}"})
        return name

    async def byline(self) -> str:
        """A fresh guest byline; its id (byline slugs: a-z first, then a-z, 0-9 and -)."""
        slug = "b" + self.uniq("b").lower().replace("_", "-")
        return str((await self.call("byline_create", {"slug": slug, "displayName": f"Byline {slug}"}))["id"])

    async def redirect(self) -> str:
        made = await self.call("redirect_create", {"source": f"/old/{self.uniq('r')}/", "target": "/"})
        return str(made["id"])

    async def field(self) -> str:
        slug = self.uniq("f")
        await self.call(
            "schema_create_field", {"collection": self.collection, "slug": slug, "label": "Scratch", "type": "string"}
        )
        return slug

    async def new_collection(self) -> str:
        slug = self.uniq("c")
        await self.call("schema_create_collection", {"slug": slug, "label": f"Scratch {slug}"})
        return slug

    async def changeset(self, state: str = "open") -> str:
        return str((await self.changeset_entry(state))["id"])

    async def changeset_entry(self, state: str = "open") -> Args:
        """A change set holding one new draft, in ``state`` (open, submitted, approved, published). The session's
        user approves its own set, so the fixture turns the four-eyes rule off (changesetsSelfApprove)."""
        made = await self.call("changeset_create", {"title": f"Set {self.uniq('cs')}"})
        changeset_id = str(made["changeset"]["id"])
        item = await self.item("draft")
        await self.call("changeset_add", {"id": changeset_id, "collection": self.collection, "item": item})
        if state in ("submitted", "approved", "published"):
            await self.call("changeset_submit", {"id": changeset_id})
        if state in ("approved", "published"):
            await self.call("settings_update", {"changesetsSelfApprove": True})
            await self.call("changeset_review", {"id": changeset_id, "decision": "approve"})
        if state == "published":
            await self.call("changeset_publish", {"id": changeset_id})
        return {"id": changeset_id, "collection": self.collection, "item": item}

    async def revision(self) -> str:
        target = await self.target("draft")
        await self.call("content_update", {**target, "data": {"title": "Second version"}})
        history = await self.call("revision_list", target)
        return str(history["items"][-1]["id"])


async def _upload(fx: Fixtures) -> Args:
    name = fx.uniq("u")
    return {"filename": f"{name}.png", "data": base64.b64encode(unique_png(name)).decode(), "caption": "Uploaded"}


async def _set_items(fx: Fixtures) -> Args:
    home = {"label": "Home", "type": "custom", "customUrl": "/"}
    child = {"label": "Item", "type": "post", "referenceCollection": fx.collection, "referenceId": fx.item_id}
    return {"name": fx.menu, "items": [home, {**child, "parentIndex": 0}]}


def _const(args: Args) -> Callable[[Fixtures], Awaitable[Args]]:
    async def build(fx: Fixtures) -> Args:
        return dict(args)

    return build


def _on_item(fx: Fixtures) -> Args:
    return {"collection": fx.collection, "id": fx.item_id}


def _state(state: str) -> Callable[[Fixtures], Awaitable[Args]]:
    async def build(fx: Fixtures) -> Args:
        return await fx.target(state)

    return build


# A one-post WordPress export served on 127.0.0.1 for import_wordpress (the stack lets the server and the worker
# fetch loopback URLs: EMDASH_FETCH_ALLOW_PRIVATE). Importing it again creates nothing new (SPEC 12).
WXR = b"""<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"
  xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>SDK site</title><link>https://sdk.example.com</link><wp:wxr_version>1.2</wp:wxr_version>
<item><title>Imported by an SDK client</title><link>https://sdk.example.com/hello/</link>
<dc:creator><![CDATA[sdk]]></dc:creator>
<content:encoded><![CDATA[<p>Hello from <em>WordPress</em>.</p>]]></content:encoded>
<wp:post_id>1</wp:post_id><wp:post_date_gmt>2024-01-02 03:04:05</wp:post_date_gmt><wp:post_name>hello</wp:post_name>
<wp:status>publish</wp:status><wp:post_type>post</wp:post_type></item>
</channel></rss>"""


class _Wxr(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(WXR)))
        self.end_headers()
        self.wfile.write(WXR)

    def log_message(self, *args: Any) -> None:
        pass


@functools.cache
def wxr_url() -> str:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Wxr)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/export.xml"


async def _ret(value: Args) -> Args:
    return value


BUILDERS: dict[str, Callable[[Fixtures], Awaitable[Args]]] = {
    # schema
    "schema_list_collections": _const({}),
    "schema_get_collection": lambda fx: _ret({"collection": fx.collection}),
    "schema_create_collection": lambda fx: _ret({"slug": fx.uniq("c"), "label": "Made by an SDK client"}),
    "schema_update_collection": lambda fx: _ret(
        {"collection": fx.collection, "description": f"Updated {fx.uniq('d')}"}
    ),
    "schema_delete_collection": lambda fx: _with(fx.new_collection(), lambda slug: {"collection": slug, "force": True}),
    "schema_create_field": lambda fx: _ret(
        {"collection": fx.collection, "slug": fx.uniq("f"), "label": "New", "type": "integer"}
    ),
    "schema_update_field": lambda fx: _ret(
        {"collection": fx.collection, "fieldSlug": "body", "label": f"Body {fx.uniq('l')}"}
    ),
    "schema_delete_field": lambda fx: _with(fx.field(), lambda s: {"collection": fx.collection, "fieldSlug": s}),
    # content
    "content_list": lambda fx: _ret({"collection": fx.collection, "limit": 3}),
    "content_get": lambda fx: _ret(_on_item(fx)),
    "content_compare": lambda fx: _ret(_on_item(fx)),
    "content_list_trashed": lambda fx: _ret({"collection": fx.collection}),
    "content_translations": lambda fx: _ret(_on_item(fx)),
    "content_create": lambda fx: _ret({"collection": fx.collection, "data": {"title": f"Created {fx.uniq('t')}"}}),
    "content_update": lambda fx: _with(fx.target("draft"), lambda t: {**t, "data": {"title": "Updated by SDK"}}),
    "content_delete": _state("draft"),
    "content_permanent_delete": _state("trashed"),
    "content_publish": _state("draft"),
    "content_unpublish": _state("published"),
    "content_schedule": lambda fx: _with(fx.target("draft"), lambda t: {**t, "scheduledAt": future()}),
    "content_unschedule": _state("scheduled"),
    "content_discard_draft": _state("changed"),
    "content_restore": _state("trashed"),
    "content_duplicate": lambda fx: _ret(_on_item(fx)),
    "revision_list": lambda fx: _ret(_on_item(fx)),
    "revision_restore": lambda fx: _with(fx.revision(), lambda rid: {"revisionId": rid}),
    # undo (SPEC 9.3): a dry run over what the session's user did since yesterday (its setup made items)
    "changes_revert": lambda fx: _with(
        fx.call("content_get", _on_item(fx)),
        lambda got: {"by": {"user": str(got["item"]["authorId"])}, "since": past(), "dryRun": True},
    ),
    "search": lambda fx: _ret({"query": "searchable", "collections": [fx.collection], "limit": 5}),
    # media
    "media_list": _const({"mimeType": "image/", "limit": 5}),
    "media_get": lambda fx: _ret({"id": fx.media_id}),
    "media_create": lambda fx: _ret(
        {"filename": "placed.png", "mimeType": "image/png", "storageKey": fx.storage_key()}
    ),
    "media_upload": _upload,
    "media_update": lambda fx: _ret({"id": fx.media_id, "caption": f"Caption {fx.uniq('c')}"}),
    "media_delete": lambda fx: _with(fx.media(), lambda mid: {"id": mid}),
    "media_upload_url": lambda fx: _ret({"filename": f"{fx.uniq('u')}.png", "mimeType": "image/png", "size": 100}),
    "media_confirm": lambda fx: fx.signed_upload(),
    "media_usage_repair": lambda fx: _ret({"mediaId": fx.media_id}),
    # settings
    "settings_get": _const({}),
    "settings_update": lambda fx: _ret({"tagline": f"Tagline {fx.uniq('s')}"}),
    # taxonomies
    "taxonomy_list": _const({}),
    "taxonomy_list_terms": _const({"taxonomy": "tag", "limit": 5}),
    "taxonomy_create_term": lambda fx: _ret({"taxonomy": "tag", "slug": fx.uniq("term"), "label": "New term"}),
    "taxonomy_update_term": lambda fx: _with(fx.term(), lambda s: {"taxonomy": "tag", "termSlug": s, "label": "Re"}),
    "taxonomy_delete_term": lambda fx: _with(fx.term(), lambda s: {"taxonomy": "tag", "termSlug": s}),
    "taxonomy_create": lambda fx: _ret({"name": fx.uniq("tax"), "label": "Made", "collections": [fx.collection]}),
    "taxonomy_update": lambda fx: _with(fx.new_taxonomy(), lambda n: {"name": n, "collections": [fx.collection]}),
    "taxonomy_delete": lambda fx: _with(fx.new_taxonomy(), lambda n: {"name": n}),
    "taxonomy_term_translations": lambda fx: _with(fx.term(), lambda s: {"taxonomy": "tag", "termSlug": s}),
    # menus
    "menu_list": _const({}),
    "menu_get": lambda fx: _ret({"name": fx.menu}),
    "menu_create": lambda fx: _ret({"name": fx.uniq("menu"), "label": "New menu"}),
    "menu_update": lambda fx: _ret({"name": fx.menu, "label": f"Menu {fx.uniq('l')}"}),
    "menu_delete": lambda fx: _with(fx.new_menu(), lambda name: {"name": name}),
    "menu_set_items": _set_items,
    "menu_translations": lambda fx: _ret({"name": fx.menu}),
    # bylines (SPEC 10)
    "byline_list": _const({"limit": 5}),
    "byline_get": lambda fx: _with(fx.byline(), lambda bid: {"id": bid}),
    "byline_create": lambda fx: _ret({"slug": "b" + fx.uniq("b").lower().replace("_", "-"), "displayName": "New"}),
    "byline_update": lambda fx: _with(fx.byline(), lambda bid: {"id": bid, "bio": "Updated by SDK"}),
    "byline_delete": lambda fx: _with(fx.byline(), lambda bid: {"id": bid}),
    "byline_translations": lambda fx: _with(fx.byline(), lambda bid: {"id": bid}),
    # moving in (SPEC 12)
    "import_wordpress": lambda fx: _ret({"url": wxr_url()}),
    # redirects
    "redirect_list": _const({}),
    "redirect_create": lambda fx: _ret({"source": f"/old/{fx.uniq('r')}/", "target": "/"}),
    "redirect_delete": lambda fx: _with(fx.redirect(), lambda rid: {"redirectId": rid}),
    # change sets (SPEC 9.2)
    "changeset_list": _const({"limit": 5}),
    "changeset_get": lambda fx: _with(fx.changeset(), lambda cid: {"id": cid}),
    "changeset_create": lambda fx: _ret({"title": f"Proposal {fx.uniq('p')}", "description": "From an SDK"}),
    "changeset_add": lambda fx: _with(
        fx.changeset(), lambda cid: {"id": cid, "collection": fx.collection, "item": fx.item_id, "action": "unpublish"}
    ),
    "changeset_remove": lambda fx: fx.changeset_entry(),
    "changeset_submit": lambda fx: _with(fx.changeset(), lambda cid: {"id": cid}),
    "changeset_review": lambda fx: _with(
        fx.changeset("submitted"), lambda cid: {"id": cid, "decision": "reject", "comment": "Not yet"}
    ),
    "changeset_publish": lambda fx: _with(fx.changeset("approved"), lambda cid: {"id": cid}),
    "changeset_revert": lambda fx: _with(fx.changeset("published"), lambda cid: {"id": cid}),
}


async def _with(made: Awaitable[Any], shape: Callable[[Any], Args]) -> Args:
    """Await a fixture, then shape the arguments around it."""
    return shape(await made)


def coverage(listed: list[str]) -> tuple[list[str], list[str]]:
    """(listed tools without a builder, builders for tools that are not listed)."""
    return [n for n in listed if n not in BUILDERS], [n for n in BUILDERS if n not in set(listed)]
