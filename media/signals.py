"""``media_changed``: sent after the transaction commits, with ``item`` (the presented media item, or
``{"id": ...}`` once deleted), ``action`` (created, deleted) and ``actor``. Webhooks listen to it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.dispatch import Signal

media_changed = Signal()


def send_media_changed(item: Mapping[str, Any], action: str, actor: Any) -> None:
    transaction.on_commit(lambda: media_changed.send(sender=None, item=item, action=action, actor=actor))
