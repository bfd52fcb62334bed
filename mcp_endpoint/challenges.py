"""``WWW-Authenticate`` challenges of the MCP endpoint (RFC 6750 section 3, MCP authorization 2025-11-25).

- 401 (no token, or a bad one): ``scope`` names the starting set a general-purpose client should ask for: the
  scopes of the README's example token, enough to read the schema, read and write content and read media.
  Naming every supported scope would make clients ask for admin up front; the rest is granted by step-up.
- 403 (a valid token missing a scope): ``error="insufficient_scope"`` and ``scope`` naming only the scope the
  refused call needs. Clients add it to what they already hold (the 2026-07-28 revision moved scope
  accumulation to the client, so the challenge does not repeat the token's current scopes).
"""

from __future__ import annotations

from django.http import HttpRequest

from accounts.discovery import insufficient_scope_challenge, resource_metadata_url
from emdash.scopes import Scope

STARTING_SCOPES = (Scope.CONTENT_READ, Scope.CONTENT_WRITE, Scope.MEDIA_READ, Scope.SCHEMA_READ)


def _quoted(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def unauthorized(request: HttpRequest, token_sent: bool) -> str:
    parts = [f"resource_metadata={_quoted(resource_metadata_url(request))}"]
    parts.append(f"scope={_quoted(' '.join(STARTING_SCOPES))}")
    if token_sent:
        parts += ['error="invalid_token"', 'error_description="The access token is invalid, expired or revoked"']
    return "Bearer " + ", ".join(parts)


def insufficient_scope(request: HttpRequest, scope: str) -> str:
    return insufficient_scope_challenge(request, scope)
