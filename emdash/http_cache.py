"""HTTP caching of reads: validators (ETag, Last-Modified), 304 answers and who may keep a response.

A read computes its validators from something cheap (an item's revision, a change stamp) *before* it builds the
body, so a conditional GET that matches costs one small query. Anonymous published reads are ``public`` with
``max-age``/``s-maxage`` (EMDASH ``HTTP_CACHE_MAX_AGE``/``HTTP_CACHE_S_MAXAGE``) and surrogate keys (``Cache-Tag``
for Cloudflare, ``Surrogate-Key`` for Fastly and Varnish xkey) that emdash/purge.py purges after a change; reads by
a signed-in user or a token, and anything showing drafts, are ``private`` and carry no keys.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.urls import ResolverMatch
from django.utils.cache import get_conditional_response
from django.utils.http import http_date

from emdash.conf import emdash_settings
from emdash.hybrid import HybridMiddleware
from emdash.routing import match


@dataclass
class Validators:
    """What a read's response is known by before it is built."""

    etag: str  # quoted, e.g. '"abc"'
    last_modified: datetime | None = None
    public: bool = False
    tags: list[str] = field(default_factory=list)
    # False when the validators were computed without looking the named thing up: ``If-None-Match: *`` ("any
    # current representation") is then left to the view, which answers 404 for a thing that does not exist.
    exists: bool = True


def etag(*parts: object) -> str:
    """A strong ETag from the parts that decide the body (revision or stamps, the query, the reader's view)."""
    digest = hashlib.blake2b("\x1f".join(str(p) for p in parts).encode(), digest_size=12).hexdigest()
    return f'"{digest}"'


def conditional_answer(request: HttpRequest, found: Validators) -> HttpResponseBase | None:
    """Django's answer to the request's conditional headers against ``found``: a bare 304 or 412, or None."""
    stamp = int(found.last_modified.timestamp()) if found.last_modified is not None else None
    return get_conditional_response(request, etag=found.etag, last_modified=stamp)


def not_modified(request: HttpRequest, found: Validators) -> HttpResponseBase | None:
    """A 304 (or 412 for a failed If-Match) when the client's copy is current, with the same cache headers."""
    if request.method not in ("GET", "HEAD"):
        return None
    if not found.exists and request.META.get("HTTP_IF_NONE_MATCH", "").strip() == "*":
        return None
    answer = conditional_answer(request, found)
    if answer is not None and answer.status_code == 412:
        # A failed If-Match answers this one request: a shared cache (its key ignores If-Match) must not keep it
        # for the URL's other visitors, so it carries the validators but no public caching and no keys.
        answer["ETag"] = found.etag
        answer["Cache-Control"] = "private, no-store"
    elif answer is not None:
        apply(answer, found)
    return answer


def apply(response: HttpResponseBase, found: Validators) -> HttpResponseBase:
    """ETag, Last-Modified, Cache-Control and, on public responses, the surrogate keys."""
    response["ETag"] = found.etag
    if found.last_modified is not None:
        response["Last-Modified"] = _http_date(int(found.last_modified.timestamp()))
    if found.public:
        max_age = int(emdash_settings.HTTP_CACHE_MAX_AGE)
        shared = int(emdash_settings.HTTP_CACHE_S_MAXAGE)
        response["Cache-Control"] = f"public, max-age={max_age}, s-maxage={shared}"
        if found.tags:
            keys = " ".join(dict.fromkeys(found.tags))
            response["Surrogate-Key"] = keys
            response["Cache-Tag"] = keys.replace(" ", ",")
        response._emdash_public = True  # type: ignore[attr-defined]  # PublicVaryMiddleware drops Vary: Cookie
        _drop_vary_cookie(response)
    else:
        response["Cache-Control"] = "private, no-cache"
    return response


@functools.lru_cache(maxsize=256)
def _http_date(stamp: int) -> str:
    # A handful of distinct change times are served over and over; formatting one costs more than its lookup.
    return http_date(stamp)


def _drop_vary_cookie(response: HttpResponseBase) -> None:
    # A public read is the same for every visitor; Vary: Cookie would split a shared cache per visitor.
    vary = [v.strip() for v in response.get("Vary", "").split(",") if v.strip()]
    kept = [v for v in vary if v.lower() != "cookie"]
    if len(kept) != len(vary):
        if kept:
            response["Vary"] = ", ".join(kept)
        else:
            del response["Vary"]


