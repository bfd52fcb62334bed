"""SPEC 9.1: a `content:draft` token writes drafts and never changes what the public sees, at every door.

The matrix is generated from the operation table: every content operation (categories content and revision,
the ones gated by a content rule) x {content:draft, content:write} x {MCP, REST}. Whether a draft-only token
may call an operation at all is read from ``RULES`` (its rule accepts content:draft or not); the cases the
rule lets through but the service refuses (going live through a write) are listed below with why.

A refusal is HTTP 403 with ``WWW-Authenticate: Bearer error="insufficient_scope", scope="content:write"``, a
message pointing at change sets, and nothing changed (rows, revisions, terms, byline credits).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from accounts.models import User
from bylines import services as byline_services
from bylines.models import Byline, ContentByline
from content.entries import services
from content.models import Collection, Revision
from emdash.operations import TABLE, load
from emdash.operations.record import Operation
from emdash.permissions import RULES, Perm
from emdash.roles import Role
from emdash.scopes import Scope
from taxonomy import services as taxonomy_services
from taxonomy.models import TermAssignment
from tests.factories import SYSTEM, make_collection, make_entry
from tests.mcp_e2e.conftest import MCP_PATH, new_user, token_for

load()

DRAFT = ("content:draft", "content:read")
WRITE = ("content:write", "content:read")
CONTENT_PERMS = {
    Perm.CONTENT_CREATE,
    Perm.CONTENT_EDIT_OWN,
    Perm.CONTENT_EDIT_ANY,
    Perm.CONTENT_GO_LIVE,
    Perm.CONTENT_DELETE_PERMANENT,
}
# Every content write of the operation table (reads need content:read, which both tokens hold).
CONTENT_WRITES = sorted(
    name
    for name, op in TABLE.items()
    if op.category in ("content", "revision") and op.perm in CONTENT_PERMS and not op.read_only
)


def future() -> str:
    return (timezone.now() + timedelta(days=2)).isoformat()


@dataclass(frozen=True)
class Plan:
    """The item state an operation is called on, and its wire arguments (``item`` id, ``rev`` a revision id)."""

    state: str | None
    args: Callable[[str, str], dict[str, Any]]


def _target(item: str, rev: str) -> dict[str, Any]:
    return {"collection": "posts", "id": item}


PLANS: dict[str, Plan] = {
    "content_create": Plan(None, lambda i, r: {"collection": "posts", "data": {"title": "Made by a token"}}),
    "content_update": Plan("draft", lambda i, r: {**_target(i, r), "data": {"title": "Edited by a token"}}),
    "content_delete": Plan("draft", _target),
    "content_restore": Plan("trashed", _target),
    "content_permanent_delete": Plan("trashed", _target),
    "content_publish": Plan("draft", _target),
    "content_unpublish": Plan("published", _target),
    "content_schedule": Plan("draft", lambda i, r: {**_target(i, r), "scheduledAt": future()}),
    "content_unschedule": Plan("scheduled", _target),
    "content_discard_draft": Plan("pending", _target),
    "content_duplicate": Plan("draft", _target),
    "revision_restore": Plan("draft", lambda i, r: {"revisionId": r}),
    "content_terms_set": Plan("draft", lambda i, r: {**_target(i, r), "taxonomy": "tag", "terms": ["news"]}),
}


def draft_may(op: Operation) -> bool:
    """The table's answer: does the operation's rule accept content:draft?"""
    return Scope.CONTENT_DRAFT in RULES[op.perm].scopes


# --- the world -------------------------------------------------------------------------------------------


@pytest.fixture
def world(posts: Any) -> World:
    return World()


class World:
    def __init__(self) -> None:
        self.client = Client()
        self.author: User = new_user(Role.ADMIN)  # admin role: only the scope decides
        self.tokens = {
            "draft": token_for(self.author, DRAFT, name="assistant (drafts)"),
            "write": token_for(self.author, WRITE, name="assistant (write)"),
        }
        taxonomy_services.term_create(actor=SYSTEM, taxonomy="tag", slug="news", label="News")
        byline_services.byline_create(actor=SYSTEM, slug="guest", display_name="A Guest", is_guest=True)

    def item(self, state: str, collection: str = "posts") -> tuple[str, str]:
        """A fresh item of the author's in ``state``; (id, oldest revision id)."""
        entry = make_entry(collection, data={"title": "Original", "excerpt": "x"})
        target = {"actor": SYSTEM, "collection": collection, "id": entry.id}
        if state == "draft":
            services.entry_update(**target, data={"title": "Original (edited)"})
        if state in ("published", "pending"):
            services.entry_publish(**target)
        if state == "pending":
            services.entry_update(**target, data={"title": "Original (pending)"})
        if state == "scheduled":
            services.entry_schedule(**target, scheduled_at=future())
        if state == "trashed":
            services.entry_trash(**target)
        model = Collection.objects.get(slug=collection)
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {connection.ops.quote_name(model.table_name)} SET author_id = %s WHERE id = %s",
                [self.author.pk, entry.id],
            )
        first = Revision.objects.filter(collection=collection, entry_id=entry.id).order_by("created_at", "id").first()
        return entry.id, first.id if first else ""

    def mcp(self, token: str, name: str, arguments: dict[str, Any]) -> Answer:
        message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
        response = self.client.post(
            MCP_PATH,
            data=json.dumps(message),
            content_type="application/json",
            headers={
                "Authorization": f"Bearer {token}",
                "Accept": "application/json, text/event-stream",
                "MCP-Protocol-Version": "2025-11-25",
            },
        )
        body = response.json()
        error = body.get("error") or {}
        result = body.get("result") or {}
        code = (error.get("data") or {}).get("code") or (result.get("_meta") or {}).get("code") or "ok"
        message_text = error.get("message") or (result["content"][0]["text"] if result.get("isError") else "")
        return Answer(response.status_code, code, message_text, response.headers.get("WWW-Authenticate", ""))

    def rest(self, token: str, op: Operation, arguments: dict[str, Any]) -> Answer:
        route = op.routes[0]
        args = dict(arguments)
        path = route.path
        for param in re.findall(r"<str:(\w+)>", route.path):
            wire = re.sub(r"_(\w)", lambda m: m.group(1).upper(), param)
            path = path.replace(f"<str:{param}>", str(args.pop(wire)))
        kwargs: dict[str, Any] = {"headers": {"Authorization": f"Bearer {token}"}}
        if route.args == "body":
            kwargs |= {"data": json.dumps(args), "content_type": "application/json"}
        elif route.args == "query":
            kwargs["data"] = args
        response = getattr(self.client, route.method.lower())("/" + path, **kwargs)
        body = response.json() if response.content else {}
        error = body.get("error") or {} if isinstance(body, dict) else {}
        code = error.get("code", "ok") if response.status_code >= 400 else "ok"
        return Answer(
            response.status_code, code, error.get("message", ""), response.headers.get("WWW-Authenticate", "")
        )


