"""Redirects: a 301 from a local path that no longer answers to another local path.

Publishing a new slug for a published item records one (``record_move``); editors add and remove others.
Chains are collapsed when written (A→B then B→C stores A→C), a path that becomes a live URL again loses its
redirect, and a redirect that would loop is refused, so serving one is a single lookup. A redirect that names an
item (a recorded move, an imported item's old permalink) answers only while that item is published: a draft's or
a private post's old link must not tell visitors its new slug, so it is a 404 as if no redirect existed.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit

from django.db import IntegrityError, transaction

from content.links import entry_path
from content.models import Redirect
from content.schema import specs as schema
from emdash import cursors
from emdash.actor import Actor
from emdash.dates import iso
from emdash.errors import Conflict, NotFound, ValidationError
from emdash.ids import new_id
from emdash.permissions import Perm, require
from emdash.text import has_bad_chars
from emdash.wire import attrs

SOURCE_MAX = 500
TARGET_MAX = 2048
# The admin, the API and MCP live here: a redirect must never shadow them.
RESERVED_PREFIX = "/_emdash/"
_BAD = {"Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp"}


def path_problem(value: Any, *, source: bool) -> str | None:
    """What is wrong with ``value`` as a redirect path: only this site's paths (``/old-page/``), never a
    scheme, a host, ``//host`` or ``/\\host`` (browsers read both as another site)."""
    limit = SOURCE_MAX if source else TARGET_MAX
    if not isinstance(value, str) or not value.startswith("/"):
        return "must be a path on this site starting with / (e.g. /posts/old-slug/)"
    if len(value) > limit:
        return f"must be at most {limit} characters"
    if any(ch.isspace() or unicodedata.category(ch) in _BAD for ch in value):
        return "must not contain spaces, control or invisible characters (encode spaces as %20)"
    if value.startswith("//") or "\\" in value:
        return "must be a path on this site: no //host and no backslashes"
    parts = urlsplit(value)
    if parts.scheme or parts.netloc:
        return "must be a path on this site, without scheme or host"
    if source and (parts.fragment or "#" in value):
        return "must be a path without #fragment"
    if source and value.count("?") > 1:
        return "must have at most one ?query (e.g. /?p=12)"
    if source:
        # As a server behind a proxy sees it: %-escapes decoded, dot segments resolved by the proxy or browser.
        plain = unquote(parts.path)
        if any(segment in (".", "..") for segment in plain.split("/")):
            return "must not contain . or .. segments (write the path as a browser sends it)"
        if (plain + "/").startswith(RESERVED_PREFIX):
            return f"must not be under {RESERVED_PREFIX} (the admin and the APIs)"
    return None


PERCENT_ESCAPE_RE = re.compile(r"%[0-9a-fA-F]{2}")


def normalize_source(value: str) -> str:
    """A source as stored and looked up: the path, and its ``?query`` (if any) with the parameters sorted, so
    ``/?b=2&a=1`` and ``/?a=1&b=2`` are one source. Old WordPress links (``/?p=12``, ``/?page_id=7``) are
    query sources. %-escapes are upper case (RFC 3986's normal form, what a request's path re-encodes to):
    WordPress writes non-Latin permalinks in lower case."""
    path, _, query = value.partition("?")
    path = PERCENT_ESCAPE_RE.sub(lambda m: m.group(0).upper(), path)
    if not query:
        return path
    return f"{path}?{urlencode(sorted(parse_qsl(query, keep_blank_values=True)))}"


QUERY_PARAMS_MAX = 10  # parameters of a request looked at one by one (a longer query is matched whole only)


def resolve_query(path: str, query: str) -> str | None:
    """The target of a query source matching this request: the whole query first, else any one of its
    parameters alone (``/?p=12&utm_source=x`` still finds ``/?p=12``). One indexed query."""
    if not query or len(path) + len(query) >= SOURCE_MAX or has_bad_chars(path):
        return None
    pairs = parse_qsl(query, keep_blank_values=True)
    if any(has_bad_chars(key) or has_bad_chars(value) for key, value in pairs):
        return None
    candidates = [normalize_source(f"{path}?{query}")]
    candidates += [f"{path}?{urlencode([pair])}" for pair in pairs[:QUERY_PARAMS_MAX]]
    rows = Redirect.objects.filter(source__in=set(candidates)).values_list("source", "target", "collection", "entry_id")
    found = {source: (target, collection, entry_id) for source, target, collection, entry_id in rows}
    return next((_answer(*found[c]) for c in candidates if c in found), None)


def _answer(target: str, collection: str, entry_id: str) -> str | None:
    """``target``, unless the redirect names an item the public cannot see (one more indexed query for those)."""
    if not (collection and entry_id):
        return target
    spec = schema.current().collections.get(collection)
    if spec is None:
        return None
    live = spec.model.objects.filter(pk=entry_id, status="published", deleted_at__isnull=True)
    return target if live.exists() else None


