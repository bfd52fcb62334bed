"""A client side of the 2026-07-28 tasks extension (SEP-2663) on the ``mcp`` SDK's own extension interface.

The SDK ships no tasks extension, but lets a client claim an extra ``tools/call`` result shape
(``ClientExtension.claims``): constructed into ``Client(extensions=[...])``, the extension is advertised in
every request's ``_meta`` client capabilities, so EmDash answers each ``tools/call`` with a flat
``CreateTaskResult`` (``resultType: "task"``); the SDK hands that to :meth:`TasksExtension.resolve`, which polls
``tasks/get`` until the task ends and returns the inlined tool result, and ``Client.call_tool`` then validates
it against the tool's outputSchema like a direct call.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Annotated, Any, Literal

import anyio
from mcp import types
from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim
from mcp.client.session import ClientSession
from mcp_types import Result
from pydantic import Field

RELATED = "io.modelcontextprotocol/related-task"


class CreateTaskResult(Result):
    result_type: Annotated[Literal["task"], Field(alias="resultType")]
    task_id: Annotated[str, Field(alias="taskId")]
    status: str
    ttl_ms: Annotated[int | None, Field(alias="ttlMs")] = None
    poll_interval_ms: Annotated[int | None, Field(alias="pollIntervalMs")] = None


async def raw_request(session: ClientSession, method: str, params: dict[str, Any]) -> dict[str, Any]:
    """A request through the session's own stamp (version header, ``_meta`` envelope with the client's
    capabilities, Mcp-Method) and dispatcher: the SDK has no typed tasks/get in the 2026 era. The SDK's
    Mcp-Name table predates SEP-2663, which adds the task id for tasks/get, /update and /cancel."""
    data: dict[str, Any] = {"method": method, "params": params}
    opts: dict[str, Any] = {}
    session._stamp(data, opts)  # type: ignore[arg-type]
    if "taskId" in params:
        opts.setdefault("headers", {})["Mcp-Name"] = params["taskId"]
    return await session._dispatcher.send_raw_request(method, data["params"], opts)  # type: ignore[arg-type]


class TasksExtension(ClientExtension):
    identifier = "io.modelcontextprotocol/tasks"

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.created: dict[str, str] = {}  # tool name -> task id, so a test can tell a task really ran

    def claims(self) -> Sequence[ResultClaim[Any]]:
        return [ResultClaim(result_type="task", model=CreateTaskResult, resolve=self.resolve)]

    async def resolve(self, created: CreateTaskResult, ctx: ClaimContext) -> types.CallToolResult:
        assert created.status == "working" and created.ttl_ms, f"{ctx.tool_name}: {created}"
        self.created[ctx.tool_name] = created.task_id
        deadline = time.monotonic() + self.timeout
        task = await raw_request(ctx.session, "tasks/get", {"taskId": created.task_id})
        while task["status"] == "working" and time.monotonic() < deadline:
            await anyio.sleep(min((created.poll_interval_ms or 300) / 1000, 0.3))
            task = await raw_request(ctx.session, "tasks/get", {"taskId": created.task_id})
        assert task["status"] == "completed", f"task {ctx.tool_name} ended {task['status']}: {task}"
        result = task["result"]  # inlined once the task ends; its taskId is at the root, not in _meta
        assert RELATED not in (result.get("_meta") or {}), f"task {ctx.tool_name}: {RELATED} on the inlined result"
        return types.CallToolResult.model_validate(result)
