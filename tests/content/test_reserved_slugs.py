"""Item slugs that routes shadow (``new``, ``rows``, ``trash``) are reserved: explicit ones are refused with
RESERVED_SLUG, generated ones skip them (issue 10 item 12), on MCP and REST."""

from __future__ import annotations

import re
from typing import Any

import orjson
import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve

from accounts.tokens import token_create
from content.entries import selectors
from content.entries.slugs import RESERVED_ENTRY_SLUGS
from emdash.actor import Actor
from tests.factories import make_entry, make_user

MCP_URL = "/_emdash/api/mcp"
# Content routes only: the schema routes also name a <collection> (.../collections/<collection>/fields), but no
# item lives under them.
ITEM_POSITION = re.compile(r"content/<(?:str:)?collection>/([A-Za-z0-9_.-]+)(?:/|$)")


def _routes(patterns: list[Any], prefix: str = "") -> list[str]:
    found = []
    for p in patterns:
        if isinstance(p, URLResolver):
            found += _routes(p.url_patterns, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            found.append(prefix + str(p.pattern))
    return found


def test_every_literal_segment_in_the_item_position_is_reserved():
    """Walk the URL conf: a literal right after ``<collection>/`` would shadow an item with that slug."""
    literals = {m.group(1) for route in _routes(get_resolver().url_patterns) for m in ITEM_POSITION.finditer(route)}
    assert literals, "the walk found no content routes"
    assert literals <= RESERVED_ENTRY_SLUGS, literals - RESERVED_ENTRY_SLUGS
    # and each reserved slug really is shadowed somewhere (the list is not wider than needed)
    for slug in RESERVED_ENTRY_SLUGS:
        names = {
            resolve(f"/_emdash/admin/content/posts/{slug}/").url_name,
            resolve(f"/_emdash/api/content/posts/{slug}").url_name,
        }
        assert names - {"entry_edit", "api-content-detail"}, (slug, names)


def _mcp(user: Any, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    raw = token_create(user=user, name="t", scopes="content:read,content:write").raw
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
    response = Client().post(
        MCP_URL, orjson.dumps(body), content_type="application/json", headers={"Authorization": f"Bearer {raw}"}
    )
    assert response.status_code == 200
    return orjson.loads(response.content)["result"]


def _rest(user: Any, method: str, path: str, body: dict[str, Any]) -> Any:
    raw = token_create(user=user, name="t", scopes="content:read,content:write").raw
    return getattr(Client(), method)(
        path, orjson.dumps(body), content_type="application/json", headers={"Authorization": f"Bearer {raw}"}
    )


@pytest.mark.parametrize("slug", sorted(RESERVED_ENTRY_SLUGS))
def test_explicit_reserved_slug_is_refused_on_mcp(posts, slug):
    user = make_user("editor")
    created = _mcp(user, "content_create", {"collection": "posts", "data": {"title": "X"}, "slug": slug})
    assert created["isError"] and created["_meta"]["code"] == "RESERVED_SLUG", created
    entry = make_entry("posts")
    updated = _mcp(user, "content_update", {"collection": "posts", "id": entry.id, "slug": slug})
    assert updated["isError"] and updated["_meta"]["code"] == "RESERVED_SLUG", updated
    assert posts.model.objects.filter(slug=slug).count() == 0


@pytest.mark.parametrize("slug", sorted(RESERVED_ENTRY_SLUGS))
def test_explicit_reserved_slug_is_refused_on_rest(posts, slug):
    user = make_user("editor")
    response = _rest(user, "post", "/_emdash/api/content/posts", {"data": {"title": "X"}, "slug": slug})
    assert response.status_code == 400 and orjson.loads(response.content)["error"]["code"] == "RESERVED_SLUG"
    entry = make_entry("posts")
    response = _rest(user, "put", f"/_emdash/api/content/posts/{entry.id}", {"slug": slug})
    assert response.status_code == 400 and orjson.loads(response.content)["error"]["code"] == "RESERVED_SLUG"
    assert posts.model.objects.filter(slug=slug).count() == 0


@pytest.mark.parametrize("title", ["New", "Rows", "TRASH"])
def test_generated_slugs_skip_reserved_ones(posts, title):
    user = make_user("editor")
    item = orjson.loads(
        _mcp(user, "content_create", {"collection": "posts", "data": {"title": title}})["content"][0]["text"]
    )
    assert item["item"]["slug"] == f"{title.lower()}-2"
    response = _rest(user, "post", "/_emdash/api/content/posts", {"data": {"title": title}})
    assert orjson.loads(response.content)["item"]["slug"] == f"{title.lower()}-3"
    entry = selectors.entry_get(actor=Actor.system(), collection="posts", id=f"{title.lower()}-2")
    assert entry.to_dict()["data"]["title"] == title
