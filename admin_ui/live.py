"""Live updates: every committed content change is broadcast to open admin pages over the channel layer.

Content can change through any door (MCP, REST, the admin, the worker); all of them go through the content
services, which send ``entry_changed`` after commit. Pages listen on a websocket (see ``consumers``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from content.signals import changeset_changed, entry_changed
from emdash.edge.threaded_wsgi import serving_loop
from emdash.roles import role_label

log = logging.getLogger("emdash.admin.live")
GROUP = "emdash.admin.content"
_threads = threading.local()


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
    if layer is None or (isinstance(layer, InMemoryChannelLayer) and not layer.groups.get(GROUP)):
        return  # the in-process layer's listeners are all in this process: nobody to tell (e.g. any WSGI worker)
    message = {"type": "content.changed", "collection": collection, "id": entry_id, "action": action}
    message["by"], message["by_public"] = _who(actor)
    try:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is not None:  # called from async code: async_to_sync would refuse, so schedule the send
            loop.create_task(layer.group_send(GROUP, message))
        elif (server_loop := serving_loop()) is not None:  # an ASGI server's HTTP thread (emdash.edge.threaded_wsgi)
            asyncio.run_coroutine_threadsafe(layer.group_send(GROUP, message), server_loop).result(timeout=10)
        elif _in_asgi_thread():  # a sync view under an ASGI server: send on the server's loop, where listeners are
            async_to_sync(layer.group_send)(GROUP, message)
        else:
            _thread_loop().run_until_complete(layer.group_send(GROUP, message))
    except Exception:  # a broken channel layer must never fail the write that already committed
        log.warning("live update for %s/%s not sent", collection, entry_id, exc_info=True)


def _in_asgi_thread() -> bool:
    """Whether asgiref runs this thread for an event loop (what ``async_to_sync`` itself checks)."""
    return getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) == os.getpid()


def _thread_loop() -> asyncio.AbstractEventLoop:
    """This thread's own event loop, kept for its life: ``async_to_sync`` outside an ASGI server starts a thread
    and a loop per call (and channels_redis a connection per loop), ~9 ms of every write's request."""
    loop: asyncio.AbstractEventLoop | None = getattr(_threads, "loop", None)
    if loop is None or loop.is_closed():
        loop = _threads.loop = asyncio.new_event_loop()
    return loop


def broadcast_changeset(sender: Any, *, changeset: dict[str, Any], event: str, actor: Any = None, **_: Any) -> None:
    """A change set submitted, approved, rejected, published or reverted: the Review screen says so."""
    broadcast(sender, collection="changesets", entry_id=changeset["id"], action=event, actor=actor)


def connect() -> None:
    entry_changed.connect(broadcast, dispatch_uid="admin_ui.live.broadcast")
    changeset_changed.connect(broadcast_changeset, dispatch_uid="admin_ui.live.changesets")
