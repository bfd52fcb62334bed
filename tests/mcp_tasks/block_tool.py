"""A test-only tool that blocks, so a worker can be killed while it runs a task deterministically.

``test_block`` writes its ``marker`` file (the test's signal that the worker is inside the call) and then
sleeps. It is registered in the worker subprocess through ``tests.mcp_tasks.block_settings`` and in the test
process by the ``block_tool`` fixture; never in the product.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.apps import AppConfig

NAME = "test_block"


def register() -> None:
    # Imported here: the AppConfig module loads before the app registry is ready.
    from emdash.permissions import Perm
    from mcp_endpoint.registry import REGISTRY, tool

    if NAME in REGISTRY:
        return

    @tool(
        NAME,
        title="Block (tests only)",
        description="Writes the marker file, then sleeps for a minute.",
        category="settings",
        perm=Perm.SETTINGS_READ,
        input={
            "type": "object",
            "properties": {"marker": {"type": "string", "description": "File to create on entry"}},
            "required": ["marker"],
            "additionalProperties": False,
        },
        read_only=True,
    )
    def block(actor: Any, arguments: dict[str, Any]) -> dict[str, Any]:
        Path(arguments["marker"]).write_text("started")
        time.sleep(60)
        return {"slept": True}


class BlockToolConfig(AppConfig):
    name = "tests.mcp_tasks"
    label = "tests_block_tool"

    def ready(self) -> None:
        register()
