"""The audit log as an operation: ``GET /_emdash/api/audit`` (admins; REST only, not an MCP tool)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from audit.selectors import SOURCES, audit_page
from emdash.operations import READ, Endpoint, Input, WholeNumber, family
from emdash.operations.shapes import INTEGER, NUMBER, STRING, obj, page_of
from emdash.permissions import Perm


class AuditInput(Input):
    user: str | None = Field(
        None, alias="actor", description="User ID or email of who acted", min_length=1, max_length=254
    )
    source: Literal[SOURCES] | None = Field(  # type: ignore[valid-type]
        None, description="The door: mcp, rest, admin, worker, oauth, cli or import"
    )
    token: str | None = Field(
        None, description="A token id as the token list shows it (pat:7)", min_length=1, max_length=64
    )
    client: str | None = Field(None, description="An OAuth client_id", min_length=1, max_length=200)
    action: str | None = Field(None, description="Operation name, e.g. content_create", min_length=1, max_length=100)
    target: str | None = Field(None, description="What was acted on, e.g. posts/01J...", min_length=1, max_length=255)
    since: str | None = Field(None, description="ISO 8601 date-time: rows at or after it", min_length=1, max_length=64)
    until: str | None = Field(None, description="ISO 8601 date-time: rows before it", min_length=1, max_length=64)
    limit: WholeNumber = Field(50, ge=1, le=200, description="Rows per page (1-200, default 50)")
    cursor: str | None = Field(
        None, description="Opaque cursor from the previous page's nextCursor", min_length=1, max_length=2048
    )


ACTOR = {
    **obj({"id": INTEGER, "email": STRING}, ["id", "email"], "Who acted; null for the system (worker, commands)"),
    "type": ["object", "null"],
}
ROW = obj(
    {
        "id": INTEGER,
        "createdAt": STRING,
        "actor": ACTOR,
        "tokenRef": STRING,
        "tokenName": STRING,
        "oauthClient": {
            **obj({"id": STRING, "name": STRING}, ["id", "name"], "The OAuth client"),
            "type": ["object", "null"],
        },
        "client": STRING,
        "clientVersion": STRING,
        "via": STRING,
        "source": {"type": "string", "enum": list(SOURCES)},
        "action": STRING,
        "target": STRING,
        "outcome": STRING,
        "durationMs": NUMBER,
        "traceId": STRING,
    },
    ["id", "createdAt", "source", "action", "outcome", "traceId"],
)


AUDIT = Endpoint("_emdash/api/audit", "api-audit")
family("audit", Perm.AUDIT_READ, mcp=False, **READ)(
    "audit_list", "Audit log", AuditInput, audit_page, AUDIT.get("query"), output=page_of(ROW)
).describe(
    "Every write from every door (mcp, rest, admin, worker) and every MCP call, newest first. "
    "Filter by actor, source, action, target, token, OAuth client and time range; cursor pagination."
)
