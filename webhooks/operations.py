"""Webhook operations: ``/_emdash/api/webhooks`` (admins; REST and admin only, not MCP tools)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from emdash.operations import READ, Endpoint, Input, NoInput, WholeNumber, family
from emdash.operations.shapes import BOOLEAN, INTEGER, NULLABLE_INTEGER, NULLABLE_STRING, STRING, array, items_of, obj
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

HOOK = obj(
    {
        "id": STRING,
        "url": STRING,
        "events": array({"type": "string", "enum": list(EVENTS)}),
        "active": BOOLEAN,
        "secret": {"type": "string", "description": "Only in the answer that set it"},
        "createdAt": STRING,
        "updatedAt": STRING,
    },
    ["id", "url", "events", "active"],
)
DELIVERY = obj(
    {
        "id": INTEGER,
        "event": STRING,
        "status": {"type": "string", "enum": ["pending", "delivered", "failed"]},
        "attempts": INTEGER,
        "responseCode": NULLABLE_INTEGER,
        "responseBody": STRING,
        "lastError": STRING,
        "nextAttemptAt": NULLABLE_STRING,
        "createdAt": STRING,
    },
    ["id", "event", "status", "attempts"],
)


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


HOOKS = Endpoint(P, "api-webhooks")
ONE = Endpoint(f"{P}/<str:id>", "api-webhook")
DELIVERIES = Endpoint(f"{P}/<str:id>/deliveries", "api-webhook-deliveries")
# REST and admin only: managing webhooks is an administrator's job, not an assistant's.
look = family("webhook", Perm.WEBHOOKS_MANAGE, mcp=False, **READ)
change = family("webhook", Perm.WEBHOOKS_MANAGE, mcp=False, target=_target, output=HOOK)

look(
    "webhook_list", "List webhooks", NoInput, services.webhook_list, HOOKS.get("query"), output=items_of(HOOK)
).describe("Every registered webhook (secrets are never listed).")
change("webhook_create", "Create webhook", CreateInput, services.webhook_create, HOOKS.post(status=201)).describe(
    "Register a URL to receive signed JSON POSTs for the chosen events. The answer carries the secret "
    "(generated when omitted); it is not shown again."
)
look("webhook_get", "Get webhook", Target, services.webhook_get, ONE.get("query"), output=HOOK).describe(
    "One webhook (without its secret)."
)
change("webhook_update", "Update webhook", UpdateInput, services.webhook_update, ONE.patch()).describe(
    "Change a webhook's url, events, active flag or secret (rotateSecret: true generates one)."
)
change.gone("webhook_delete", "Delete webhook", Target, services.webhook_delete, ONE.delete()).describe(
    "Remove a webhook and its delivery log."
)
look(
    "webhook_deliveries",
    "Webhook delivery log",
    DeliveriesInput,
    services.webhook_deliveries,
    DELIVERIES.get("query"),
    output=items_of(DELIVERY),
).describe("The newest deliveries of a webhook: event, status, attempts, response code, last error.")
