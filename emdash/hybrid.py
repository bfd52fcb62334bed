"""A middleware base that runs in a sync or an async chain without a thread hop (Django calls it "hybrid")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponse


class HybridMiddleware:
    """Subclasses write ``sync(request)`` and ``async_(request)``; the chain's own mode picks one per request, so
    an ASGI server never pays ``sync_to_async`` for these edge steps."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.async_mode = iscoroutinefunction(get_response)
        if self.async_mode:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        return self.async_(request) if self.async_mode else self.sync(request)

    def sync(self, request: HttpRequest) -> HttpResponse:
        raise NotImplementedError

    async def async_(self, request: HttpRequest) -> HttpResponse:
        raise NotImplementedError
