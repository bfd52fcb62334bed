"""Webhook operations: ``/_emdash/api/webhooks`` (admins; REST and admin only, not MCP tools)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from emdash.operations import Input, Route, WholeNumber, family
from emdash.permissions import Perm
from webhooks import services
from webhooks.events import EVENTS

P = "_emdash/api/webhooks"
Event = Literal[EVENTS]  # type: ignore[valid-type]
Events = Annotated[
    list[Event], Field(description=f"Events to deliver: {', '.join(EVENTS)}", min_length=1, max_length=9)
]  # type: ignore[valid-type]
Url = Annotated[str, Field(description="Target URL (http or https, public address)", min_length=1, max_length=2000)]
Secret = Annotated[
    str, Field(description="HMAC-SHA256 key (generated when omitted; shown once)", min_length=16, max_length=200)
]
Ident = Annotated[str, Field(description="Webhook id", min_length=1, max_length=26)]

HOOK = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "url": {"type": "string"},
        "events": {"type": "array", "items": {"type": "string", "enum": list(EVENTS)}},
        "active": {"type": "boolean"},
        "secret": {"type": "string", "description": "Only in the answer that set it"},
        "createdAt": {"type": "string"},
        "updatedAt": {"type": "string"},
    },
    "required": ["id", "url", "events", "active"],
}
DELIVERY = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "event": {"type": "string"},
        "status": {"type": "string", "enum": ["pending", "delivered", "failed"]},
        "attempts": {"type": "integer"},
        "responseCode": {"type": ["integer", "null"]},
        "responseBody": {"type": "string"},
        "lastError": {"type": "string"},
        "nextAttemptAt": {"type": ["string", "null"]},
        "createdAt": {"type": "string"},
    },
    "required": ["id", "event", "status", "attempts"],
}


def _items(schema: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": {"items": {"type": "array", "items": schema}}, "required": ["items"]}


class NoInput(Input):
    pass


class CreateInput(Input):
    url: Url
    events: Events
    secret: Secret | None = None
    active: bool | None = Field(None, description="Deliver events (default true)")


class Target(Input):
    id: Ident


class UpdateInput(Target):
    url: Url | None = None
    events: Events | None = None
    secret: Secret | None = None
    rotate_secret: bool | None = Field(None, description="true: generate a new secret (shown once)")
    active: bool | None = Field(None, description="Deliver events")


class DeliveriesInput(Target):
    limit: WholeNumber = Field(50, ge=1, le=100, description="Newest deliveries to list (1-100, default 50)")


def _target(args: Any, payload: dict[str, Any]) -> str:
    return f"webhooks/{payload.get('id') or getattr(args, 'id', '')}"


ONE = f"{P}/<str:id>"
# REST and admin only: managing webhooks is an administrator's job, not an assistant's.
BASE = {"category": "webhook", "perm": Perm.WEBHOOKS_MANAGE, "mcp": False}
look = family(**BASE, read_only=True, idempotent=True)
change = family(**BASE, target=_target)

look(
    "webhook_list",
    title="List webhooks",
    description="Every registered webhook (secrets are never listed).",
    input=NoInput,
    service=services.webhook_list,
    output_schema=_items(HOOK),
    routes=(Route("GET", P, args="query", name="api-webhooks"),),
)
change(
    "webhook_create",
    title="Create webhook",
    description="Register a URL to receive signed JSON POSTs for the chosen events. The answer carries the secret "
    "(generated when omitted); it is not shown again.",
    input=CreateInput,
    service=services.webhook_create,
    output_schema=HOOK,
    routes=(Route("POST", P, args="body", status=201, name="api-webhooks"),),
)
look(
    "webhook_get",
    title="Get webhook",
    description="One webhook (without its secret).",
    input=Target,
    service=services.webhook_get,
    output_schema=HOOK,
    routes=(Route("GET", ONE, args="query", name="api-webhook"),),
)
change(
    "webhook_update",
    title="Update webhook",
    description="Change a webhook's url, events, active flag or secret (rotateSecret: true generates one).",
    input=UpdateInput,
    service=services.webhook_update,
    output_schema=HOOK,
    routes=(Route("PATCH", ONE, args="body", name="api-webhook"),),
)
change(
    "webhook_delete",
    title="Delete webhook",
    destructive=True,
    description="Remove a webhook and its delivery log.",
    input=Target,
    service=services.webhook_delete,
    output_schema={"type": "object", "properties": {"deleted": {"type": "boolean"}}, "required": ["deleted"]},
    routes=(Route("DELETE", ONE, args="path", name="api-webhook"),),
)
look(
    "webhook_deliveries",
    title="Webhook delivery log",
    description="The newest deliveries of a webhook: event, status, attempts, response code, last error.",
    input=DeliveriesInput,
    service=services.webhook_deliveries,
    output_schema=_items(DELIVERY),
    routes=(Route("GET", f"{ONE}/deliveries", args="query", name="api-webhook-deliveries"),),
)
