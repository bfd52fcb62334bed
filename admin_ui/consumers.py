"""The websocket admin pages listen on: content change notices for signed-in contributors and up."""

from __future__ import annotations

import logging
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from admin_ui.live import GROUP
from emdash.roles import Role

log = logging.getLogger("emdash.admin.live")


class ContentChangesConsumer(AsyncJsonWebsocketConsumer):
    sees_emails = False

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated or not user.is_active or user.role < Role.CONTRIBUTOR:
            await self.close(code=4403)
            return
        self.sees_emails = user.role >= Role.ADMIN  # as on the users and audit screens
        await self.channel_layer.group_add(GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        # A page closing its socket is routine, not an error: if the layer cannot be told now (a Redis read timeout
        # after an idle spell), the membership lapses by itself at the layer's group expiry. One line, no traceback.
        try:
            await self.channel_layer.group_discard(GROUP, self.channel_name)
        except Exception as exc:
            log.info("websocket closed (%s); leaving the live-update group failed: %r", code, exc)

    async def content_changed(self, event: dict[str, Any]) -> None:
        notice = {k: event[k] for k in ("collection", "id", "action")}
        notice["by"] = event["by"] if self.sees_emails else event.get("by_public", "someone")
        await self.send_json(notice)