@dataclass(frozen=True)
class Answer:
    status: int
    code: str
    message: str
    challenge: str


def state_of_content() -> Any:
    """Everything a refused call must leave alone: rows of every collection, revisions, terms and credits."""
    rows = {}
    with connection.cursor() as cursor:
        for slug, table in Collection.objects.values_list("slug", "table_name"):
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)} ORDER BY id")
            rows[slug] = [tuple(str(v) for v in row) for row in cursor.fetchall()]
    revisions = list(Revision.objects.order_by("id").values_list("id", "data"))
    terms = list(TermAssignment.objects.order_by("id").values_list("collection", "entry_id", "term_id"))
    credits = list(ContentByline.objects.order_by("id").values_list("collection", "entry_id", "byline_id"))
    return rows, revisions, terms, credits


def assert_step_up(answer: Answer, door: str) -> None:
    """SPEC 9.1 / 5.3: 403, the challenge naming content:write, a message pointing at change sets."""
    assert answer.status == 403, answer
    assert answer.code == "INSUFFICIENT_SCOPE", answer
    assert 'error="insufficient_scope"' in answer.challenge, (door, answer)
    assert 'scope="content:write"' in answer.challenge, (door, answer)
    assert answer.message.startswith("Insufficient scope: requires content:write."), answer
    assert "change set" in answer.message, answer


