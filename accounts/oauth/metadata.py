"""Authorization server metadata (RFC 8414): the one place that names the OAuth endpoints' paths."""

from __future__ import annotations

from typing import Any

from emdash import scopes

# Kept free of Django imports: the CLI reads these paths too.
DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"
AUTH_CODE_GRANT = "authorization_code"
REFRESH_GRANT = "refresh_token"
CLI_CLIENT_ID = "emdash-cli"
MCP_PATH = "/_emdash/api/mcp"
ISSUER_PATH = "/_emdash"
AUTHORIZE_PATH = "/_emdash/oauth/authorize"
TOKEN_PATH = "/_emdash/api/oauth/token"
REGISTER_PATH = "/_emdash/api/oauth/register"
REVOKE_PATH = "/_emdash/api/oauth/token/revoke"
DEVICE_CODE_PATH = "/_emdash/api/oauth/device/code"
DEVICE_PAGE_PATH = "/_emdash/admin/device"
USERINFO_PATH = "/_emdash/api/oauth/userinfo"
LOGIN_PATH = "/_emdash/admin/login/"


def authorization_server(origin: str) -> dict[str, Any]:
    return {
        "issuer": origin + ISSUER_PATH,
        "authorization_endpoint": origin + AUTHORIZE_PATH,
        "token_endpoint": origin + TOKEN_PATH,
        "registration_endpoint": origin + REGISTER_PATH,
        "revocation_endpoint": origin + REVOKE_PATH,
        "device_authorization_endpoint": origin + DEVICE_CODE_PATH,
        "userinfo_endpoint": origin + USERINFO_PATH,
        "response_types_supported": ["code"],
        "response_modes_supported": ["query"],
        "grant_types_supported": [AUTH_CODE_GRANT, REFRESH_GRANT, DEVICE_GRANT],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none"],
        "revocation_endpoint_auth_methods_supported": ["none"],
        "scopes_supported": list(scopes.ALL),
        "authorization_response_iss_parameter_supported": True,
    }
