"""REST reads whose answer moves only with change stamps: menus, settings, taxonomies, bylines, an item's terms and
translations. One table says, per operation, which stamp scopes its answer shows and which surrogate keys it
carries; content/caching.py serves their validators like the content reads' (a 304 before the operation runs).

The ETag is the operation, its path values (a menu's name), the scopes' stamps, whether the caller sees drafts,
the schema version and the query string, so it moves with every write that could change the answer (the writes
raise these scopes: menus/services.py, settings_app/services.py, taxonomy/, bylines/services.py, content
signals). Nothing here decides access: a caller without the operation's permission gets no validators and the
operation's own refusal, and ``If-None-Match: *`` on a named read is left to the operation (which 404s when the
thing does not exist).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from content import stamps
from content.schema import specs as schema
from emdash.actor import Actor
from emdash.http_cache import (
    BYLINES_KEY,
    CONTENT_KEY,
    MENUS_KEY,
    SETTINGS_KEY,
    TAXONOMIES_KEY,
    Validators,
    collection_key,
    etag,
    menu_key,
)
from emdash.operations import TABLE
from emdash.operations.record import path_params
from emdash.permissions import Perm, can

Keys = Callable[[Mapping[str, Any]], list[str]]


def _fixed(*keys: str) -> Keys:
    return lambda raw: list(keys)


@dataclass(frozen=True)
class StampedRead:
    """``scopes``: the stamps the answer shows; ``collection``: it also shows the item(s) of the collection named
    by the ``collection`` argument (the public scope, and the drafts scope for callers who see drafts)."""

    scopes: tuple[str, ...]
    keys: Keys = field(default=_fixed())
    collection: bool = False


def _menu(raw: Mapping[str, Any]) -> list[str]:
    # A menu's links resolve to published items' URLs: content changes purge it too.
    return [menu_key(str(raw.get("name"))), CONTENT_KEY]


def _collection(raw: Mapping[str, Any]) -> list[str]:
    return [collection_key(str(raw.get("collection")))]


MENU_SCOPES = ("menus", "content", "terms")  # as public_site/query.py's menu cache
TERM_SCOPES = ("taxonomies", "terms")

# operation name -> what its answer shows. The one table of these reads' stamps and keys.
READS: dict[str, StampedRead] = {
    "menu_list": StampedRead(("menus",), _fixed(MENUS_KEY)),
    "menu_get": StampedRead(MENU_SCOPES, _menu),
    "menu_translations": StampedRead(("menus",), _menu),
    "settings_get": StampedRead(("settings",), _fixed(SETTINGS_KEY)),
    "taxonomy_list": StampedRead(("taxonomies",), _fixed(TAXONOMIES_KEY)),
    "taxonomy_get": StampedRead(("taxonomies",), _fixed(TAXONOMIES_KEY)),
    "taxonomy_list_terms": StampedRead(TERM_SCOPES, _fixed(TAXONOMIES_KEY)),
    "taxonomy_get_term": StampedRead(TERM_SCOPES, _fixed(TAXONOMIES_KEY)),
    "taxonomy_term_translations": StampedRead(TERM_SCOPES, _fixed(TAXONOMIES_KEY)),
    "content_terms_get": StampedRead(TERM_SCOPES, _collection, collection=True),
    "content_translations": StampedRead((), _collection, collection=True),
    "byline_list": StampedRead(("bylines",), _fixed(BYLINES_KEY)),
    "byline_get": StampedRead(("bylines",), _fixed(BYLINES_KEY)),
    "byline_translations": StampedRead(("bylines",), _fixed(BYLINES_KEY)),
}


@functools.cache
def _path_fields(name: str) -> tuple[str, ...]:
    """The input fields the operation's GET route takes from its path (wire names), e.g. ``("name",)``."""
    op = TABLE[name]
    route = next(r for r in op.routes if r.method == "GET")
    fields = op.input.model_fields
    return tuple((fields[p].alias or p) if p in fields else p for p in path_params(route))


def public_reader(actor: Actor) -> bool:
    """An anonymous caller: its answers may be kept by shared caches."""
    return actor.user is None and not getattr(actor, "is_system", False)


def validators(name: str, actor: Actor, raw: Mapping[str, Any], query: str) -> Validators | None:
    """The validators of read ``name`` (one of READS) for ``actor``; None when the operation must answer."""
    read, op = READS[name], TABLE.get(name)
    if op is None or not can(actor, op.perm):
        return None
    current = schema.current()
    show_draft = can(actor, Perm.CONTENT_READ_UNPUBLISHED)
    scopes = read.scopes
    if read.collection:
        slug = raw.get("collection")
        if not isinstance(slug, str) or slug not in current.collections:
            return None  # the operation's NOT_FOUND
        scopes = (stamps.public(slug), *((stamps.drafts(slug),) if show_draft else ()), *scopes)
    now = stamps.read()
    named = [str(raw.get(f)) for f in _path_fields(name)]
    public = public_reader(actor)
    return Validators(
        etag=etag(name, *named, now.token(*scopes), show_draft, current.version, query),
        last_modified=now.newest(*scopes),
        public=public,
        tags=read.keys(raw) if public else [],
        exists=not named,
    )


def table() -> dict[str, Callable[[Actor, Mapping[str, Any], str], Validators | None]]:
    """READS as content/caching.py's VALIDATORS entries."""
    return {name: functools.partial(validators, name) for name in READS}
