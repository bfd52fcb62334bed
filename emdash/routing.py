"""URL resolution kept per path: Django walks the URL conf's patterns in order on every request.

With the operation table's REST routes and the public site's pages last, one ``resolve`` cost 0.1-0.3 ms here, as
much as a 304's validators. The match of a path is kept per resolver (a changed URL conf, ``clear_url_caches`` in
tests, builds a new resolver, so an old match is never used for it); 404s are kept too, so a flood of unknown paths
costs each one walk at most once in a while (the table is bounded).
"""

from __future__ import annotations

import functools

from django.urls import Resolver404, ResolverMatch, URLResolver, get_resolver, get_urlconf

PATHS_KEPT = 2048


@functools.lru_cache(maxsize=PATHS_KEPT)
def _resolved(resolver: URLResolver, path: str) -> ResolverMatch | None:
    try:
        return resolver.resolve(path)
    except Resolver404:
        return None


def match(path: str) -> ResolverMatch | None:
    """``path`` resolved against the URL conf in effect (the site's), None where nothing matches."""
    return _resolved(get_resolver(get_urlconf()), path)
