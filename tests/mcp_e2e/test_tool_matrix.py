"""A generated permission matrix over the MCP endpoint.

Every registered tool (``mcp_endpoint.registry.REGISTRY``) x every role (``emdash.roles.Role``) x a few
token scope sets x, for tools that target an item, an item of the caller's own or of another author
(and, for reads that hide unpublished items, a draft or a published item). The expected outcome of
each cell comes from the same tables the server uses (``RULES``, ``IMPLIES``, ``Role``) plus the
ownership rule: author own / editor any (from the ``*_OWN`` -> ``*_ANY`` pairs), and readers who may
not see unpublished items get NOT_FOUND for them. Calls go through Django's test client as JSON-RPC
``tools/call`` POSTs with a real bearer token.

* allowed: a non-error result whose payload validates against the tool's outputSchema; read-only
  tools change nothing, the others change something;
* missing scope: JSON-RPC -32600 with ``data: {code: INSUFFICIENT_SCOPE, requiredScope}``;
* role too low or not the owner: JSON-RPC -32600 with ``data: {code: INSUFFICIENT_PERMISSIONS}``;
* hidden item: a NOT_FOUND tool error.

Refused calls change nothing: entry rows (id, version, status, deleted_at) of every collection, the
revision count and the schema registry are compared before and after. Each tool gets valid arguments
from a small builder table, so only permissions decide. One test per tool (one ``posts`` collection
each, because schema changes need committed transactions); all failing cells are reported together.
"""

from __future__ import annotations

import base64
import itertools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client
from django.utils import timezone
from jsonschema import Draft202012Validator

from accounts.models import User
from bylines import services as byline_services
from bylines.models import Byline
from content.changesets import publishing as changeset_publishing
from content.changesets.models import ChangeSet, ChangeSetEntry
from content.entries import services
from content.models import Collection, Field, Redirect, Revision
from content.redirects import services as redirects
from content.schema import services as schema_services
from content.schema import specs as schema
from emdash.ids import new_id
from emdash.permissions import RULES, Perm
from emdash.roles import Role
from emdash.scopes import IMPLIES, Scope
from mcp_endpoint.registry import REGISTRY, Tool, load_tools
from media.models import MediaItem, MediaUsage, UploadReservation
from menus import services as menu_services
from menus.models import Menu, MenuItem
from settings_app.models import SiteSettings
from taxonomy import definitions as taxonomy_definitions
from taxonomy import services as taxonomy_services
from taxonomy.models import TaxonomyDefinition, Term
from tests.factories import SYSTEM, make_entry
from tests.mcp_e2e.conftest import MCP_PATH, new_user, token_for
from tests.mcp_e2e.tool_args import wxr_url
from tests.media.helpers import image_bytes, make_media, place

load_tools()

OK, SCOPE, PERMS, NOT_FOUND = "ok", "INSUFFICIENT_SCOPE", "INSUFFICIENT_PERMISSIONS", "NOT_FOUND"
INVALID_REQUEST = -32600
PROTOCOL_VERSION = "2025-11-25"  # structuredContent and outputSchema exist at this version
OWN_TO_ANY = {
    Perm.CONTENT_EDIT_OWN: Perm.CONTENT_EDIT_ANY,
    Perm.CONTENT_GO_LIVE: Perm.CONTENT_EDIT_ANY,  # publishing someone else's item: the editor rule (SPEC 9.1)
    Perm.MEDIA_EDIT_OWN: Perm.MEDIA_EDIT_ANY,
}
# Change set tools that act on their items check the editing role per item (SPEC 9.2: "their own editable items",
# "publish rights on every item"): someone else's item needs the editor role; the tool's own scope was checked.
ITEM_ROLE_RULE = {
    "changeset_add": Perm.CONTENT_EDIT_ANY,
    "changeset_submit": Perm.CONTENT_EDIT_ANY,
    "changeset_publish": Perm.CONTENT_EDIT_ANY,
    "changeset_revert": Perm.CONTENT_EDIT_ANY,
}
OWNERS = ("own", "other")
VISIBILITY_STATES = ("draft", "published")
ENTRY_CATEGORIES = ("content", "revision")


# --- deriving the matrix from the tables -----------------------------------------------------------


def effective(granted: frozenset[Scope]) -> frozenset[Scope]:
    """Granted scopes plus what they imply (one hop, as IMPLIES says)."""
    result = set(granted)
    for scope in granted:
        result |= IMPLIES.get(scope, frozenset())
    return frozenset(result)


def targets_item(tool: Tool) -> bool:
    properties = tool.input_schema.get("properties", {})
    return "id" in properties or "revisionId" in properties


def targets_entry(tool: Tool) -> bool:
    """Content items (by id or revision); media tools target media items, which have no drafts."""
    return targets_item(tool) and tool.category in ENTRY_CATEGORIES


