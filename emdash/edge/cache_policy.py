"""The caching rule of responses that set none: anything answered to a credential or a session, a write, an error
or a response setting a cookie is ``private, no-store`` (docs/caching.md, "Headers").

Reads that may be kept set their own ``Cache-Control`` (``emdash.http_cache.apply``, media, the health probe) and
are left alone. Without a header a shared cache applies its defaults: Varnish and Fastly keep a 404 or an
uncredentialed 200 for minutes, which would keep a draft's 404 after it is published (an error carries no surrogate
key to purge) or an admin page for whoever sends the same cookie.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase

from emdash.hybrid import HybridMiddleware

NO_STORE = "private, no-store"


def settle(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    """Mark ``response`` ``private, no-store`` when it has no rule of its own and must not be shared."""
    if "Cache-Control" in response:
        return response
    if (
        response.status_code >= 400
        or request.method not in ("GET", "HEAD")
        or "HTTP_AUTHORIZATION" in request.META
        or response.cookies
        or settings.SESSION_COOKIE_NAME in request.COOKIES
    ):
        response["Cache-Control"] = NO_STORE
    return response


class CachePolicyMiddleware(HybridMiddleware):
    """Near the top of every chain (after the trace), so the edge's own refusals (host, body size) get it too."""

    def sync(self, request: HttpRequest) -> HttpResponse:
        return settle(request, self.get_response(request))  # type: ignore[return-value]

    async def async_(self, request: HttpRequest) -> HttpResponse:
        return settle(request, await self.get_response(request))  # type: ignore[return-value]
