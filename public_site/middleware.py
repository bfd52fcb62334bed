"""Redirects on the public site: a request nothing answered (404) whose path has a redirect gets a 301.

Asking only after a 404 means a live URL always wins over a redirect from the same path (an item
published again at its old slug), and pages that exist cost no lookup. Query sources are the exception: an old
WordPress link such as ``/?p=12`` names a page that answers (the home page), so a request with a query string is
looked up first (one indexed query), and a matching query source wins.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.utils.encoding import iri_to_uri

from content.redirects import services as redirects


class RedirectFallbackMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        query = request.META.get("QUERY_STRING", "")
        if query and request.method in ("GET", "HEAD") and not request.path.startswith(redirects.RESERVED_PREFIX):
            target = redirects.resolve_query(request.path, query)
            if target is not None and redirects.path_problem(target, source=False) is None:
                return HttpResponsePermanentRedirect(target)
        response = self.get_response(request)
        if response.status_code != 404 or request.method not in ("GET", "HEAD"):
            return response
        if request.path.startswith(redirects.RESERVED_PREFIX):
            return response
        target = redirects.resolve(request.path)
        if (
            target is None and (encoded := iri_to_uri(request.path)) != request.path
        ):  # a non-ASCII path, stored %-encoded
            target = redirects.resolve(encoded)
        # Stored targets are checked local paths; check again so a row written around the service never
        # sends visitors to another site.
        if target is None or redirects.path_problem(target, source=False) is not None:
            return response
        query = request.META.get("QUERY_STRING", "")
        if query and "?" not in target and "#" not in target:
            target = f"{target}?{query}"
        return HttpResponsePermanentRedirect(target)