def call(world: World, door: str, token: str, op: Operation, arguments: dict[str, Any]) -> Answer:
    return world.mcp(token, op.name, arguments) if door == "mcp" else world.rest(token, op, arguments)


def doors_of(name: str) -> list[str]:
    op = TABLE[name]
    return [door for door, served in (("mcp", op.mcp), ("rest", bool(op.routes))) if served]


MATRIX = [
    pytest.param(name, door, token, id=f"{name}-{door}-{token}")
    for name in CONTENT_WRITES
    for door in doors_of(name)
    for token in ("draft", "write")
]


# --- the generated matrix -----------------------------------------------------------------------------------


def test_every_content_write_has_a_plan_and_the_split_is_the_spec_s():
    assert set(CONTENT_WRITES) == set(PLANS), "a new content operation needs a plan here"
    draft_ops = {name for name in CONTENT_WRITES if draft_may(TABLE[name])}
    assert draft_ops == {
        "content_create",
        "content_update",
        "content_discard_draft",
        "content_duplicate",
        "revision_restore",
        "content_terms_set",
    }


@pytest.mark.parametrize(("name", "door", "token"), MATRIX)
def test_content_operation_by_scope_and_door(world: World, name: str, door: str, token: str) -> None:
    op, plan = TABLE[name], PLANS[name]
    item, rev = world.item(plan.state) if plan.state else ("", "")
    arguments = plan.args(item, rev)
    before = state_of_content()
    answer = call(world, door, world.tokens[token], op, arguments)
    if token == "write" or draft_may(op):
        assert answer.code == "ok" and answer.status < 400, answer
        assert state_of_content() != before, "an allowed write changed nothing"
    else:
        assert_step_up(answer, door)
        assert state_of_content() == before, "a refused call changed something"


# --- what the rule lets through but the service refuses ----------------------------------------------------


@dataclass(frozen=True)
class Refusal:
    why: str
    op: str
    state: str | None
    args: Callable[[str, str], dict[str, Any]]
    collection: str = "posts"


REFUSALS = [
    Refusal(
        "create as published",
        "content_create",
        None,
        lambda i, r: {"collection": "posts", "data": {"title": "Live at once"}, "status": "published"},
    ),
    Refusal(
        "publish through update's status",
        "content_update",
        "draft",
        lambda i, r: {**_target(i, r), "status": "published"},
    ),
    Refusal(
        "unpublish through update's status",
        "content_update",
        "published",
        lambda i, r: {**_target(i, r), "status": "draft"},
    ),
    Refusal(
        "edit a published item of a collection without drafts",
        "content_update",
        "published",
        lambda i, r: {"collection": "notes", "id": i, "data": {"title": "Straight to the site"}},
        "notes",
    ),
    Refusal(
        "edit a scheduled item of a collection without drafts",
        "content_update",
        "scheduled",
        lambda i, r: {"collection": "notes", "id": i, "data": {"title": "Live at the scheduled time"}},
        "notes",
    ),
    Refusal(
        "edit an item scheduled for its first publication",
        "content_update",
        "scheduled",
        lambda i, r: {**_target(i, r), "data": {"title": "Live at the scheduled time"}},
    ),
    Refusal(
        "change a live item's terms through update",
        "content_update",
        "published",
        lambda i, r: {**_target(i, r), "terms": {"tag": ["news"]}},
    ),
    Refusal(
        "change a live item's terms",
        "content_terms_set",
        "published",
        lambda i, r: {**_target(i, r), "taxonomy": "tag", "terms": ["news"]},
    ),
    Refusal(
        "change a live item's bylines through update",
        "content_update",
        "published",
        lambda i, r: {**_target(i, r), "bylines": [{"bylineId": Byline.objects.get(slug="guest").pk}]},
    ),
    Refusal("restore a revision of a live item", "revision_restore", "pending", lambda i, r: {"revisionId": r}),
]


