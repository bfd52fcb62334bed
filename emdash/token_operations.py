"""API tokens as operations: the signed-in user's personal access tokens (REST and admin; not MCP tools).

The rule "a token may manage tokens only with the ``admin`` scope" is ``Perm.TOKENS_MANAGE`` in the
permission table, checked by the pipeline and again by the token service, so every door enforces it.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from emdash import tokens
from emdash.dates import iso
from emdash.models import PersonalAccessToken
from emdash.operations import Input, NoInput, Route, WholeNumber, declare
from emdash.permissions import Perm

API = "_emdash/api/tokens"
DATETIME = {"type": ["string", "null"]}
TOKEN = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "name": {"type": "string"},
        "prefix": {"type": "string", "description": "The first characters of the secret, to recognise it"},
        "scopes": {"type": "array", "items": {"type": "string"}},
        "createdAt": DATETIME,
        "expiresAt": DATETIME,
        "lastUsedAt": DATETIME,
        "revoked": {"type": "boolean"},
    },
    "required": ["id", "name", "prefix", "scopes", "createdAt", "expiresAt", "lastUsedAt", "revoked"],
}


class CreateInput(Input):
    name: str = Field(description="What the token is for", min_length=1, max_length=100)
    scopes: list[str] | str = Field(
        description="Scope names (a list, or one string separated by spaces or commas), e.g. content:read"
    )
    expires_days: WholeNumber | None = Field(
        None, ge=1, le=tokens.MAX_EXPIRY_DAYS, description="Days until the token expires (default: never)"
    )


class RevokeInput(Input):
    token_id: str = Field(description="The token's id", min_length=1, max_length=20)


def present(row: PersonalAccessToken) -> dict[str, Any]:
    return {
        "id": row.pk,
        "name": row.name,
        "prefix": row.prefix,
        "scopes": list(row.scopes),
        "createdAt": iso(row.created_at),
        "expiresAt": iso(row.expires_at) if row.expires_at else None,
        "lastUsedAt": iso(row.last_used_at) if row.last_used_at else None,
        "revoked": row.revoked_at is not None,
    }


COMMON: dict[str, Any] = {"category": "account", "perm": Perm.TOKENS_MANAGE, "mcp": False}

declare(
    name="token_list",
    title="List your API tokens",
    description="Your personal access tokens, newest first (revoked ones included).",
    input=NoInput,
    service=tokens.list_own,
    present=lambda rows, args: {"items": [present(row) for row in rows]},
    output_schema={
        "type": "object",
        "properties": {"items": {"type": "array", "items": TOKEN}},
        "required": ["items"],
    },
    routes=(Route("GET", API, name="api-tokens"),),
    read_only=True,
    idempotent=True,
    **COMMON,
)
declare(
    name="token_create",
    title="Create an API token",
    description="Issue a personal access token; the secret is in this answer only.",
    input=CreateInput,
    service=tokens.create_own,
    present=lambda issued, args: {"token": present(issued.token), "secret": issued.raw},
    output_schema={
        "type": "object",
        "properties": {"token": TOKEN, "secret": {"type": "string", "description": "Shown once, never stored"}},
        "required": ["token", "secret"],
    },
    target=lambda args, payload: f"tokens/{payload['token']['id']}",
    routes=(Route("POST", API, args="body", status=201, name="api-tokens"),),
    **COMMON,
)
declare(
    name="token_revoke",
    title="Revoke an API token",
    description="Revoke one of your personal access tokens.",
    input=RevokeInput,
    service=tokens.revoke_own,
    present=lambda result, args: {"revoked": True},
    output_schema={"type": "object", "properties": {"revoked": {"type": "boolean"}}, "required": ["revoked"]},
    target=lambda args, payload: f"tokens/{args.token_id}",
    routes=(Route("DELETE", f"{API}/<str:token_id>", name="api-token"),),
    idempotent=True,
    **COMMON,
)
