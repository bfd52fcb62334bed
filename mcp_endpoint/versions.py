"""Protocol revisions we speak, and what changes between them."""

from __future__ import annotations

MODERN = "2026-07-28"  # handshake-free: server/discover plus a _meta envelope on every request
HANDSHAKE = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")  # newest first
SUPPORTED = (MODERN, *HANDSHAKE)
NEWEST_HANDSHAKE = HANDSHAKE[0]
DEFAULT = "2025-03-26"  # assumed when a request carries no MCP-Protocol-Version header
BATCH_VERSIONS = frozenset({"2025-03-26"})


def structured_output(version: str) -> bool:
    """structuredContent and outputSchema exist from 2025-06-18 on."""
    return version >= "2025-06-18"


def is_modern(version: str) -> bool:
    return version == MODERN


def supports_tasks(version: str) -> bool:
    """Task-augmented requests (tasks/get, tasks/result, ...) exist from 2025-11-25 on."""
    return version >= "2025-11-25"


def serves_resources(version: str) -> bool:
    """Resources, prompts and completions are served to 2025-06-18 and later (SPEC 10); older clients get
    neither the capabilities nor the methods."""
    return version >= "2025-06-18"


RESOURCE_METHODS = frozenset(
    {
        "resources/list",
        "resources/templates/list",
        "resources/read",
        "prompts/list",
        "prompts/get",
        "completion/complete",
    }
)


# Methods the 2026-07-28 revision removed (the handshake and session utilities): a request carrying that
# version gets 404 + -32601 for them, like any unknown method. server/discover exists only in that revision.
# The tasks extension of that revision (SEP-2663) inlines the result on tasks/get and has no task list, so
# tasks/result and tasks/list are gone there too; tasks/update is new in it.
REMOVED_IN_MODERN = frozenset(
    {
        "initialize",
        "ping",
        "logging/setLevel",
        "resources/subscribe",
        "resources/unsubscribe",
        "tasks/result",
        "tasks/list",
    }
)
MODERN_ONLY = frozenset({"server/discover", "tasks/update"})


def method_exists(method: str, version: str) -> bool:
    """False for methods the request's revision does not have (the caller still checks its own method table)."""
    if method in RESOURCE_METHODS and not serves_resources(version):
        return False
    if is_modern(version):
        return method not in REMOVED_IN_MODERN
    return method not in MODERN_ONLY
