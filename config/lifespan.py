"""The ASGI lifespan protocol, so servers that speak it (granian, uvicorn) start and stop the app cleanly.

Without it channels' router refuses the ``lifespan`` scope and granian logs "ASGI Lifespan errored" at every
start; worse, its workers then exit without running ``atexit``, so audit rows still queued in the writer
(``EMDASH_AUDIT_FLUSH_INTERVAL``) were lost at every restart. Shutdown here flushes them; servers without
lifespan (daphne, gunicorn) exit normally and the writer's ``atexit`` hook does the same.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from audit import writer as audit_writer

log = logging.getLogger("emdash.lifespan")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class Lifespan:
    """Answer ``lifespan`` scopes; pass every other scope to ``app``."""

    def __init__(self, app: ASGIApp, on_shutdown: Callable[[], None] | None = None) -> None:
        self.app = app
        self.on_shutdown = on_shutdown

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "lifespan":
            await self.app(scope, receive, send)
            return
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send(await _shutdown(self.on_shutdown))
                return


async def _shutdown(first: Callable[[], None] | None) -> dict[str, str]:
    try:
        if first is not None:
            await asyncio.to_thread(first)  # e.g. the HTTP threads finish their requests (their audit rows too)
        await asyncio.to_thread(audit_writer.shutdown)  # blocking: joins the writer thread, inserts the rest
    except Exception:
        log.exception("flushing the audit writer at shutdown failed")
        return {"type": "lifespan.shutdown.failed", "message": "the audit writer could not be flushed"}
    return {"type": "lifespan.shutdown.complete"}
