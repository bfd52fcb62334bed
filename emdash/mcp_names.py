"""Which body parameter a 2026-07-28 MCP request repeats in its ``Mcp-Name`` header, per method.

SEP-2243 names tools/call, prompts/get and resources/read; the tasks extension (SEP-2663) adds the task id of
tasks/get, tasks/update and tasks/cancel. Shared by the endpoint, which checks the header, and the ``emdash mcp``
bridge, which sets it (a plain table: the bridge runs without Django).
"""

from __future__ import annotations

NAMED_PARAM = {
    "tools/call": "name",
    "prompts/get": "name",
    "resources/read": "uri",
    "tasks/get": "taskId",
    "tasks/update": "taskId",
    "tasks/cancel": "taskId",
}
