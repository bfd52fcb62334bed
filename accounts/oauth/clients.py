"""OAuth clients: lookup, redirect URI rules, and dynamic registration (RFC 7591) of public clients."""

from __future__ import annotations

import secrets
from typing import Any
from urllib.parse import urlsplit

from accounts.oauth.errors import OAuthError, invalid_client
from accounts.oauth.metadata import AUTH_CODE_GRANT, CLI_CLIENT_ID, DEVICE_GRANT, REFRESH_GRANT  # noqa: F401
from accounts.oauth.models import OAuthClient

REGISTRABLE_GRANTS = {AUTH_CODE_GRANT, REFRESH_GRANT}
MAX_REDIRECT_URIS = 10
LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1"}


def get_client(client_id: str | None) -> OAuthClient:
    if not client_id:
        raise invalid_client("client_id is required")
    client = OAuthClient.objects.filter(client_id=client_id[:100]).first()
    if client is None:
        raise invalid_client("Unknown client_id")
    return client


def redirect_uri_problem(uri: Any) -> str | None:
    """Why ``uri`` cannot be a redirect URI (https, or http on a loopback host; no fragment), else None."""
    if not isinstance(uri, str) or not uri or len(uri) > 2000:
        return "must be a URL of at most 2000 characters"
    try:
        parts = urlsplit(uri)
        host = parts.hostname or ""
    except ValueError:
        return "is not a valid URL"
    if parts.fragment or "#" in uri:
        return "must not contain a fragment"
    if parts.scheme == "https" and host:
        return None
    if parts.scheme == "http" and host in LOOPBACK_HOSTS:
        return None
    return "must use https, or http on a loopback address (127.0.0.1, [::1], localhost)"


def _registration_error(description: str) -> OAuthError:
    return OAuthError("invalid_client_metadata", description)


def register_client(metadata: dict[str, Any]) -> OAuthClient:
    """Register a public client for the authorization-code grant; bad metadata changes nothing."""
    uris = metadata.get("redirect_uris")
    if not isinstance(uris, list) or not uris or len(uris) > MAX_REDIRECT_URIS:
        raise OAuthError("invalid_redirect_uri", f"redirect_uris must list 1 to {MAX_REDIRECT_URIS} URLs")
    for uri in uris:
        if problem := redirect_uri_problem(uri):
            raise OAuthError("invalid_redirect_uri", f"redirect URI {str(uri)[:200]!r} {problem}")
    method = metadata.get("token_endpoint_auth_method", "none")
    if method != "none":
        raise _registration_error("Only public clients are supported: token_endpoint_auth_method must be 'none'")
    grants = metadata.get("grant_types", [AUTH_CODE_GRANT, REFRESH_GRANT])
    if not isinstance(grants, list) or not grants or not set(grants) <= REGISTRABLE_GRANTS:
        raise _registration_error("grant_types may contain only authorization_code and refresh_token")
    responses = metadata.get("response_types", ["code"])
    if responses != ["code"]:
        raise _registration_error("response_types must be ['code']")
    name = metadata.get("client_name") or "Unnamed MCP client"
    scope = metadata.get("scope") or ""
    if not isinstance(name, str) or not isinstance(scope, str):
        raise _registration_error("client_name and scope must be strings")
    return OAuthClient.objects.create(
        client_id="ec_client_" + secrets.token_urlsafe(16),
        name=name.strip()[:200] or "Unnamed MCP client",
        redirect_uris=list(uris),
        grant_types=sorted(set(grants)),
        scope=scope[:1000],
        registered_dynamically=True,
    )


def registration_response(client: OAuthClient) -> dict[str, Any]:
    return {
        "client_id": client.client_id,
        "client_id_issued_at": int(client.created_at.timestamp()),
        "client_name": client.name,
        "redirect_uris": client.redirect_uris,
        "grant_types": client.grant_types,
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
        **({"scope": client.scope} if client.scope else {}),
    }
