"""media_upload_url and media_confirm as MCP tools (SPEC 10): an assistant sends a large file without base64,
through the signed PUT, and registers it; the URL is absolute and bound to the user who asked for it."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
from django.test import Client

from emdash.roles import Role
from media.models import MediaItem
from tests.mcp.conftest import MCP, MakeMCP
from tests.media.helpers import image_bytes

pytestmark = pytest.mark.django_db


def _ticket(mcp: MCP, **extra: Any) -> dict[str, Any]:
    return mcp.ok("media_upload_url", {"filename": "big.png", "mimeType": "image/png", **extra})


def _put(ticket: dict[str, Any], content: bytes) -> int:
    path = urlsplit(ticket["uploadUrl"]).path
    return Client().generic("PUT", path, content, content_type="image/png").status_code


def test_the_ticket_is_an_absolute_signed_put(mcp: MCP) -> None:
    ticket = _ticket(mcp, size=1000)
    assert ticket["uploadUrl"].startswith("http://testserver/_emdash/api/media/upload/")
    assert ticket["method"] == "PUT" and ticket["storageKey"].endswith(".png") and ticket["maxSize"] > 1000


def test_upload_url_put_then_confirm_registers_the_file(mcp: MCP) -> None:
    ticket = _ticket(mcp)
    content = image_bytes()
    assert _put(ticket, content) == 200
    args = {"storageKey": ticket["storageKey"], "filename": "big.png", "mimeType": "image/png", "alt": "A sunset"}
    item = mcp.ok("media_confirm", args)["item"]
    assert item["alt"] == "A sunset" and item["mimeType"] == "image/png" and item["size"] == len(content)
    assert MediaItem.objects.filter(pk=item["id"]).exists()


def test_another_user_cannot_confirm_the_upload(mcp: MCP, make_mcp: MakeMCP) -> None:
    ticket = _ticket(mcp)
    assert _put(ticket, image_bytes()) == 200
    other = make_mcp(Role.EDITOR, "admin")
    args = {"storageKey": ticket["storageKey"], "filename": "big.png", "mimeType": "image/png"}
    answer = other.rpc("tools/call", {"name": "media_confirm", "arguments": args})
    code = answer["error"]["data"]["code"] if "error" in answer else answer["result"]["_meta"]["code"]
    assert code == "INSUFFICIENT_PERMISSIONS"
    assert not MediaItem.objects.exists()


def test_a_too_large_declared_size_is_refused(mcp: MCP, settings: Any) -> None:
    result = mcp.fails("media_upload_url", {"filename": "big.png", "mimeType": "image/png", "size": 10**12})
    assert result["_meta"]["code"] == "FILE_TOO_LARGE"


def test_a_contributor_may_not_ask_for_an_upload_url(make_mcp: MakeMCP) -> None:
    contributor = make_mcp(Role.CONTRIBUTOR, "media:write")
    answer = contributor.rpc(
        "tools/call", {"name": "media_upload_url", "arguments": {"filename": "a.png", "mimeType": "image/png"}}
    )
    assert "error" in answer or answer["result"]["isError"] is True


def test_as_a_task_the_upload_url_is_absolute_too(mcp: MCP) -> None:
    """The worker answers with the origin the creating request came to (McpTask.origin)."""
    from mcp_endpoint.tasks_exec import run_mcp_task

    params = {"name": "media_upload_url", "arguments": {"filename": "a.png", "mimeType": "image/png"}, "task": {}}
    task = mcp.result("tools/call", params, version="2025-11-25")["task"]
    assert run_mcp_task.call(task["taskId"]) == "completed"
    result = mcp.result("tasks/result", {"taskId": task["taskId"]}, version="2025-11-25")
    assert result["structuredContent"]["uploadUrl"].startswith("http://testserver/_emdash/api/media/upload/")
