"""API token routes: the signed-in user's personal access tokens (the secret is shown once)."""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.response import Response

from api.base import ApiView, body
from api.rules import ACCOUNT_TOKENS
from api.schema_doc import OBJECT, doc
from emdash import tokens
from emdash.dates import iso
from emdash.errors import NotFound, ValidationError
from emdash.models import PersonalAccessToken

TAGS = ["tokens"]


def _token(row: PersonalAccessToken) -> dict[str, Any]:
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


class TokenListView(ApiView):
    rules = {"GET": ACCOUNT_TOKENS, "POST": ACCOUNT_TOKENS}

    @doc("List your API tokens", tags=TAGS)
    def get(self, request: Request) -> Response:
        return Response({"items": [_token(row) for row in tokens.token_list(user=request.user)]})

    @doc(
        "Create an API token ({name, scopes, expiresDays?}); the secret is in the answer only",
        ok=201,
        body=OBJECT,
        tags=TAGS,
    )
    def post(self, request: Request) -> Response:
        a = body(request, {"name", "scopes", "expiresDays"}, required=("name", "scopes"))
        scopes = a["scopes"]
        if not isinstance(scopes, str) and not (isinstance(scopes, list) and all(isinstance(s, str) for s in scopes)):
            raise ValidationError.for_fields({"scopes": "must be a list of scope names"})
        issued = tokens.token_create(
            user=request.user, name=a["name"], scopes=scopes, expires_days=a.get("expiresDays")
        )
        return Response({"token": _token(issued.token), "secret": issued.raw}, status=201)


class TokenDetailView(ApiView):
    rules = {"DELETE": ACCOUNT_TOKENS}

    @doc("Revoke one of your API tokens", tags=TAGS)
    def delete(self, request: Request, token_id: str) -> Response:
        if not token_id.isdigit() or len(token_id) > 18:
            raise NotFound("No such token")
        tokens.token_revoke(user=request.user, token_id=int(token_id))
        return Response({"revoked": True})
