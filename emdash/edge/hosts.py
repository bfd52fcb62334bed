"""The one host check, at the edge, for every path (the MCP endpoint's short chain included).

Django checks ``Host`` against ``ALLOWED_HOSTS`` only when something calls ``request.get_host()``
(CommonMiddleware, CSRF...), which the MCP endpoint's own chain never did: ``Host: evil.example`` got a 200
there. Here every request is checked first and refused with a plain 400 and one log line (no traceback);
only the health probe is answered before the check, since load balancers probe by IP (SPEC 13).
"""

from __future__ import annotations

import logging

from asgiref.sync import sync_to_async
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest

from emdash.edge import health
from emdash.hybrid import HybridMiddleware

log = logging.getLogger("emdash.hosts")


def refusal(request: HttpRequest) -> HttpResponse | None:
    """The answer to give before anything else runs (health, or a 400 for a host not allowed), else None."""
    if request.path_info == health.PATH:
        return health.answer(request)
    try:
        request.get_host()
    except DisallowedHost:
        log.warning("refused a request for host %r (not in ALLOWED_HOSTS)", request.META.get("HTTP_HOST", "")[:100])
        return HttpResponseBadRequest(b"Bad Request: host not allowed\n", content_type="text/plain")
    return None


class HostMiddleware(HybridMiddleware):
    """Right after the trace id: nothing below it sees a request for a host this site does not serve."""

    def sync(self, request: HttpRequest) -> HttpResponse:
        return refusal(request) or self.get_response(request)

    async def async_(self, request: HttpRequest) -> HttpResponse:
        early = await sync_to_async(refusal)(request) if request.path_info == health.PATH else refusal(request)
        return early or await self.get_response(request)