def hides_unpublished(tool: Tool) -> bool:
    """Entry reads open to roles that may not see unpublished items: those items are NOT_FOUND for them."""
    return targets_entry(tool) and RULES[tool.perm].min_role < RULES[Perm.CONTENT_READ_UNPUBLISHED].min_role


def scope_sets(tool: Tool) -> list[tuple[str, frozenset[Scope]]]:
    """The tool's scope alone; every scope that does not grant it; admin; each scope implying it; and
    content:write (which implies only its one hop)."""
    needed = RULES[tool.perm].scope
    also = RULES[tool.perm].also
    candidates = [
        ("exact", frozenset({needed})),
        ("without", frozenset(s for s in Scope if needed not in effective(frozenset({s})) and s not in also)),
        ("admin", frozenset({Scope.ADMIN})),
        *[(f"implied-by-{s.value}", frozenset({s})) for s in IMPLIES if s is not Scope.ADMIN and needed in IMPLIES[s]],
        ("content:write", frozenset({Scope.CONTENT_WRITE})),
        # SPEC 9.1: the draft-only token, with what an assistant reads, on every tool.
        ("content:draft", frozenset({Scope.CONTENT_DRAFT, Scope.CONTENT_READ})),
    ]
    unique: dict[frozenset[Scope], str] = {}
    for name, scopes in candidates:
        unique.setdefault(scopes, name)
    return [(name, scopes) for scopes, name in unique.items()]


@dataclass(frozen=True)
class Cell:
    role: Role
    scopes_name: str
    scopes: frozenset[Scope]
    owner: str | None = None  # "own" / "other" for tools that target an item
    state: str | None = None  # "draft" / "published" for reads that hide unpublished items

    def __str__(self) -> str:
        parts = [self.role.label, f"scopes={self.scopes_name}"]
        parts += [f"owner={self.owner}"] if self.owner else []
        parts += [f"state={self.state}"] if self.state else []
        return " ".join(parts)


def cells(tool: Tool) -> list[Cell]:
    owners: tuple[str | None, ...] = OWNERS if targets_item(tool) else (None,)
    states: tuple[str | None, ...] = VISIBILITY_STATES if hides_unpublished(tool) else (None,)
    return [
        Cell(role, name, scopes, owner, state)
        for role in Role
        for name, scopes in scope_sets(tool)
        for owner in owners
        for state in states
    ]


def expected(tool: Tool, cell: Cell) -> tuple[str, Perm | None]:
    """The outcome and, for refusals, the permission that refuses: scope before role, tool before owner."""
    perms = [tool.perm]
    if cell.owner == "other" and tool.perm in OWN_TO_ANY:
        perms.append(OWN_TO_ANY[tool.perm])
    granted = effective(cell.scopes)
    for perm in perms:
        rule = RULES[perm]
        if rule.scope not in granted and not (rule.also & granted):
            return SCOPE, perm
        if cell.role < rule.min_role:
            return PERMS, perm
    item_rule = ITEM_ROLE_RULE.get(tool.name) if cell.owner == "other" else None
    if item_rule is not None and cell.role < RULES[item_rule].min_role:
        return PERMS, item_rule
    if cell.state == "draft" and cell.role < RULES[Perm.CONTENT_READ_UNPUBLISHED].min_role:
        return NOT_FOUND, None
    return OK, None


# --- the world each test builds ----------------------------------------------------------------------


def _past() -> str:
    return (timezone.now() - timedelta(hours=1)).isoformat()


def _future() -> str:
    return (timezone.now() + timedelta(days=2)).isoformat()


@dataclass
class Item:
    id: str
    revision_ids: list[str]  # oldest first


