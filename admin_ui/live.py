"""Live updates: every committed content change is broadcast to open admin pages over the channel layer.

Content can change through any door (MCP, REST, the admin, the worker); all of them go through the content
services, which send ``entry_changed`` after commit. Pages listen on a websocket (see ``consumers``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from content.signals import entry_changed
from emdash.roles import role_label

log = logging.getLogger("emdash.admin.live")
GROUP = "emdash.admin.content"


def _who(actor: Any) -> tuple[str, str]:
    """Who made the change: (for admins, with the e-mail; for everyone else, the name or the role).

    E-mail addresses are shown only to admins elsewhere in the admin (users, audit), so notices do the same."""
    if actor is None or getattr(actor, "is_system", False):
        return "the system", "the system"
    user = getattr(actor, "user", None)
    if user is None:
        return "someone", "someone"
    via = " via an API client" if getattr(actor, "token_id", None) or getattr(actor, "client_id", None) else ""
    label = role_label(user.role)
    public = user.name or f"{'an' if label[0] in 'aeiou' else 'a'} {label}"
    return f"{user.email}{via}", f"{public}{via}"


def broadcast(sender: Any, *, collection: str, entry_id: str, action: str, actor: Any = None, **_: Any) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "content.changed", "collection": collection, "id": entry_id, "action": action}
    message["by"], message["by_public"] = _who(actor)
    try:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is not None:  # called from async code: async_to_sync would refuse, so schedule the send
            loop.create_task(layer.group_send(GROUP, message))
        else:
            async_to_sync(layer.group_send)(GROUP, message)
    except Exception:  # a broken channel layer must never fail the write that already committed
        log.warning("live update for %s/%s not sent", collection, entry_id, exc_info=True)


def connect() -> None:
    entry_changed.connect(broadcast, dispatch_uid="admin_ui.live.broadcast")
