"""The per-process cache of content_get answers (content/entries/item_cache.py) never hands an answer to a caller
who could not have read it: every reader gets, after an admin filled the cache, exactly what they get with the
cache off; a refused or revoked caller stays refused. The cache is bounded (least recently used out first)."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from django.test import Client

from accounts.tokens import token_revoke
from content.entries import item_cache, services
from emdash.roles import Role
from tests.factories import actor
from tests.mcp.conftest import MCP, MakeMCP, fast_user

READERS: dict[str, tuple[Role, Any]] = {
    "another author": (Role.AUTHOR, ["content:read", "content:write"]),
    "a contributor": (Role.CONTRIBUTOR, ["content:read"]),
    "a subscriber": (Role.SUBSCRIBER, ["content:read"]),
    "an admin's token without content:read": (Role.ADMIN, ["media:read"]),
}


@pytest.fixture
def items(posts: Any, settings: Any) -> dict[str, str]:
    """A draft and a published item with a pending draft, both by one author."""
    settings.EMDASH = {**settings.EMDASH, "ITEM_CACHE_ITEMS": 64}
    by = actor(fast_user(Role.AUTHOR))
    draft = services.entry_create(actor=by, collection="posts", data={"title": "Secret draft"})
    live = services.entry_create(actor=by, collection="posts", data={"title": "Live"}, status="published")
    services.entry_update(actor=by, collection="posts", id=live.id, data={"title": "Pending change"})
    return {"draft": draft.id, "live": live.id}


def _read(client: MCP, ident: str) -> Any:
    """(refused, what the caller got): a tool error or an HTTP refusal (a token without the scope) counts."""
    params = {"name": "content_get", "arguments": {"collection": "posts", "id": ident}}
    response = client.post({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})
    if response.status_code != 200:
        return True, response.content.decode()
    result = orjson.loads(response.content)["result"]
    return result["isError"], result["content"][0]["text"]


def _public(ident: str) -> Any:
    response = Client().get(f"/_emdash/api/content/posts/{ident}")
    return response.status_code, orjson.loads(response.content)


def _uncached(settings: Any, read: Any) -> Any:
    settings.EMDASH = {**settings.EMDASH, "ITEM_CACHE_ITEMS": 0}
    item_cache.clear()
    try:
        return read()
    finally:
        settings.EMDASH = {**settings.EMDASH, "ITEM_CACHE_ITEMS": 64}


@pytest.mark.parametrize("reader", list(READERS))
@pytest.mark.parametrize("which", ["draft", "live"])
def test_a_reader_gets_what_they_would_without_the_cache(items, mcp, make_mcp: MakeMCP, settings, reader, which):
    role, scopes = READERS[reader]
    other = make_mcp(role, scopes)
    ident = items[which]
    _read(mcp, ident)  # the admin fills the cache (drafts shown)
    assert item_cache.size() == 1
    cached = _read(other, ident)
    assert cached == _uncached(settings, lambda: _read(other, ident))
    if reader in ("a subscriber", "an admin's token without content:read"):
        assert cached[0] is True or "Pending change" not in cached[1]


def test_the_public_never_sees_a_draft_an_editor_read(items, mcp, settings):
    for ident in items.values():
        _read(mcp, ident)
    status, body = _public(items["draft"])
    assert status == 404 and "Secret" not in orjson.dumps(body).decode()
    status, body = _public(items["live"])
    assert status == 200 and "Pending change" not in orjson.dumps(body).decode()
    assert "liveData" not in body["item"] and "hasDraft" not in body["item"]
    assert (status, body) == _uncached(settings, lambda: _public(items["live"]))


def test_an_editors_answer_keeps_the_draft_after_the_public_read_first(items, mcp):
    _public(items["live"])
    failed, text = _read(mcp, items["live"])
    assert not failed and orjson.loads(text)["item"]["data"]["title"] == "Pending change"


def test_a_revoked_token_is_refused_although_its_answer_is_kept(items, mcp):
    assert not _read(mcp, items["live"])[0]
    token_revoke(user=mcp.user, token_id=mcp.issued.token.pk)
    response = mcp.post({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "content_get"}})
    assert response.status_code == 401


def test_the_cache_keeps_the_most_recently_used_answers(posts, mcp, settings):
    settings.EMDASH = {**settings.EMDASH, "ITEM_CACHE_ITEMS": 2}
    ids = [
        services.entry_create(actor=actor(mcp.user), collection="posts", data={"title": f"T{n}"}).id for n in range(3)
    ]
    for ident in (ids[0], ids[1], ids[0], ids[2]):  # ids[1] is the least recently used when ids[2] comes
        _read(mcp, ident)
    assert item_cache.size() == 2
    kept = {key[1] for key in item_cache._items}
    assert kept == {ids[0], ids[2]}


def test_an_answer_changed_by_the_door_leaves_the_kept_one_alone(items, mcp):
    first = _read(mcp, items["live"])
    payload = item_cache.get(  # what the operation's presenter receives: a copy each time
        actor(mcp.user), "posts", items["live"], None, (None, False), lambda: {}
    )
    assert isinstance(payload, item_cache.Presented)
    payload.payload()["item"]["data"]["title"] = "Changed"
    assert _read(mcp, items["live"]) == first


def test_a_write_on_another_connection_is_seen_by_the_next_read(items, mcp):
    """Another thread has its own database connection, as another process would: its committed write moves the
    stamps this process's cache checks."""
    import threading

    from django.db import connection

    first = _read(mcp, items["live"])

    def write() -> None:
        try:
            services.entry_publish(actor=actor(mcp.user), collection="posts", id=items["live"])
        finally:
            connection.close()

    thread = threading.Thread(target=write)
    thread.start()
    thread.join()
    failed, text = _read(mcp, items["live"])
    assert not failed and (failed, text) != first
    assert orjson.loads(text)["item"]["hasDraft"] is False