class World:
    """Users of every role, tokens on demand, and fresh items in ``posts`` in a chosen state."""

    def __init__(self) -> None:
        self.caller: User | None = None  # the cell's user, for builders that make things of the caller's
        self.client = Client()
        self.seq = itertools.count(1)
        self._tokens: dict[tuple[Role, frozenset[Scope]], str] = {}
        with transaction.atomic():
            self.users: dict[Role, User] = {role: new_user(role) for role in Role}
            self.other = new_user(Role.AUTHOR)
            # Background items, so lists and the trash have something in them for every caller.
            make_entry(data={"title": "Background published"}, status="published")
            make_entry(data={"title": "Background draft"})
            trash = make_entry(data={"title": "Background trash"})
            services.entry_trash(actor=SYSTEM, collection="posts", id=trash.id)
            # Something in every other domain, so its reads have something to return.
            self.term()
            menu_services.menu_create(actor=SYSTEM, name="main", label="Main")
            make_media(SYSTEM)

    def token(self, role: Role, scopes: frozenset[Scope]) -> str:
        key = (role, scopes)
        if key not in self._tokens:
            self._tokens[key] = token_for(
                self.users[role], sorted(s.value for s in scopes), name=f"matrix {role.label}"
            )
        return self._tokens[key]

    def media(self, owner_id: int | None) -> Item:
        """A registered image owned by ``owner_id``."""
        item = make_media(SYSTEM)
        MediaItem.objects.filter(pk=item.pk).update(author_id=owner_id)
        return Item(item.pk, [])

    def term(self) -> str:
        """A fresh tag; its slug."""
        slug = f"tag-{next(self.seq)}"
        taxonomy_services.term_create(actor=SYSTEM, taxonomy="tag", slug=slug, label=slug.title())
        return slug

    def byline(self) -> str:
        """A fresh guest byline; its id."""
        n = next(self.seq)
        return byline_services.byline_create(actor=SYSTEM, slug=f"byline-{n}", display_name=f"Byline {n}").id

    def menu(self) -> str:
        """A fresh menu; its name."""
        name = f"menu_{next(self.seq)}"
        menu_services.menu_create(actor=SYSTEM, name=name, label=name.title())
        return name

    def item(self, state: str, owner_id: int | None) -> Item:
        """``draft`` (two revisions), ``published``, ``pending`` (published plus a draft), ``scheduled``,
        ``trashed``; owned by ``owner_id``."""
        n = next(self.seq)
        with transaction.atomic():  # one commit per item keeps the matrix quick on PostgreSQL
            entry = make_entry(data={"title": f"Matrix item {n}", "excerpt": "x"})
            target = {"actor": SYSTEM, "collection": "posts", "id": entry.id}
            if state == "draft":
                services.entry_update(**target, data={"title": f"Matrix item {n} (edited)"})
            if state in ("published", "pending"):
                services.entry_publish(**target)
            if state == "pending":
                services.entry_update(**target, data={"title": f"Matrix item {n} (pending)"})
            if state == "scheduled":
                services.entry_schedule(**target, scheduled_at=_future())
            if state == "trashed":
                services.entry_trash(**target)
            schema.get_collection("posts").model.objects.filter(pk=entry.id).update(author_id=owner_id)
        revision_ids = list(
            Revision.objects.filter(collection="posts", entry_id=entry.id)
            .order_by("created_at", "id")
            .values_list("id", flat=True)
        )
        return Item(entry.id, revision_ids)

    def call(self, token: str, name: str, arguments: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        response = self.client.post(
            MCP_PATH,
            data=json.dumps(
                {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
            ),
            content_type="application/json",
            headers={
                "Authorization": f"Bearer {token}",
                "Accept": "application/json, text/event-stream",
                "MCP-Protocol-Version": PROTOCOL_VERSION,
            },
        )
        return response.status_code, response.json()


# --- valid arguments for each tool -----------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """The item state a tool needs (None: no item, or the cell's visibility state) and its arguments."""

    state: str | None
    build: Callable[[World, Item | None], dict[str, Any]]


def _target(world: World, item: Item | None) -> dict[str, Any]:
    assert item is not None
    return {"collection": "posts", "id": item.id}


def _new_collection(world: World, item: Item | None) -> dict[str, Any]:
    slug = f"doomed_{next(world.seq)}"
    schema_services.collection_create(actor=SYSTEM, slug=slug, label="Doomed")
    return {"slug": slug}


def _new_field(world: World, item: Item | None) -> dict[str, Any]:
    slug = f"doomed_{next(world.seq)}"
    schema_services.field_create(actor=SYSTEM, collection="posts", slug=slug, label="Doomed", type="string")
    return {"collection": "posts", "fieldSlug": slug}


def _first_revision(world: World, item: Item | None) -> dict[str, Any]:
    assert item is not None and len(item.revision_ids) >= 2
    return {"revisionId": item.revision_ids[0]}


def _media_target(world: World, item: Item | None) -> dict[str, Any]:
    assert item is not None
    return {"id": item.id}


def _media_file(world: World, item: Item | None) -> dict[str, Any]:
    return {"filename": "matrix.png", "mimeType": "image/png", "storageKey": place(image_bytes())}


def _media_upload(world: World, item: Item | None) -> dict[str, Any]:
    content = image_bytes(colour=(next(world.seq) % 256, 7, 9))
    return {"filename": "upload.png", "data": base64.b64encode(content).decode()}


def _signed_upload(world: World, item: Item | None) -> dict[str, Any]:
    """Bytes in place under a key no one reserved (a reservation binds its key to the caller who asked for it,
    whom the plan does not know; tests/media/test_upload_tools.py covers that): what media_confirm registers."""
    key = place(image_bytes(colour=(next(world.seq) % 256, 9, 7)))
    return {"storageKey": key, "filename": "signed.png", "mimeType": "image/png"}


def _new_taxonomy(world: World, item: Item | None) -> dict[str, Any]:
    name = f"tax_{next(world.seq)}"
    taxonomy_definitions.taxonomy_create(actor=SYSTEM, name=name, label="Made")
    return {"name": name}


def _redirect(world: World, item: Item | None) -> dict[str, Any]:
    made = redirects.redirect_create(actor=SYSTEM, source=f"/gone-{next(world.seq)}/", target="/posts/")
    return {"redirectId": made["id"]}


def _stale_usage(world: World, item: Item | None) -> dict[str, Any]:
    MediaUsage.objects.create(media_id="01ARZ3NDEKTSV4RRFFQ69G5FAV", collection="gone", entry_id=f"x{next(world.seq)}")
    return {}


def _changeset(world: World, item: Item | None, state: str = "open", creator: User | None = None) -> str:
    """A change set holding ``item`` (a publish, pinned now) in ``state``, made straight in the tables; by the
    caller unless ``creator`` is given. ``published`` is published by the system (for revert)."""
    assert item is not None
    row = schema.get_collection("posts").model.objects.get(pk=item.id)
    made = ChangeSet.objects.create(
        id=new_id(), title=f"Matrix set {next(world.seq)}", creator=creator or world.caller, state=state
    )
    ChangeSetEntry.objects.create(
        changeset=made,
        collection="posts",
        entry_id=item.id,
        pinned_revision_id=row.draft_revision_id,
        pinned_version=row.version,
    )
    if state == "published":
        ChangeSet.objects.filter(id=made.id).update(state="approved")
        changeset_publishing.changeset_publish(actor=SYSTEM, id=made.id)
    return made.id


def _changeset_item(world: World, item: Item | None, **kwargs: Any) -> dict[str, Any]:
    assert item is not None
    return {"id": _changeset(world, item, **kwargs), "collection": "posts", "item": item.id}


def _to_undo(world: World, item: Item | None) -> dict[str, Any]:
    """An item ``world.other`` created over MCP (its audit row), and the arguments that take it back."""
    from audit.record import record
    from emdash.actor import Actor
    from emdash.call import Call

    made = make_entry(data={"title": f"To undo {next(world.seq)}"})
    record(Call.at("mcp", Actor.for_user(world.other)), "content_create", "ok", f"posts/{made.id}")
    return {"by": {"user": world.other.email}, "since": _past(), "dryRun": False}


PLANS: dict[str, Plan] = {
    "content_list": Plan(None, lambda w, i: {"collection": "posts", "limit": 100}),
    "content_get": Plan(None, _target),
    "content_create": Plan(None, lambda w, i: {"collection": "posts", "data": {"title": f"Created {next(w.seq)}"}}),
    "content_update": Plan("draft", lambda w, i: {**_target(w, i), "data": {"title": "Changed by the matrix"}}),
    "content_delete": Plan("draft", _target),
    "content_restore": Plan("trashed", _target),
    "content_permanent_delete": Plan("trashed", _target),
    "content_publish": Plan("draft", _target),
    "content_unpublish": Plan("published", _target),
    "content_schedule": Plan("draft", lambda w, i: {**_target(w, i), "scheduledAt": _future()}),
    "content_unschedule": Plan("scheduled", _target),
    "content_compare": Plan("pending", _target),
    "content_discard_draft": Plan("pending", _target),
    "content_list_trashed": Plan(None, lambda w, i: {"collection": "posts"}),
    "content_duplicate": Plan("draft", _target),
    "content_translations": Plan(None, _target),
    "revision_list": Plan("draft", _target),
    "revision_restore": Plan("draft", _first_revision),
    # SPEC 9.3: undo what another user just did (an item made through MCP, as its audit row says): it is trashed
    "changes_revert": Plan(None, _to_undo),
    "schema_list_collections": Plan(None, lambda w, i: {}),
    "schema_get_collection": Plan(None, lambda w, i: {"collection": "posts"}),
    "schema_create_collection": Plan(None, lambda w, i: {"slug": f"made_{next(w.seq)}", "label": "Made"}),
    "schema_delete_collection": Plan(None, _new_collection),
    "schema_create_field": Plan(
        None, lambda w, i: {"collection": "posts", "slug": f"made_{next(w.seq)}", "label": "Made", "type": "string"}
    ),
    "schema_delete_field": Plan(None, _new_field),
    "schema_update_collection": Plan(None, lambda w, i: {"collection": "posts", "description": f"d{next(w.seq)}"}),
    "schema_update_field": Plan(None, lambda w, i: {**_new_field(w, i), "label": "Renamed"}),
    "media_list": Plan(None, lambda w, i: {"mimeType": "image/"}),
    "media_get": Plan(None, _media_target),
    "media_create": Plan(None, _media_file),
    "media_upload": Plan(None, _media_upload),
    "media_update": Plan(None, lambda w, i: {**_media_target(w, i), "alt": f"Alt {next(w.seq)}"}),
    "media_delete": Plan(None, _media_target),
    "media_upload_url": Plan(None, lambda w, i: {"filename": "big.png", "mimeType": "image/png", "size": 1000}),
    "media_confirm": Plan(None, _signed_upload),
    "media_usage_repair": Plan(None, _stale_usage),  # a stale index row the repair must remove
    "search": Plan(None, lambda w, i: {"query": "matrix"}),
    "taxonomy_list": Plan(None, lambda w, i: {}),
    "taxonomy_list_terms": Plan(None, lambda w, i: {"taxonomy": "tag"}),
    "taxonomy_create_term": Plan(
        None, lambda w, i: {"taxonomy": "tag", "slug": f"made-{next(w.seq)}", "label": "Made"}
    ),
    "taxonomy_update_term": Plan(None, lambda w, i: {"taxonomy": "tag", "termSlug": w.term(), "label": "Changed"}),
    "taxonomy_delete_term": Plan(None, lambda w, i: {"taxonomy": "tag", "termSlug": w.term()}),
    "taxonomy_create": Plan(None, lambda w, i: {"name": f"made_{next(w.seq)}", "label": "Made"}),
    "taxonomy_update": Plan(None, lambda w, i: {**_new_taxonomy(w, i), "collections": ["posts"]}),
    "taxonomy_delete": Plan(None, _new_taxonomy),
    "taxonomy_term_translations": Plan(None, lambda w, i: {"taxonomy": "tag", "termSlug": w.term()}),
    "menu_list": Plan(None, lambda w, i: {}),
    "menu_get": Plan(None, lambda w, i: {"name": "main"}),
    "menu_create": Plan(None, lambda w, i: {"name": f"made_{next(w.seq)}", "label": "Made"}),
    "menu_update": Plan(None, lambda w, i: {"name": w.menu(), "label": "Changed"}),
    "menu_delete": Plan(None, lambda w, i: {"name": w.menu()}),
    "menu_translations": Plan(None, lambda w, i: {"name": "main"}),
    "menu_set_items": Plan(
        None,
        lambda w, i: {"name": "main", "items": [{"label": f"Home {next(w.seq)}", "type": "custom", "customUrl": "/"}]},
    ),
    "settings_get": Plan(None, lambda w, i: {}),
    "settings_update": Plan(None, lambda w, i: {"tagline": f"Tagline {next(w.seq)}"}),
    "redirect_list": Plan(None, lambda w, i: {}),
    "redirect_create": Plan(None, lambda w, i: {"source": f"/old-{next(w.seq)}/", "target": "/posts/"}),
    "redirect_delete": Plan(None, _redirect),
    "import_wordpress": Plan(None, lambda w, i: {"url": wxr_url()}),  # a one-post WXR on 127.0.0.1
    "changeset_list": Plan(None, lambda w, i: {"state": "open"}),
    "changeset_get": Plan("draft", lambda w, i: {"id": _changeset(w, i)}),
    "changeset_create": Plan(None, lambda w, i: {"title": f"Proposal {next(w.seq)}"}),
    "changeset_add": Plan(
        "draft", lambda w, i: {"id": _changeset(w, w.item("draft", None)), "collection": "posts", "item": i.id}
    ),
    "changeset_remove": Plan("draft", _changeset_item),
    "changeset_submit": Plan("draft", lambda w, i: {"id": _changeset(w, i)}),
    "changeset_review": Plan(
        "draft", lambda w, i: {"id": _changeset(w, i, state="submitted", creator=w.other), "decision": "reject"}
    ),
    "changeset_publish": Plan("draft", lambda w, i: {"id": _changeset(w, i, state="approved", creator=w.other)}),
    "changeset_revert": Plan("draft", lambda w, i: {"id": _changeset(w, i, state="published", creator=w.other)}),
    "byline_list": Plan(None, lambda w, i: {}),
    "byline_get": Plan(None, lambda w, i: {"id": w.byline()}),
    "byline_create": Plan(None, lambda w, i: {"slug": f"made-{next(w.seq)}", "displayName": "Made"}),
    "byline_update": Plan(None, lambda w, i: {"id": w.byline(), "bio": f"Bio {next(w.seq)}"}),
    "byline_delete": Plan(None, lambda w, i: {"id": w.byline()}),
    "byline_translations": Plan(None, lambda w, i: {"id": w.byline()}),
}


@pytest.fixture(autouse=True)
def _fetch_from_loopback(settings: Any) -> None:
    """import_wordpress fetches its WXR from 127.0.0.1, which fetches may reach only when allowed."""
    settings.EMDASH = {**settings.EMDASH, "FETCH_ALLOW_PRIVATE": True}


# --- state snapshots -----------------------------------------------------------------------------


def snapshot() -> dict[str, Any]:
    """Entry rows of every collection, the revision count and the schema registry."""
    tables = dict(Collection.objects.values_list("slug", "table_name"))
    entries = {}
    with connection.cursor() as cursor:
        for slug, table in sorted(tables.items()):
            cursor.execute(
                f"SELECT id, version, status, deleted_at FROM {connection.ops.quote_name(table)} ORDER BY id"
            )
            entries[slug] = [tuple(row) for row in cursor.fetchall()]
    return {
        "media": list(MediaItem.objects.order_by("id").values_list("id", "alt", "caption", "author_id")),
        "media_usage": list(
            MediaUsage.objects.order_by("pk").values_list("media_id", "collection", "entry_id", "field")
        ),
        "terms": list(Term.objects.order_by("id").values_list("id", "slug", "label", "parent_id", "description")),
        "menus": list(Menu.objects.order_by("name").values_list("name", "label")),
        "taxonomies": list(
            TaxonomyDefinition.objects.order_by("name").values_list("name", "label", "hierarchical", "collections")
        ),
        "upload_reservations": list(UploadReservation.objects.order_by("storage_key").values_list("storage_key")),
        "bylines": list(Byline.objects.order_by("id").values_list("id", "slug", "display_name", "bio")),
        "menu_items": list(MenuItem.objects.order_by("id").values_list("id", "label", "menu__name")),
        "settings": list(SiteSettings.objects.values_list("data", flat=True)),
        "entries": entries,
        "revisions": Revision.objects.count(),
        "redirects": list(Redirect.objects.order_by("id").values_list("id", "source", "target")),
        "changesets": list(ChangeSet.objects.order_by("id").values_list("id", "state", "version")),
        "changeset_entries": list(ChangeSetEntry.objects.order_by("id").values_list("id", "entry_id", "action")),
        "collections": list(Collection.objects.order_by("slug").values_list("slug", "label", "supports", "updated_at")),
        "fields": list(
            Field.objects.order_by("collection__slug", "slug").values_list(
                "collection__slug", "slug", "type", "required", "validation", "options"
            )
        ),
    }


def _statuses(value: Any) -> list[str]:
    """Every ``status`` of an item-like object in a payload."""
    if isinstance(value, dict):
        found = [value["status"]] if isinstance(value.get("status"), str) and "id" in value else []
        return found + [s for v in value.values() for s in _statuses(v)]
    if isinstance(value, list):
        return [s for v in value for s in _statuses(v)]
    return []


# --- checking one cell -------------------------------------------------------------------------------


def check_cell(world: World, tool: Tool, cell: Cell) -> None:
    plan = PLANS[tool.name]
    caller = world.users[cell.role]
    item = None
    owner_id = caller.pk if cell.owner == "own" else world.other.pk
    if targets_entry(tool):
        state = cell.state or plan.state
        assert state is not None
        item = world.item(state, owner_id)
    elif targets_item(tool):
        item = world.media(owner_id)
    world.caller = caller
    arguments = plan.build(world, item)
    token = world.token(cell.role, cell.scopes)
    want, perm = expected(tool, cell)
    before = snapshot()
    status, body = world.call(token, tool.name, arguments)
    after = snapshot()
    # A missing scope is a step-up challenge (HTTP 403, SPEC 5.3); everything else is HTTP 200.
    assert status == (403 if want == SCOPE else 200), f"HTTP {status}: {body}"
    assert body.get("id") == 1 and body.get("jsonrpc") == "2.0"

    if want in (SCOPE, PERMS):
        assert "error" in body, f"expected {want}, got a result: {str(body.get('result'))[:300]}"
        error = body["error"]
        assert error["code"] == INVALID_REQUEST, error
        assert perm is not None
        rule = RULES[perm]
        if want == SCOPE:
            assert error["data"] == {"code": SCOPE, "requiredScope": rule.scope.value}, error
            assert error["message"].startswith(f"Insufficient scope: requires {rule.scope.value}. "), error
        else:
            assert error["data"] == {"code": PERMS}, error
            assert error["message"] == f"Insufficient permissions: {rule.needs}", error
        assert after == before, "a refused call changed something"
        _assert_discreet(error["message"], [caller, world.other])
        return

    assert "result" in body, f"expected {want}, got JSON-RPC error {body.get('error')}"
    result = body["result"]
    text = result["content"][0]["text"]
    if want == NOT_FOUND:
        assert result["isError"] is True and result["_meta"]["code"] == NOT_FOUND, f"expected NOT_FOUND: {text}"
        assert after == before, "a hidden-item call changed something"
        _assert_discreet(text, [caller, world.other])
        return

    assert result["isError"] is False, f"expected success, got {result.get('_meta', {}).get('code')}: {text}"
    payload = json.loads(text)
    assert result["structuredContent"] == payload
    problems = [e.message for e in Draft202012Validator(tool.output_schema or {}).iter_errors(payload)]
    assert not problems, f"payload does not match the outputSchema: {problems}"
    if tool.read_only:
        assert after == before, "a read-only tool changed something"
    else:
        assert after != before, "an allowed write changed nothing"
    if cell.role < RULES[Perm.CONTENT_READ_UNPUBLISHED].min_role:
        assert set(_statuses(payload)) <= {"published"}, "a reader without draft rights saw unpublished items"


def _assert_discreet(text: str, users: list[User]) -> None:
    for user in users:
        assert user.email not in text, f"email leaked: {text}"
        assert not re.search(rf"(?<![\w-]){user.pk}(?![\w-])", text), f"user id leaked: {text}"


# --- the tests -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", [pytest.param(name, id=name) for name in sorted(REGISTRY)])
def test_tool_permission_matrix(posts, name, tmp_path, settings):
    """One tool, every role x scope set x owner (x visibility); all failing cells reported together."""
    settings.MEDIA_ROOT = str(tmp_path)
    tool = REGISTRY[name]
    world = World()
    failures = []
    all_cells = cells(tool)
    for cell in all_cells:
        try:
            check_cell(world, tool, cell)
        except AssertionError as exc:
            failures.append(f"{name} [{cell}]: {exc}")
    assert not failures, f"{len(failures)} of {len(all_cells)} cells failed:\n" + "\n".join(failures)


def test_matrix_covers_every_tool_role_and_outcome():
    assert set(PLANS) == set(REGISTRY), "every registered tool needs an argument builder in PLANS"
    outcomes = {expected(REGISTRY[n], c)[0] for n in REGISTRY for c in cells(REGISTRY[n])}
    assert outcomes == {OK, SCOPE, PERMS, NOT_FOUND}
    for name, tool in REGISTRY.items():
        grid = cells(tool)
        assert {c.role for c in grid} == set(Role), name
        assert {expected(tool, c)[0] for c in grid} >= {OK, SCOPE}, f"{name}: someone must be allowed and refused"
        if RULES[tool.perm].min_role > min(Role):
            assert PERMS in {expected(tool, c)[0] for c in grid}, name
        if targets_item(tool) and tool.perm in OWN_TO_ANY:
            assert any(
                c.owner == "other" and expected(tool, c)[0] == PERMS and c.role >= RULES[tool.perm].min_role
                for c in grid
            ), f"{name}: the ownership rule is never exercised"


def _cell(role: Role, scopes: set[Scope], owner: str | None = None, state: str | None = None) -> Cell:
    return Cell(role, "spot", frozenset(scopes), owner, state)


@pytest.mark.parametrize(
    ("name", "cell", "outcome"),
    [
        ("content_update", _cell(Role.AUTHOR, {Scope.CONTENT_WRITE}, "own"), OK),
        ("content_update", _cell(Role.AUTHOR, {Scope.CONTENT_WRITE}, "other"), PERMS),
        ("content_update", _cell(Role.EDITOR, {Scope.CONTENT_WRITE}, "other"), OK),
        ("content_update", _cell(Role.EDITOR, {Scope.CONTENT_READ}, "own"), SCOPE),
        ("content_update", _cell(Role.CONTRIBUTOR, {Scope.ADMIN}, "own"), PERMS),
        ("content_permanent_delete", _cell(Role.EDITOR, {Scope.ADMIN}, "own"), PERMS),
        ("content_permanent_delete", _cell(Role.ADMIN, {Scope.CONTENT_WRITE}, "other"), OK),
        ("content_get", _cell(Role.SUBSCRIBER, {Scope.CONTENT_READ}, "own", "draft"), NOT_FOUND),
        ("content_get", _cell(Role.SUBSCRIBER, {Scope.CONTENT_READ}, "other", "published"), OK),
        ("content_get", _cell(Role.CONTRIBUTOR, {Scope.CONTENT_READ}, "other", "draft"), OK),
        ("content_get", _cell(Role.ADMIN, {Scope.CONTENT_WRITE}, "own", "published"), SCOPE),
        ("content_compare", _cell(Role.SUBSCRIBER, {Scope.CONTENT_READ}, "own"), PERMS),
        ("content_duplicate", _cell(Role.AUTHOR, {Scope.CONTENT_WRITE}, "other"), OK),
        ("content_create", _cell(Role.CONTRIBUTOR, {Scope.CONTENT_WRITE}), PERMS),
        ("revision_restore", _cell(Role.AUTHOR, {Scope.CONTENT_WRITE}, "other"), PERMS),
        # SPEC 9.1: content:draft writes drafts, never what the public sees; role rules unchanged.
        ("content_create", _cell(Role.AUTHOR, {Scope.CONTENT_DRAFT}), OK),
        ("content_create", _cell(Role.CONTRIBUTOR, {Scope.CONTENT_DRAFT}), PERMS),
        ("content_update", _cell(Role.AUTHOR, {Scope.CONTENT_DRAFT}, "own"), OK),
        ("content_update", _cell(Role.AUTHOR, {Scope.CONTENT_DRAFT}, "other"), PERMS),
        ("content_update", _cell(Role.EDITOR, {Scope.CONTENT_DRAFT}, "other"), OK),
        ("content_discard_draft", _cell(Role.AUTHOR, {Scope.CONTENT_DRAFT}, "own"), OK),
        ("content_duplicate", _cell(Role.AUTHOR, {Scope.CONTENT_DRAFT}, "own"), OK),
        ("revision_restore", _cell(Role.AUTHOR, {Scope.CONTENT_DRAFT}, "own"), OK),
        ("content_publish", _cell(Role.ADMIN, {Scope.CONTENT_DRAFT}, "own"), SCOPE),
        ("content_unpublish", _cell(Role.ADMIN, {Scope.CONTENT_DRAFT}, "own"), SCOPE),
        ("content_schedule", _cell(Role.ADMIN, {Scope.CONTENT_DRAFT}, "own"), SCOPE),
        ("content_unschedule", _cell(Role.ADMIN, {Scope.CONTENT_DRAFT}, "own"), SCOPE),
        ("content_delete", _cell(Role.ADMIN, {Scope.CONTENT_DRAFT}, "own"), SCOPE),
        ("content_restore", _cell(Role.ADMIN, {Scope.CONTENT_DRAFT}, "own"), SCOPE),
        ("content_permanent_delete", _cell(Role.ADMIN, {Scope.CONTENT_DRAFT}, "own"), SCOPE),
        ("content_publish", _cell(Role.AUTHOR, {Scope.CONTENT_WRITE}, "other"), PERMS),
        ("content_publish", _cell(Role.EDITOR, {Scope.CONTENT_WRITE}, "other"), OK),
        ("schema_get_collection", _cell(Role.AUTHOR, {Scope.SCHEMA_READ}), PERMS),
        ("schema_get_collection", _cell(Role.EDITOR, {Scope.SCHEMA_WRITE}), SCOPE),
        ("schema_create_field", _cell(Role.EDITOR, {Scope.SCHEMA_WRITE}), PERMS),
        ("schema_delete_collection", _cell(Role.ADMIN, {Scope.ADMIN}), OK),
        ("media_create", _cell(Role.AUTHOR, {Scope.MEDIA_WRITE}), OK),
        ("media_create", _cell(Role.CONTRIBUTOR, {Scope.MEDIA_WRITE}), PERMS),
        ("media_upload", _cell(Role.AUTHOR, {Scope.MEDIA_WRITE}), OK),
        ("media_upload", _cell(Role.CONTRIBUTOR, {Scope.MEDIA_WRITE}), PERMS),
        ("media_upload", _cell(Role.AUTHOR, {Scope.CONTENT_WRITE}), SCOPE),
        ("media_update", _cell(Role.AUTHOR, {Scope.MEDIA_WRITE}, "other"), PERMS),
        ("media_delete", _cell(Role.EDITOR, {Scope.MEDIA_WRITE}, "other"), OK),
        ("media_get", _cell(Role.SUBSCRIBER, {Scope.CONTENT_READ}, "other"), SCOPE),
        ("media_usage_repair", _cell(Role.ADMIN, {Scope.ADMIN}), OK),
        ("media_usage_repair", _cell(Role.ADMIN, {Scope.MEDIA_WRITE}), SCOPE),
        ("media_usage_repair", _cell(Role.EDITOR, {Scope.ADMIN}), PERMS),
        ("taxonomy_create_term", _cell(Role.EDITOR, {Scope.CONTENT_WRITE}), OK),
        ("taxonomy_create_term", _cell(Role.AUTHOR, {Scope.TAXONOMIES_MANAGE}), PERMS),
        ("menu_set_items", _cell(Role.EDITOR, {Scope.CONTENT_WRITE}), OK),
        ("taxonomy_create", _cell(Role.EDITOR, {Scope.TAXONOMIES_MANAGE}), OK),
        ("taxonomy_update", _cell(Role.AUTHOR, {Scope.TAXONOMIES_MANAGE}), PERMS),
        ("taxonomy_delete", _cell(Role.EDITOR, {Scope.CONTENT_READ}), SCOPE),
        ("media_upload_url", _cell(Role.AUTHOR, {Scope.MEDIA_WRITE}), OK),
        ("media_confirm", _cell(Role.CONTRIBUTOR, {Scope.MEDIA_WRITE}), PERMS),
        ("menu_list", _cell(Role.SUBSCRIBER, {Scope.CONTENT_READ}), OK),
        ("settings_get", _cell(Role.AUTHOR, {Scope.SETTINGS_READ}), PERMS),
        ("settings_update", _cell(Role.EDITOR, {Scope.SETTINGS_MANAGE}), PERMS),
        ("settings_update", _cell(Role.ADMIN, {Scope.SETTINGS_READ}), SCOPE),
        ("search", _cell(Role.SUBSCRIBER, {Scope.CONTENT_READ}), OK),
        ("byline_create", _cell(Role.AUTHOR, {Scope.CONTENT_WRITE}), PERMS),
        ("byline_update", _cell(Role.EDITOR, {Scope.CONTENT_READ}, "own"), SCOPE),
        ("byline_list", _cell(Role.SUBSCRIBER, {Scope.CONTENT_READ}), OK),
    ],
)
def test_expectations_match_spec_section_3(name, cell, outcome):
    """Spot checks of the derivation against SPEC 3 and 7 as written."""
    assert expected(REGISTRY[name], cell)[0] == outcome
