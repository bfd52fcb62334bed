"""API tokens as operations: the signed-in user's personal access tokens (REST and admin; not MCP tools).

The rule "a token may manage tokens only with the ``admin`` scope" is ``Perm.TOKENS_MANAGE`` in the
permission table, checked by the pipeline and again by the token service, so every door enforces it.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from accounts import tokens
from accounts.models import PersonalAccessToken
from emdash.dates import iso
from emdash.operations import READ, Endpoint, Input, NoInput, WholeNumber, audit_as, family
from emdash.operations.shapes import BOOLEAN, INTEGER, NULLABLE_STRING, STRING, array, items_of, obj
from emdash.permissions import Perm

API = "_emdash/api/tokens"
TOKEN = obj(
    {
        "id": INTEGER,
        "name": STRING,
        "prefix": {"type": "string", "description": "The first characters of the secret, to recognise it"},
        "scopes": array(STRING),
        "createdAt": NULLABLE_STRING,
        "expiresAt": NULLABLE_STRING,
        "lastUsedAt": NULLABLE_STRING,
        "revoked": BOOLEAN,
    },
    ["id", "name", "prefix", "scopes", "createdAt", "expiresAt", "lastUsedAt", "revoked"],
)


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


TOKENS = Endpoint(API, "api-tokens")
ONE = Endpoint(f"{API}/<str:token_id>", "api-token")
CREATED = obj(
    {"token": TOKEN, "secret": {"type": "string", "description": "Shown once, never stored"}}, ["token", "secret"]
)
REVOKED = obj({"revoked": BOOLEAN}, ["revoked"])


def _listed(rows: Any, args: Any) -> dict[str, Any]:
    return {"items": [present(row) for row in rows]}


def _issued(issued: Any, args: Any) -> dict[str, Any]:
    return {"token": present(issued.token), "secret": issued.raw}


def _revoked(result: Any, args: Any) -> dict[str, Any]:
    return {"revoked": True}


tokens_op = family("account", Perm.TOKENS_MANAGE, mcp=False)

tokens_op(
    "token_list",
    "List your API tokens",
    NoInput,
    tokens.list_own,
    TOKENS.get(),
    present=_listed,
    output=items_of(TOKEN),
    **READ,
).describe("Your personal access tokens, newest first (revoked ones included).")
tokens_op(
    "token_create",
    "Create an API token",
    CreateInput,
    tokens.create_own,
    TOKENS.post(status=201),
    present=_issued,
    output=CREATED,
    target=audit_as("tokens/{payload[token][id]}"),
).describe("Issue a personal access token; the secret is in this answer only.")
tokens_op(
    "token_revoke",
    "Revoke an API token",
    RevokeInput,
    tokens.revoke_own,
    ONE.delete(),
    present=_revoked,
    output=REVOKED,
    target=audit_as("tokens/{token_id}"),
    idempotent=True,
).describe("Revoke one of your personal access tokens.")