def test_a_read_by_slug_follows_a_new_draft_taking_the_slug_in_the_default_locale(posts, mcp, settings):
    """By slug, the default locale's row is preferred even as a draft (the public then gets NOT_FOUND); creating
    that draft moves only the drafts stamp, which reads by slug check too."""
    settings.EMDASH = {**settings.EMDASH, "ITEM_CACHE_ITEMS": 64, "LOCALES": ["en", "fr"]}
    by = actor(mcp.user)
    services.entry_create(
        actor=by, collection="posts", data={"title": "Bonjour"}, slug="hi", locale="fr", status="published"
    )
    first = _public("hi")
    assert first[0] == 200 and _public("hi") == first
    services.entry_create(actor=by, collection="posts", data={"title": "Hello"}, slug="hi", locale="en")
    assert _public("hi") == _uncached(settings, lambda: _public("hi")) != first


def test_the_cache_is_bounded_by_size_too(posts, mcp, settings, monkeypatch):
    settings.EMDASH = {**settings.EMDASH, "ITEM_CACHE_ITEMS": 64}
    by = actor(mcp.user)
    small = services.entry_create(actor=by, collection="posts", data={"title": "Short"})
    long = services.entry_create(actor=by, collection="posts", data={"title": "Long", "excerpt": "x" * 5000})
    other = services.entry_create(actor=by, collection="posts", data={"title": "Other"})
    monkeypatch.setattr(item_cache, "MAX_ANSWER", 2000)
    for ident in (small.id, long.id):
        assert not _read(mcp, ident)[0]
    assert {key[1] for key in item_cache._items} == {small.id}  # the long answer is built every time
    monkeypatch.setattr(item_cache, "MAX_BYTES", item_cache._bytes + 100)  # room for one answer of that size
    _read(mcp, other.id)
    assert {key[1] for key in item_cache._items} == {other.id}  # the least recently used made room
    assert item_cache._bytes == sum(len(encoded) for _, encoded in item_cache._items.values())
