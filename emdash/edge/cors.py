"""CORS through django-cors-headers, with the two policies the API needs.

- The API routes (MCP, REST, userinfo) answer browsers from allowed origins only (same origin, EMDASH_SITE_URL,
  EMDASH_ALLOWED_ORIGINS, loopback in DEBUG: ``accounts.auth.origin_allowed``), with credentials, and a preflight
  from any other origin gets 403.
- The OAuth endpoints public clients call from browsers (token, revocation, registration, device code) and the
  discovery documents read no cookies: any origin, without credentials (``*``).
"""

from __future__ import annotations

import re
from typing import Any

from corsheaders import middleware as cors
from corsheaders.signals import check_request_enabled
from django.conf import settings
from django.dispatch import receiver
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.utils.cache import patch_vary_headers

from accounts.auth import origin_allowed
from accounts.oauth import metadata

_PUBLIC = (metadata.TOKEN_PATH, metadata.REVOKE_PATH, metadata.REGISTER_PATH, metadata.DEVICE_CODE_PATH)
PUBLIC_PATHS = re.compile(r"^/\.well-known/oauth-|^(" + "|".join(re.escape(p) for p in _PUBLIC) + ")$")


def _public(request: HttpRequest) -> bool:
    return bool(PUBLIC_PATHS.match(request.path_info))


@receiver(check_request_enabled)
def _allowed_api_origin(sender: Any, request: HttpRequest, **kwargs: Any) -> bool:
    """The per-request origin rule (it depends on the request's own origin and on DEBUG), API routes only."""
    origin = request.headers.get("origin")
    return bool(origin and re.match(settings.CORS_URLS_REGEX, request.path_info) and origin_allowed(request, origin))


class CorsMiddleware(cors.CorsMiddleware):
    def is_enabled(self, request: HttpRequest) -> bool:
        return _public(request) or bool(re.match(settings.CORS_URLS_REGEX, request.path_info))

    def check_preflight(self, request: HttpRequest) -> HttpResponseBase | None:
        response = super().check_preflight(request)
        if response is not None and not _public(request) and not self.check_signal(request):
            response.status_code = 403  # a clear refusal, not a bare 200 without CORS headers
        return response

    def add_response_headers(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if not _public(request):
            if "HTTP_ORIGIN" in request.META:
                return super().add_response_headers(request, response)
            # Not a browser's cross-origin call (the common case: MCP clients, curl): only the Vary header,
            # without building request.headers from the whole environ as the base class does to find no Origin.
            enabled = getattr(request, "_cors_enabled", None)  # set by check_preflight
            if enabled or (enabled is None and self.is_enabled(request)):
                patch_vary_headers(response, ("origin",))
            return response
        response[cors.ACCESS_CONTROL_ALLOW_ORIGIN] = "*"
        if request.method == "OPTIONS":
            response[cors.ACCESS_CONTROL_ALLOW_METHODS] = "GET, POST, OPTIONS"
            response[cors.ACCESS_CONTROL_ALLOW_HEADERS] = "Content-Type, Authorization"
            response[cors.ACCESS_CONTROL_MAX_AGE] = str(settings.CORS_PREFLIGHT_MAX_AGE)
        return response
