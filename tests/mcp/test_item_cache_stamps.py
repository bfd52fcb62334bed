"""Every write that changes what ``content_get`` shows moves a change stamp its per-process cache checks
(content/entries/item_cache.py), so the next read shows the write (issue 27 goal 2).

The table WRITES names each kind of write; each test reads an item twice (the second read comes from the cache),
does the write, reads again, and checks that the answer changed and equals one built afresh (the cache emptied).
The cache is never emptied by a write in this process: it checks the stamps exactly as another process's cache
would, so each row is also the cross-process case. Editors (who see drafts) read over MCP; for writes the public
sees, an anonymous REST read is checked as well.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import orjson
import pytest
from django.test import Client

from accounts.models import User
from content.entries import item_cache, services
from content.models import Revision
from taxonomy.services import entry_terms_set
from tests.factories import SYSTEM, actor, make_collection
from tests.mcp.conftest import MCP, fast_user
from tests.media.helpers import media_rows

TITLE = {"slug": "title", "label": "Title", "type": "string", "required": True}
MEDIA_ID = "01HZZZZZZZZZZZZZZZZZZZZZZ1"


@dataclass
class World:
    mcp: MCP
    live: str  # a published item with an image, a reference, terms, credits and SEO
    draft: str  # a draft (never published) of the same collection, without credits
    tool: str  # the published item the live one references
    writer: User  # the author of both items
    byline: str
    term: str

    def ok(self, name: str, arguments: dict[str, Any]) -> Any:
        return self.mcp.ok(name, arguments)


@pytest.fixture
def world(cms: None, mcp: MCP) -> World:
    make_collection("tools", fields=[TITLE], supports=[])
    image = {"slug": "cover", "label": "Cover", "type": "image", "translatable": False}
    uses = {"slug": "uses", "label": "Uses", "type": "references", "options": {"collections": ["tools"]}}
    make_collection("posts", fields=[TITLE, image, uses])
    media_rows(MEDIA_ID)
    mcp.ok("taxonomy_create", {"name": "topics", "label": "Topics", "collections": ["posts"]})
    term = mcp.ok("taxonomy_create_term", {"taxonomy": "topics", "slug": "a", "label": "A"})
    mcp.ok("taxonomy_create_term", {"taxonomy": "topics", "slug": "b", "label": "B"})
    byline = mcp.ok("byline_create", {"slug": "ann", "displayName": "Ann"})
    tool = services.entry_create(actor=SYSTEM, collection="tools", data={"title": "Whisk"}, status="published")
    writer = fast_user("editor")
    by = actor(writer)
    live = services.entry_create(
        actor=by,
        collection="posts",
        data={"title": "Live", "cover": {"id": MEDIA_ID}, "uses": [tool.id]},
        status="published",
        terms={"topics": ["a"]},
        bylines=[{"bylineId": byline["byline"]["id"] if "byline" in byline else byline["id"]}],
        seo={"title": "Live SEO"},
    )
    draft = services.entry_create(actor=by, collection="posts", data={"title": "Draft"})
    term_id = term["term"]["id"] if "term" in term else term["id"]
    byline_id = byline["byline"]["id"] if "byline" in byline else byline["id"]
    return World(mcp, live.id, draft.id, tool.id, writer, byline_id, term_id)


def _editor_read(world: World, ident: str) -> Any:
    result = world.mcp.call("content_get", {"collection": "posts", "id": ident})
    text = result["content"][0]["text"]
    return (True, text) if result["isError"] else (False, orjson.loads(text))


def _public_read(ident: str) -> Any:
    response = Client().get(f"/_emdash/api/content/posts/{ident}")
    return response.status_code, orjson.loads(response.content)


def _publish_a_draft_edit(world: World) -> None:
    world.ok("content_update", {"collection": "posts", "id": world.live, "data": {"title": "Edited"}})


def _schedule(world: World) -> None:
    when = (datetime.now(UTC) + timedelta(days=2)).isoformat()
    world.ok("content_schedule", {"collection": "posts", "id": world.live, "scheduledAt": when})


def _restore_an_older_revision(world: World) -> None:
    _publish_a_draft_edit(world)
    world.ok("content_publish", {"collection": "posts", "id": world.live})
    first = Revision.objects.filter(entry_id=world.live, kind=Revision.KIND_PUBLISH).order_by("created_at").first()
    assert first is not None
    world.ok("revision_restore", {"revisionId": first.id})


def _translate(world: World) -> None:
    world.ok(
        "content_create",
        {"collection": "posts", "data": {"title": "Vivant"}, "locale": "fr", "translationOf": world.live},
    )


def _edit_the_translations_shared_value(world: World) -> None:
    found = world.ok("content_get", {"collection": "posts", "id": "vivant", "locale": "fr"})["item"]["id"]
    world.ok("content_update", {"collection": "posts", "id": found, "data": {"cover": None}})


def _terms_set(world: World) -> None:  # a REST-only operation (PUT .../terms/<taxonomy>)
    by = actor(world.mcp.user)
    entry_terms_set(actor=by, collection="posts", id=world.live, taxonomy="topics", terms=["b"])


def _author_byline(world: World) -> None:
    world.ok("byline_create", {"slug": "writer", "displayName": "W", "userId": world.writer.pk})


@dataclass(frozen=True)
class Write:
    """``target``: the item read ("live" or "draft"); ``public``: the public sees the change too;
    ``prepare``: done before the first read (the write undoes or completes it)."""

    do: Callable[[World], Any]
    target: str = "live"
    public: bool = True
    prepare: Callable[[World], Any] | None = None


def _live(name: str, **arguments: Any) -> Callable[[World], Any]:
    return lambda w: w.ok(name, {"collection": "posts", "id": w.live, **arguments})


def _draft(name: str, **arguments: Any) -> Callable[[World], Any]:
    return lambda w: w.ok(name, {"collection": "posts", "id": w.draft, **arguments})


WRITES: dict[str, Write] = {
    # entries
    "a draft edit of a live item": Write(_live("content_update", data={"title": "Edited"}), public=False),
    "an edit of a draft item": Write(_draft("content_update", data={"title": "Edited"}), "draft", False),
    "a publish": Write(_live("content_publish"), prepare=_publish_a_draft_edit),
    "a publish of a draft item": Write(_draft("content_publish"), "draft", False),
    "an unpublish": Write(_live("content_unpublish")),
    "a schedule": Write(_schedule),
    "an unschedule": Write(_live("content_unschedule"), prepare=_schedule),
    "a trash": Write(_live("content_delete")),
    "a restore from the trash": Write(_live("content_restore"), prepare=_live("content_delete")),
    "a draft discarded": Write(_live("content_discard_draft"), public=False, prepare=_publish_a_draft_edit),
    "a revision restored": Write(_restore_an_older_revision, public=False),
    "a live item's slug change (drafted)": Write(_live("content_update", slug="moved"), public=False),
    "a translation's shared value edited": Write(_edit_the_translations_shared_value, public=False, prepare=_translate),
    # SEO
    "a live item's SEO edit (drafted)": Write(_live("content_update", seo={"title": "New"}), public=False),
    "a draft item's SEO edit": Write(_draft("content_update", seo={"title": "New"}), "draft", False),
    "the SEO published": Write(_live("content_publish"), prepare=_live("content_update", seo={"title": "New"})),
    # terms
    "terms set with an edit": Write(_live("content_update", terms={"topics": ["a", "b"]})),
    "terms set alone": Write(_terms_set),
    "a term renamed": Write(
        lambda w: w.ok("taxonomy_update_term", {"taxonomy": "topics", "termSlug": "a", "label": "Z"})
    ),
    "a term deleted": Write(lambda w: w.ok("taxonomy_delete_term", {"taxonomy": "topics", "termSlug": "a"})),
    "a taxonomy deleted": Write(lambda w: w.ok("taxonomy_delete", {"name": "topics"})),
    # credits and bylines
    "credits replaced": Write(_live("content_update", bylines=[])),
    "a byline renamed": Write(lambda w: w.ok("byline_update", {"id": w.byline, "displayName": "Anne"})),
    "a byline deleted": Write(lambda w: w.ok("byline_delete", {"id": w.byline})),
    "the author's byline created": Write(_author_byline, "draft", False),
    "the author's user deleted (their byline unlinked)": Write(
        lambda w: w.writer.delete(), "draft", False, prepare=_author_byline
    ),
    "the author's user deleted (no byline; the item loses its author)": Write(
        lambda w: w.writer.delete(), public=False
    ),
    # media, linked items, schema
    "the image's alt text edited": Write(lambda w: w.ok("media_update", {"id": MEDIA_ID, "alt": "A whisk"})),
    "the image deleted": Write(lambda w: w.ok("media_delete", {"id": MEDIA_ID, "force": True})),
    "a referenced item renamed": Write(
        lambda w: w.ok("content_update", {"collection": "tools", "id": w.tool, "data": {"title": "Spoon"}})
    ),
    "a referenced item unpublished": Write(lambda w: w.ok("content_unpublish", {"collection": "tools", "id": w.tool})),
    "a field added": Write(
        lambda w: w.ok("schema_create_field", {"collection": "posts", "slug": "extra", "label": "X", "type": "string"})
    ),
}


@pytest.mark.parametrize("kind", list(WRITES))
def test_a_write_is_seen_by_the_next_read(world: World, settings: Any, kind: str) -> None:
    settings.EMDASH = {**settings.EMDASH, "ITEM_CACHE_ITEMS": 64, "LOCALES": ["en", "fr"]}
    write = WRITES[kind]
    ident = world.live if write.target == "live" else world.draft
    if write.prepare is not None:
        write.prepare(world)
    before = _editor_read(world, ident)
    assert _editor_read(world, ident) == before  # now from the cache
    public_before = _public_read(ident) if write.public else None
    write.do(world)
    after = _editor_read(world, ident)
    public_after = _public_read(ident) if write.public else None
    assert after != before, f"{kind}: the editor's read did not change"
    item_cache.clear()
    assert _editor_read(world, ident) == after, f"{kind}: the kept answer differs from a fresh one"
    if write.public:
        assert public_after != public_before, f"{kind}: the public read did not change"
        assert _public_read(ident) == public_after
