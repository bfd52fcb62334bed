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

from collections.abc import Callable
from typing import Any

from django.core.handlers.base import BaseHandler
from django.core.handlers.exception import convert_exception_to_response
from django.http import HttpRequest, HttpResponse
from django.urls import ResolverMatch
from django.utils.module_loading import import_string

from emdash import doors
from emdash.routing import match

Handler = Callable[[HttpRequest], Any]


class DoorHandler(BaseHandler):
    """Django's request handling under one door's middleware list instead of settings.MIDDLEWARE (sync: both
    servers run Django's WSGI handler, emdash.edge.threaded_wsgi under ASGI)."""

    def __init__(self, paths: tuple[str, ...]) -> None:
        super().__init__()
        self._view_middleware: list[Callable[..., Any]] = []
        self._template_response_middleware: list[Callable[..., Any]] = []
        self._exception_middleware: list[Callable[..., Any]] = []
        handler: Handler = convert_exception_to_response(self._get_response)  # type: ignore[attr-defined]
        for path in reversed(paths):  # as BaseHandler.load_middleware builds the site's chain
            middleware = import_string(path)(handler)
            if hasattr(middleware, "process_view"):
                self._view_middleware.insert(0, middleware.process_view)
            if hasattr(middleware, "process_template_response"):
                self._template_response_middleware.append(middleware.process_template_response)
            if hasattr(middleware, "process_exception"):
                self._exception_middleware.append(middleware.process_exception)
            handler = convert_exception_to_response(middleware)
        self._middleware_chain = handler

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
