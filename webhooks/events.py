"""Which events exist, and how content, media and schema signals become webhook deliveries.

Every signal used here is sent after the writing transaction commits, so a rolled-back write sends nothing.
One receiver per event source: content (``entry_changed``), media (``media_changed``), schema
(``schema_changed``).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from django.utils import timezone

from emdash.dates import iso
from emdash.tracing import unexpected

if TYPE_CHECKING:
    from content.signals import Batch


EVENTS = (
    "content.created",
    "content.updated",
    "content.published",
    "content.unpublished",
    "content.scheduled",
    "content.deleted",
    "media.created",
    "media.deleted",
    "schema.changed",
    "changeset.submitted",
    "changeset.approved",
    "changeset.rejected",
    "changeset.published",
    "changeset.reverted",
)
# entry_changed actions -> events. Trashing and permanent deletion are both content.deleted (``permanent``
# tells them apart); restoring, unscheduling and discarding a draft change the item: content.updated.
CONTENT_EVENTS = {
    "created": "content.created",
    "updated": "content.updated",
    "published": "content.published",
    "unpublished": "content.unpublished",
    "scheduled": "content.scheduled",
    "unscheduled": "content.updated",
    "draft_discarded": "content.updated",
    "restored": "content.updated",
    "trashed": "content.deleted",
    "deleted": "content.deleted",
}


def actor_ref(actor: Any) -> dict[str, Any] | None:
    """Who acted, without anything secret: the user's id and email, or the system."""
    if actor is None or getattr(actor, "is_system", False):
        return {"system": True}
    user = getattr(actor, "user", None)
    return {"id": str(user.pk), "email": user.email} if user is not None else None


def body(event: str, actor: Any, **parts: Any) -> str:
    """The JSON body that is signed and sent: ``{event, occurredAt, collection?, item?|media?, actor}``."""
    payload = {"event": event, "occurredAt": iso(timezone.now()), **parts, "actor": actor_ref(actor)}
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"), default=str)


def _item(collection: str, entry_id: str, action: str) -> dict[str, Any]:
    """The item as an admin sees it now (drafts included); just its id once it is gone."""
    from content.entries import selectors
    from emdash.actor import Actor
    from emdash.errors import EmDashError

    item: dict[str, Any] = {"id": entry_id, "collection": collection}
    if action != "deleted":
        with suppress(EmDashError):  # trashed items are not found by id: the reference is enough
            item = {**selectors.entry_get(actor=Actor.system(), collection=collection, id=entry_id).to_dict()}
    if action in ("trashed", "deleted"):
        item["permanent"] = action == "deleted"
    return item


def _safely(receiver: Callable[..., None]) -> Callable[..., None]:
    """Receivers run after the write committed: a failure here is logged, never turned into an error response."""

    @functools.wraps(receiver)
    def run(**kwargs: Any) -> None:
        try:
            receiver(**kwargs)
        except Exception as exc:
            unexpected(exc, f"recording webhook event {receiver.__name__}")

    return run


@_safely
def on_entry_changed(
    *, collection: str, entry_id: str, action: str, actor: Any, batch: Batch | None = None, **_: Any
) -> None:
    from webhooks import delivery

    event = CONTENT_EVENTS.get(action)
    if event and delivery.subscribed(event, batch):
        item = _item(collection, entry_id, action)
        delivery.record(event, body(event, actor, collection=collection, item=item))


@_safely
def on_media_changed(*, item: dict[str, Any], action: str, actor: Any, **_: Any) -> None:
    from webhooks import delivery

    event = f"media.{action}"
    if event in EVENTS and delivery.subscribed(event):
        delivery.record(event, body(event, actor, media=item))


@_safely
def on_schema_changed(**_: Any) -> None:
    from webhooks import delivery

    if delivery.subscribed("schema.changed"):
        delivery.record("schema.changed", body("schema.changed", None))


@_safely
def on_changeset_changed(*, changeset: dict[str, Any], event: str, actor: Any, **_: Any) -> None:
    from webhooks import delivery

    name = f"changeset.{event}"
    if name in EVENTS and delivery.subscribed(name):
        delivery.record(name, body(name, actor, changeset=changeset))


def connect() -> None:
    from content.signals import changeset_changed, entry_changed, schema_changed
    from media.signals import media_changed

    entry_changed.connect(on_entry_changed, dispatch_uid="webhooks.entry")
    media_changed.connect(on_media_changed, dispatch_uid="webhooks.media")
    schema_changed.connect(on_schema_changed, dispatch_uid="webhooks.schema")
    changeset_changed.connect(on_changeset_changed, dispatch_uid="webhooks.changeset")
