"""OAuth discovery documents for MCP clients: protected resource (RFC 9728) and authorization server (RFC 8414)."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse

from emdash import scopes
from emdash.auth import MCP_PATH, site_origin
from emdash.oauth import metadata


def resource_url(request: HttpRequest) -> str:
    return site_origin(request) + MCP_PATH


def resource_metadata_url(request: HttpRequest) -> str:
    return site_origin(request) + "/.well-known/oauth-protected-resource"


def protected_resource(request: HttpRequest) -> JsonResponse:
    origin = site_origin(request)
    response = JsonResponse(
        {
            "resource": origin + MCP_PATH,
            "authorization_servers": [origin + "/_emdash"],
            "scopes_supported": list(scopes.ALL),
            "bearer_methods_supported": ["header"],
            "resource_name": "EmDash MCP server",
        }
    )
    response["Access-Control-Allow-Origin"] = "*"
    return response


def authorization_server(request: HttpRequest) -> JsonResponse:
    response = JsonResponse(metadata.authorization_server(site_origin(request)))
    response["Access-Control-Allow-Origin"] = "*"
    return response
