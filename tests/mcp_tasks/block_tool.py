"""A test-only tool that blocks, so a worker can be killed while it runs a task deterministically.

``test_block`` writes its ``marker`` file (the test's signal that the worker is inside the call) and then
sleeps. It is an operation declared with the production ``declare()``: in the worker subprocess through
``tests.mcp_tasks.block_settings``, and in the test process inside the ``operation_table`` fixture; never in
the product.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.apps import AppConfig
from pydantic import Field

NAME = "test_block"


def register() -> None:
    # Imported here: the AppConfig module loads before the app registry is ready.
    from emdash.operations import TABLE, Input
    from emdash.permissions import Perm
    from tests import operation_table

    if NAME in TABLE:
        return

    class BlockInput(Input):
        marker: str = Field(description="File to create on entry")

    def block(*, actor: Any, marker: str) -> dict[str, Any]:
        Path(marker).write_text("started")
        time.sleep(60)
        return {"slept": True}

    operation_table.add(
        name=NAME,
        title="Block (tests only)",
        description="Writes the marker file, then sleeps for a minute.",
        category="settings",
        perm=Perm.SETTINGS_READ,
        input=BlockInput,
        service=block,
        read_only=True,
    )


class BlockToolConfig(AppConfig):
    name = "tests.mcp_tasks"
    label = "tests_block_tool"

    def ready(self) -> None:
        register()
