"""The admin websocket's origin check: the exact origin rule of the MCP endpoint (``accounts.auth.origin_trusted``).

Channels' ``AllowedHostsOriginValidator`` compares only the Origin's host with ALLOWED_HOSTS, so a page on another
port or scheme of the same host (``http://127.0.0.1:1``) could listen with the admin's cookie. Here scheme, host
and port must match; a missing or ``null`` Origin is refused (browsers always send one on websockets).
"""

from __future__ import annotations

from typing import Any

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

from accounts.auth import origin_trusted


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def websocket_origin_allowed(scope: dict[str, Any]) -> bool:
    """Whether this websocket handshake comes from a page of a trusted origin."""
    origin, host = _header(scope, b"origin"), _header(scope, b"host")
    if not origin or not host:
        return False
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return False
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    return origin_trusted(origin, own=f"{scheme}://{host.lower()}")


class OriginValidator:
    """ASGI middleware: refuse websocket handshakes from untrusted origins (403 at the handshake)."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not websocket_origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
