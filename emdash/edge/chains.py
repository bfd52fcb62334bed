"""Doors with their own, shorter middleware chain (``Door.middleware`` in emdash.doors), the MCP endpoint aside.

``DoorChainMiddleware`` sits right after the MCP endpoint's own switch (mcp_endpoint.middleware). A request for
a door that declares a chain (the REST API) leaves settings.MIDDLEWARE there and goes down that chain, then
through Django's own request handling (``BaseHandler._get_response``: URL resolution, the chain's view
middleware, the view, the exception middleware, deferred rendering); every other request continues down
settings.MIDDLEWARE as before. A door's chain lists the entries of MIDDLEWARE below this one that concern it, in
the same order (tests/edge/test_doors.py), so it guards and labels its responses as the site's chain does and
skips what it never uses (issue 27 goal 6: the REST reads' cost).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.core.handlers.base import BaseHandler
from django.core.handlers.exception import convert_exception_to_response
from django.http import HttpRequest, HttpResponse
from django.urls import ResolverMatch
from django.utils.module_loading import import_string

from emdash import doors
from emdash.routing import match

Handler = Callable[[HttpRequest], Any]


@dataclass
class Wrapped:
    """``inner`` inside a list of middleware, with the hooks Django's handler calls outside the chain."""

    handler: Handler
    view: list[Callable[..., Any]] = field(default_factory=list)  # process_view, outermost first
    template_response: list[Callable[..., Any]] = field(default_factory=list)
    exception: list[Callable[..., Any]] = field(default_factory=list)


def wrap(paths: Iterable[str], inner: Handler) -> Wrapped:
    """``inner`` wrapped in the middleware ``paths`` (first = outermost) as BaseHandler.load_middleware builds the
    site's chain; the door chains here and the MCP endpoint's (mcp_endpoint.middleware) are built by it."""
    built = Wrapped(convert_exception_to_response(inner))
    for path in reversed(list(paths)):
        middleware = import_string(path)(built.handler)
        if hasattr(middleware, "process_view"):
            built.view.insert(0, middleware.process_view)
        if hasattr(middleware, "process_template_response"):
            built.template_response.append(middleware.process_template_response)
        if hasattr(middleware, "process_exception"):
            built.exception.append(middleware.process_exception)
        built.handler = convert_exception_to_response(middleware)
    return built


class DoorHandler(BaseHandler):
    """Django's request handling under one door's middleware list instead of settings.MIDDLEWARE (sync: both
    servers run Django's WSGI handler, emdash.edge.threaded_wsgi under ASGI)."""

    def __init__(self, paths: tuple[str, ...]) -> None:
        super().__init__()
        built = wrap(paths, self._get_response)  # type: ignore[attr-defined]
        self._view_middleware = built.view
        self._template_response_middleware = built.template_response
        self._exception_middleware = built.exception
        self._middleware_chain = built.handler

    def resolve_request(self, request: HttpRequest) -> ResolverMatch:
        found = None if hasattr(request, "urlconf") else match(request.path_info)
        if found is None:
            return super().resolve_request(request)  # a per-request URL conf, or Django's own 404 (with its tries)
        request.resolver_match = found
        return found

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self._middleware_chain(request)  # type: ignore[no-any-return, misc]


class DoorChainMiddleware:
    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response
        # The MCP endpoint's chain ends in its view, not in URL resolution: mcp_endpoint.middleware serves it.
        self.chains = {
            door.name: DoorHandler(door.middleware)
            for door in doors.DOORS
            if door.middleware is not None and door is not doors.MCP
        }

    def __call__(self, request: HttpRequest) -> HttpResponse:
        chain = self.chains.get(doors.door_for(request.path_info).name)
        return chain(request) if chain is not None else self.get_response(request)  # type: ignore[no-any-return]
