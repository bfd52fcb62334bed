"""OAuth discovery documents for MCP clients: protected resource (RFC 9728) and authorization server (RFC 8414)."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse

from accounts.auth import resource_url, site_origin
from accounts.oauth import metadata
from emdash import scopes


def resource_metadata_url(request: HttpRequest) -> str:
    return site_origin(request) + "/.well-known/oauth-protected-resource"


def _quoted(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def insufficient_scope_challenge(request: HttpRequest, scope: str) -> str:
    """``WWW-Authenticate`` of a 403 for a valid token missing ``scope`` (RFC 6750 section 3; MCP step-up
    authorization): the same on the MCP endpoint and the REST API."""
    return "Bearer " + ", ".join(
        [
            'error="insufficient_scope"',
            f"scope={_quoted(scope)}",
            f"resource_metadata={_quoted(resource_metadata_url(request))}",
            f"error_description={_quoted(f'This call needs the {scope} scope')}",
        ]
    )


def protected_resource(request: HttpRequest) -> JsonResponse:
    origin = site_origin(request)
    return JsonResponse(
        {
            "resource": resource_url(request),
            "authorization_servers": [origin + metadata.ISSUER_PATH],
            "scopes_supported": list(scopes.ALL),
            "bearer_methods_supported": ["header"],
            "resource_name": "EmDash MCP server",
        }
    )


def authorization_server(request: HttpRequest) -> JsonResponse:
    return JsonResponse(metadata.authorization_server(site_origin(request)))