def tags(*groups: Iterable[str] | str) -> list[str]:
    out: list[str] = []
    for group in groups:
        out.extend([group] if isinstance(group, str) else group)
    return out


# Surrogate keys, one vocabulary for the REST reads, the public pages and the purger.
def item_key(entry_id: str) -> str:
    return f"item:{entry_id}"


def collection_key(collection: str) -> str:
    return f"collection:{collection}"


def menu_key(name: str) -> str:
    return f"menu:{name}"


SETTINGS_KEY = "settings"
CONTENT_KEY = "content"  # every page that may show any item (search, archives)
MENUS_KEY = "menus"  # the list of menus
TAXONOMIES_KEY = "taxonomies"  # taxonomy definitions and their terms (REST, the sitemap)
BYLINES_KEY = "bylines"  # the bylines' own reads (their credits show on items: those purge the items' keys)


class PublicVaryMiddleware(HybridMiddleware):
    """Drops ``Vary: Cookie`` from public reads. The session middleware adds it whenever authentication looked at
    the session; a read answered as ``public`` was served as to an anonymous visitor, so the cookie did not change
    it. Sits just before SessionMiddleware in MIDDLEWARE, so it sees the response after the header was added."""

    def sync(self, request: HttpRequest) -> HttpResponse:
        response: HttpResponse = self.get_response(request)
        if getattr(response, "_emdash_public", False):
            _drop_vary_cookie(response)
        return response

    async def async_(self, request: HttpRequest) -> HttpResponse:
        response: HttpResponse = await self.get_response(request)
        if getattr(response, "_emdash_public", False):
            _drop_vary_cookie(response)
        return response


# url name -> the validators of a conditional GET to it, answered at the edge (emdash.edge.conditional) or, where a
# handler has no edge (the test client), by EarlyNotModifiedMiddleware. Apps register their cacheable reads here
# when their URL conf loads: public_site's pages, api's content reads. A URL name not in this table is never
# answered early; the view still checks its own validators. A function here reads nothing of the request but its
# path match and query string (the edge keeps its 304s by those, the host, scheme and origin: emdash/edge/kept.py)
# and nothing but the database and settings.
EARLY: dict[str, Callable[[HttpRequest, ResolverMatch], Validators | None]] = {}

# Set in the WSGI environ by the edge once it has looked at a request, so the middleware does not look again.
EDGE_LOOKED = "emdash.conditional.looked"


def early_answer(request: HttpRequest) -> HttpResponseBase | None:
    """The 304 of an anonymous conditional GET whose validators still match, else None (the request goes on as
    usual and the view checks again). Never for credentials (an Authorization header, a session cookie), for
    other methods, for URLs without an EARLY entry or for reads that are not public (drafts, previews)."""
    meta = request.META
    if request.method not in ("GET", "HEAD") or not ("HTTP_IF_NONE_MATCH" in meta or "HTTP_IF_MODIFIED_SINCE" in meta):
        return None
    if "HTTP_AUTHORIZATION" in meta or settings.SESSION_COOKIE_NAME in request.COOKIES:
        return None
    found = match(request.path_info)
    validators = EARLY.get(found.url_name or "") if found is not None else None
    if found is None or validators is None:
        return None
    computed = validators(request, found)
    if computed is None or not computed.public:
        return None
    answer = not_modified(request, computed)
    return answer if answer is not None and answer.status_code == 304 else None


class EarlyNotModifiedMiddleware(HybridMiddleware):
    """Answers an anonymous conditional GET whose validators still match with its 304 near the top of the chain,
    before sessions, CSRF, authentication, rate limits and the view, when no edge looked at it first: the site's
    WSGI and ASGI applications answer these before Django's handler (emdash.edge.conditional); this serves
    handlers without that edge (Django's test client, a custom server entry point)."""

    def sync(self, request: HttpRequest) -> HttpResponse:
        if EDGE_LOOKED in request.META:
            return self.get_response(request)  # type: ignore[no-any-return]
        answer = early_answer(request)
        return answer if answer is not None else self.get_response(request)  # type: ignore[return-value]

    async def async_(self, request: HttpRequest) -> HttpResponse:
        return await self.get_response(request)  # type: ignore[no-any-return]  # validators read the database