def _present(r: Redirect) -> dict[str, Any]:
    return {
        **attrs(r, "id", "source", "target", "kind"),
        "collection": r.collection or None,
        "entryId": r.entry_id or None,
        "createdAt": iso(r.created_at),
    }


def _path(url: str) -> str:
    return url.split("#", 1)[0].split("?", 1)[0]


def _final(target: str, source: str) -> str:
    """Where ``target`` ends up after following stored redirects; VALIDATION_ERROR if that comes back to ``source``."""
    seen = {source}
    url = target
    while _path(url) not in seen:
        seen.add(_path(url))
        following = Redirect.objects.filter(source=_path(url)).values_list("target", flat=True).first()
        if following is None:
            return url
        url = following
    raise ValidationError.for_fields({"target": f"would loop back to {source}"})


def _store(source: str, target: str, *, kind: str, actor: Actor, collection: str = "", entry_id: str = "") -> Redirect:
    final = _final(target, source)
    # Everything that pointed at the old path now goes straight to the new one (no chains).
    Redirect.objects.filter(target=source).update(target=final)
    Redirect.objects.filter(source=source).delete()
    return Redirect.objects.create(
        id=new_id(),
        source=source,
        target=final,
        kind=kind,
        collection=collection,
        entry_id=entry_id,
        created_by_id=actor.user_id,
    )


def record_move(collection: str, entry_id: str, old_slug: str, new_slug: str, actor: Actor) -> None:
    """A published item's URL changed: send the old path to the new one. The new path is live now, so a
    redirect away from it is dropped first (renaming back A→B→A leaves only B→A)."""
    old, new = entry_path(collection, old_slug), entry_path(collection, new_slug)
    if old == new:
        return
    Redirect.objects.filter(source=new).delete()
    _store(old, new, kind=Redirect.KIND_AUTO, actor=actor, collection=collection, entry_id=entry_id)


def forget_moves(collection: str, entry_id: str) -> None:
    """A deleted item's recorded moves lead nowhere now; manual redirects stay (an editor chose them)."""
    Redirect.objects.filter(kind=Redirect.KIND_AUTO, collection=collection, entry_id=entry_id).delete()


def resolve(path: str) -> str | None:
    """The target of a redirect from ``path``, for the public site (which asks only when nothing else answered)."""
    # No source holds NUL or a lone surrogate (path_problem refuses them), and PostgreSQL cannot even compare one:
    # a 404 for such a path is answered before the input guard, which sees only paths that name a view.
    if len(path) > SOURCE_MAX or has_bad_chars(path):
        return None
    found = Redirect.objects.filter(source=path).values_list("target", "collection", "entry_id").first()
    return _answer(*found) if found is not None else None


# --- the operations' services ------------------------------------------------------------------------------


def redirect_list(*, actor: Actor, limit: int = 50, cursor: str | None = None) -> dict[str, Any]:
    """Redirects by source path, ``{items, nextCursor?}``."""
    require(actor, Perm.REDIRECTS_READ)
    qs = Redirect.objects.order_by("source")
    if cursor is not None:
        qs = qs.filter(source__gt=cursors.decode(cursor, "redirects")[0])
    found = list(qs[: limit + 1])
    body: dict[str, Any] = {"items": [_present(r) for r in found[:limit]]}
    if len(found) > limit:
        body["nextCursor"] = cursors.encode("redirects", [found[limit - 1].source])
    return body


def redirect_create(
    *, actor: Actor, source: str, target: str, collection: str = "", entry_id: str = ""
) -> dict[str, Any]:
    """A manual redirect; an importer names the item it leads to (``collection``, ``entry_id``), so that it answers
    only while the item is published."""
    require(actor, Perm.REDIRECTS_MANAGE)
    problems = {
        name: problem
        for name, value in (("source", source), ("target", target))
        if (problem := path_problem(value, source=name == "source")) is not None
    }
    if problems:
        raise ValidationError.for_fields(problems)
    source = normalize_source(source)
    if source == target:
        raise ValidationError.for_fields({"target": "must differ from source"})
    with transaction.atomic():
        if Redirect.objects.filter(source=source).exists():
            raise Conflict(f"A redirect from {source} already exists; delete it first")
        try:
            with transaction.atomic():
                created = _store(
                    source, target, kind=Redirect.KIND_MANUAL, actor=actor, collection=collection, entry_id=entry_id
                )
        except IntegrityError:
            raise Conflict(f"A redirect from {source} already exists; delete it first") from None
    return _present(created)


def redirect_delete(*, actor: Actor, redirect_id: str) -> None:
    require(actor, Perm.REDIRECTS_MANAGE)
    usable = isinstance(redirect_id, str) and "\x00" not in redirect_id
    deleted = Redirect.objects.filter(id=redirect_id.upper()).delete()[0] if usable else 0
    if not deleted:
        raise NotFound(f"No redirect '{redirect_id}' (redirect_list lists them)")
