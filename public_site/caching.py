"""HTTP caching of the public pages and files: validators from the change stamps, 304 before rendering.

A page shows published content, menus, settings, terms and bylines only, so its ETag is the path plus the stamps
of those scopes (content/stamps.py), read in one query that the menus and settings caches then reuse for the
rest of the request; robots.txt, the sitemap and the feed name the fewer scopes they show (``PAGES``). A
matching If-None-Match (or If-Modified-Since) gets its 304 before the view runs. Visitors without a session
cookie get ``public`` responses with surrogate keys (the view names what it showed in ``request.surrogate_keys``);
a visitor carrying a session gets the same page marked ``private``. The session is never read here, so no
``Vary: Cookie`` comes with a public page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.urls import ResolverMatch

from content import stamps
from emdash import http_cache
from emdash.http_cache import CONTENT_KEY, SETTINGS_KEY, TAXONOMIES_KEY, Validators, collection_key, menu_key

FEED_COLLECTION = "posts"  # the collection feed.xml lists (public_site/feeds.py)
SCOPES = ("content", "menus", "settings", "terms", "taxonomies", "bylines")
# Every page shows the site settings and the header and footer menus.
PAGE_KEYS = (SETTINGS_KEY, menu_key("primary"), menu_key("footer"))


@dataclass(frozen=True)
class Page:
    """What a cached page's body depends on (stamp scopes) and the surrogate keys every answer of it carries
    (a view adds what it showed with :func:`add_keys`)."""

    scopes: tuple[str, ...] = SCOPES
    keys: tuple[str, ...] = PAGE_KEYS


# url name -> its Page: one table for the views' decorator and EarlyNotModifiedMiddleware (public_site/urls.py).
PAGES: dict[str, Page] = {
    "home": Page(),
    "site-search": Page(),
    "site-collection": Page(),
    "entry": Page(),
    "site-robots": Page(("settings",), (SETTINGS_KEY,)),  # the origin comes from the settings' url
    "site-sitemap": Page(("content", "terms", "taxonomies", "settings"), (SETTINGS_KEY, CONTENT_KEY, TAXONOMIES_KEY)),
    "site-feed": Page(  # items with their credits and their terms' labels (<category>)
        (stamps.public(FEED_COLLECTION), "settings", "bylines", "terms", "taxonomies"),
        (SETTINGS_KEY, collection_key(FEED_COLLECTION), TAXONOMIES_KEY),
    ),
}


def add_keys(request: HttpRequest, *keys: str) -> None:
    """Name what the page showed (an item, a collection's list) so a purge of it drops this page."""
    found = getattr(request, "surrogate_keys", None)
    if found is None:
        found = request.surrogate_keys = []  # type: ignore[attr-defined]
    found.extend(keys)


def page_validators(request: HttpRequest, now: stamps.Stamps, page: Page | None = None) -> Validators:
    public = settings.SESSION_COOKIE_NAME not in request.COOKIES
    scopes = (page or Page()).scopes
    return Validators(
        etag=http_cache.etag("page", request.get_full_path(), now.token(*scopes, stamps.SCHEMA), public),
        last_modified=now.newest(*scopes),
        public=public,
    )


def _early(request: HttpRequest, match: ResolverMatch) -> Validators:
    return page_validators(request, stamps.read(), PAGES[match.url_name or ""])


def register_early() -> None:
    """Conditional GETs of the PAGES may be answered by EarlyNotModifiedMiddleware (public_site/urls.py)."""
    for name in PAGES:
        http_cache.EARLY[name] = _early


def cached_page(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """Validators and a 304 before ``view`` runs, cache headers after: the URL's entry in PAGES says what from."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method not in ("GET", "HEAD"):
            return view(request, *args, **kwargs)
        match = request.resolver_match
        page = PAGES[match.url_name or ""] if match is not None else Page()
        with stamps.snapshot() as now:
            found = page_validators(request, now, page)
            answer = http_cache.not_modified(request, found)
            if answer is not None:
                return answer
            response = view(request, *args, **kwargs)
        if response.status_code == 200 and "Cache-Control" not in response:
            found.tags = [*page.keys, *getattr(request, "surrogate_keys", [])]
            http_cache.apply(response, found)
        return response

    return wrapper