@pytest.fixture
def notes(posts: Any) -> Any:
    """A collection without drafts (no revisions): edits write the live row directly."""
    return make_collection("notes", supports=[])


@pytest.mark.parametrize("refusal", REFUSALS, ids=lambda r: r.why.replace(" ", "-"))
@pytest.mark.parametrize("door", ["mcp", "rest"])
def test_draft_token_is_refused_what_would_go_live(world: World, notes: Any, refusal: Refusal, door: str) -> None:
    op = TABLE[refusal.op]
    if door not in doors_of(op.name):
        pytest.skip(f"{op.name} has no {door} door")
    item, rev = world.item(refusal.state, refusal.collection) if refusal.state else ("", "")
    arguments = refusal.args(item, rev)
    before = state_of_content()
    refused = call(world, door, world.tokens["draft"], op, arguments)
    assert_step_up(refused, door)
    assert "without drafts" not in refused.message or refusal.collection == "notes", refused.message
    assert state_of_content() == before, "a refused call changed something"
    # The same call with content:write goes through: only the scope refused it.
    assert call(world, door, world.tokens["write"], op, arguments).code == "ok"


@pytest.mark.parametrize("door", ["mcp", "rest"])
def test_draft_token_edits_a_published_item_as_a_draft_and_the_public_sees_nothing(world: World, door: str) -> None:
    item, _ = world.item("published")
    op = TABLE["content_update"]
    answer = call(world, door, world.tokens["draft"], op, {**_target(item, ""), "data": {"title": "Proposed"}})
    assert answer.code == "ok", answer
    row = Collection.objects.get(slug="posts")
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT title, status, draft_revision_id FROM {connection.ops.quote_name(row.table_name)} WHERE id = %s",
            [item],
        )
        title, status, draft = cursor.fetchone()
    # The live row keeps its values; the draft revision holds the edit.
    assert (title, status) == ("Original", "published") and draft


@pytest.mark.parametrize("door", ["mcp", "rest"])
def test_draft_token_edits_a_never_published_item_of_a_collection_without_drafts(
    world: World, notes: Any, door: str
) -> None:
    item, _ = world.item("draft", "notes")
    answer = call(
        world,
        door,
        world.tokens["draft"],
        TABLE["content_update"],
        {"collection": "notes", "id": item, "data": {"title": "Still a draft"}},
    )
    assert answer.code == "ok", answer


def test_draft_token_role_rules_are_unchanged(world: World) -> None:
    """An author's draft token edits only the author's items (SPEC 9.1: the scope adds no rights)."""
    author = new_user(Role.AUTHOR)
    token = token_for(author, DRAFT)
    item, _ = world.item("draft")  # owned by someone else
    answer = world.mcp(token, "content_update", {**_target(item, ""), "data": {"title": "Not mine"}})
    assert answer.code == "INSUFFICIENT_PERMISSIONS" and answer.status == 200, answer
    contributor = token_for(new_user(Role.CONTRIBUTOR), DRAFT)
    refused = world.mcp(contributor, "content_create", {"collection": "posts", "data": {"title": "x"}})
    assert refused.code == "INSUFFICIENT_PERMISSIONS", refused


def test_draft_token_without_content_read_is_told_what_it_lacks(world: World) -> None:
    """The scope check names the missing scope; content:draft does not read (content:read does)."""
    token = token_for(world.author, ["content:draft"])
    item, _ = world.item("draft")
    answer = world.mcp(token, "content_get", _target(item, ""))
    assert answer.status == 403 and 'scope="content:read"' in answer.challenge, answer


def test_tool_descriptions_say_which_calls_a_draft_token_may_make() -> None:
    from mcp_endpoint.registry import REGISTRY, load_tools

    load_tools()
    assert "Needs content:write or content:draft (author+" in REGISTRY["content_update"].description
    assert REGISTRY["content_publish"].description.endswith("Needs content:write (author+; others' items editor+).")
