"""The benchmark's reference: the official ``mcp`` SDK serving the same two reads as our endpoint.

An ``MCPServer`` in stateless JSON mode at ``/_emdash/api/mcp`` with tools ``content_get`` and
``content_list`` that do the same reads on the same database as ours, as the demo admin with the
``admin`` scope (what the benchmark's token grants on our side). They run our operations
(``content_get``/``content_list`` from the operation table, through ``run_operation``: argument
validation, ``content.entries.selectors.entry_get/entry_list`` and the presenter, e.g. the item's taxonomy terms)
so the payloads stay identical as the operations evolve; ``bench/run.py`` checks that they are. Not run
here: our HTTP/JSON-RPC layer, the bearer-token lookup and the audit-log write. It is the SDK's floor for
the same reads.

    DJANGO_SETTINGS_MODULE=config.settings EMDASH_VAR_DIR=... BENCH_THREADS=1 \\
        uvicorn bench.reference_server:app --host 127.0.0.1 --port 8001 --workers 1

The SDK runs sync tools in anyio worker threads; BENCH_THREADS caps that pool so that the reference
runs with the same number of threads per worker as gunicorn's ``--threads``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

import anyio.to_thread  # noqa: E402
from mcp.server.mcpserver import MCPServer  # noqa: E402

from accounts.models import User  # noqa: E402
from emdash import operations  # noqa: E402
from emdash.actor import Actor  # noqa: E402

ADMIN_EMAIL = os.environ.get("BENCH_ADMIN_EMAIL", "admin@example.com")
THREADS = int(os.environ.get("BENCH_THREADS", "1"))

_actor: Actor | None = None


def admin_actor() -> Actor:
    """Looked up once, on the first call (in a worker thread: Django's ORM refuses the event loop's)."""
    global _actor
    if _actor is None:
        _actor = Actor.for_user(User.objects.get(email=ADMIN_EMAIL), ["admin"])
    return _actor


server = MCPServer("emdash-sdk-reference", version="bench")


def given(**arguments: Any) -> dict[str, Any]:
    """The arguments as our tools receive them: the ones the caller left out are absent."""
    return {k: v for k, v in arguments.items() if v is not None}


@server.tool()
def content_get(collection: str, id: str, locale: str | None = None) -> dict[str, Any]:
    """Get one item by ID or slug."""
    return _run("content_get", given(collection=collection, id=id, locale=locale))


@server.tool()
def content_list(
    collection: str,
    status: str | None = None,
    limit: int | None = None,
    cursor: str | None = None,
    orderBy: str | None = None,
    order: str | None = None,
    locale: str | None = None,
) -> dict[str, Any]:
    """List items in a collection."""
    arguments = given(
        collection=collection, status=status, limit=limit, cursor=cursor, orderBy=orderBy, order=order, locale=locale
    )
    return _run("content_list", arguments)


def _run(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    op = operations.get(name)
    assert op is not None
    return operations.run_operation(op, admin_actor(), arguments, source="mcp")


_inner = server.streamable_http_app(streamable_http_path="/_emdash/api/mcp", stateless_http=True, json_response=True)


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The SDK's Starlette app, with anyio's worker-thread pool capped at BENCH_THREADS at start-up."""
    if scope["type"] == "lifespan":
        anyio.to_thread.current_default_thread_limiter().total_tokens = THREADS
    await _inner(scope, receive, send)
