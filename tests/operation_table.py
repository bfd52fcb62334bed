"""Test operations through the production path: ``declare()`` into the operation table, restored afterwards.

There is no second registry for tests: an operation a test declares becomes an MCP tool exactly as the
product's do (``mcp_endpoint.registry.Tool.of``), and the ``operation_table`` fixture puts the table, the
shared-shape bookkeeping and the tool registry back as they were.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from emdash.operations import Operation, declare, load
from emdash.operations import record as table
from mcp_endpoint import registry


def add(**fields: Any) -> Operation:
    """Declare one operation (every keyword of ``Operation``) and list it as a tool if it is one."""
    load()
    registry.load_tools()
    op = declare(**fields)
    if op.mcp:
        registry.REGISTRY[op.name] = registry.Tool.of(op)
    return op


@contextmanager
def restored() -> Iterator[None]:
    """The operation table and the tool registry as they are now, again on exit."""
    load()
    registry.load_tools()
    saved = [(d, dict(d)) for d in (table.TABLE, table._HOMES, table._IN_FULL, registry.REGISTRY)]
    try:
        yield
    finally:
        for live, copy in saved:
            live.clear()
            live.update(copy)
