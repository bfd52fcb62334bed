"""The MCP endpoint's own, shorter middleware chain (issue 15: a read call's overhead).

``McpPathMiddleware`` sits right after the trace and body-limit middleware. A request for exactly the MCP path goes
through the MCP door's own chain (``emdash.doors.MCP.middleware``) straight to the view; every other request
continues down ``settings.MIDDLEWARE`` as before. The MCP chain keeps everything that guards or labels the endpoint
(security headers, session and user for the browser fallback, CORS, the rate limiter, clickjacking and CSP headers,
the NUL guard; a call with a bearer token skips the session and its user, which only a browser's cookie call
reads) and leaves out what a JSON-RPC POST never uses: static files (WhiteNoise), slash/www redirects
(CommonMiddleware: the path is exact), CSRF (the view is ``csrf_exempt``), flash messages and the site's time zone
for templates. Together they cost about as much as the floor's whole request.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse

from accounts.auth import bearer_token
from emdash import doors
from emdash.edge.chains import wrap
from mcp_endpoint.views import mcp

Handler = Callable[[HttpRequest], Any]


def chain(paths: list[str], view: Handler) -> Handler:
    """``view`` wrapped in the middleware ``paths`` (first = outermost), as Django's handler builds its own,
    including the ``process_view`` hooks (the NUL guard refuses there), called outermost first."""
    hooks: list[Callable[..., Any]] = []

    def viewing(request: HttpRequest) -> Any:
        for hook in hooks:
            response = hook(request, view, (), {})
            if response is not None:
                return response
        return view(request)

    built = wrap(paths, viewing)
    hooks.extend(built.view)
    return built.handler


class McpPathMiddleware:
    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response
        paths = list(doors.MCP.middleware or ())
        self.mcp = chain(paths, mcp)
        # A call with a bearer token: the same chain less the session and its user (about 10 us of a read call).
        self.mcp_bearer = chain([p for p in paths if p not in doors.MCP_BROWSER_MIDDLEWARE], mcp)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info == doors.MCP_PATH:
            return (self.mcp_bearer if bearer_token(request) else self.mcp)(request)
        return self.get_response(request)
