"""HTTP caching of the public pages: validators from the change stamps, 304 before rendering, public headers.

A page shows published content, menus and settings only, so its ETag is the path plus the stamps of those
three scopes (content/stamps.py), read in one query that the menus and settings caches then reuse for the rest
of the request. A matching If-None-Match (or If-Modified-Since) gets its 304 before the view runs. Visitors
without a session cookie get ``public`` responses with surrogate keys (the view names what it showed in
``request.surrogate_keys``); a visitor carrying a session gets the same page marked ``private``. The session is
never read here, so no ``Vary: Cookie`` comes with a public page.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.urls import ResolverMatch

from content import stamps
from emdash import http_cache
from emdash.http_cache import SETTINGS_KEY, Validators, menu_key

SCOPES = ("content", "menus", "settings", "terms")
# Every page shows the site settings and the header and footer menus.
PAGE_KEYS = (SETTINGS_KEY, menu_key("primary"), menu_key("footer"))


def add_keys(request: HttpRequest, *keys: str) -> None:
    """Name what the page showed (an item, a collection's list) so a purge of it drops this page."""
    found = getattr(request, "surrogate_keys", None)
    if found is None:
        found = request.surrogate_keys = []  # type: ignore[attr-defined]
    found.extend(keys)


def page_validators(request: HttpRequest, now: stamps.Stamps) -> Validators:
    public = settings.SESSION_COOKIE_NAME not in request.COOKIES
    return Validators(
        etag=http_cache.etag("page", request.get_full_path(), now.token(*SCOPES, stamps.SCHEMA), public),
        last_modified=now.newest(*SCOPES, *(k for k in now.versions if k.startswith("content:"))),
        public=public,
    )


def _early(request: HttpRequest, match: ResolverMatch) -> Validators:
    return page_validators(request, stamps.read())


def register_early(*url_names: str) -> None:
    """Conditional GETs of these pages may be answered by EarlyNotModifiedMiddleware (public_site/urls.py)."""
    for name in url_names:
        http_cache.EARLY[name] = _early


def cached_page(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method not in ("GET", "HEAD"):
            return view(request, *args, **kwargs)
        with stamps.snapshot() as now:
            found = page_validators(request, now)
            answer = http_cache.not_modified(request, found)
            if answer is not None:
                return answer
            response = view(request, *args, **kwargs)
        if response.status_code == 200 and "Cache-Control" not in response:
            found.tags = [*PAGE_KEYS, *getattr(request, "surrogate_keys", [])]
            http_cache.apply(response, found)
        return response

    return wrapper
