"""The official ``mcp`` SDK's stdio client runs ``emdash mcp`` as its server: stored OAuth credentials, both the
handshake-free (auto) and the initialize (legacy) modes, a tool call and a tool error, end to end."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

from accounts.oauth import tokens
from emdash.cli import credentials
from emdash.roles import Role
from tests.cli.conftest import EMDASH
from tests.factories import make_user

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("cli_app")]


async def _session(url: str, config: Path, mode: str) -> tuple[list[str], bool, str, Any, str]:
    params = StdioServerParameters(
        command=str(EMDASH), args=["mcp", "--url", url], env={"XDG_CONFIG_HOME": str(config)}
    )
    async with Client(stdio_client(params), mode=mode) as client:
        listed = await client.list_tools()
        ok = await client.call_tool("schema_list_collections", {})
        denied = await client.call_tool("content_get", {"collection": "nope", "id": "x"})
        names = [t.name for t in listed.tools]
        return names, bool(ok.is_error), denied.content[0].text, ok.structured_content, client.protocol_version


@pytest.mark.parametrize("mode", ["auto", "legacy", "2026-07-28"])
def test_sdk_stdio_client_through_the_bridge(live_server, cli_app, tmp_path, mode):
    user = make_user(Role.EDITOR)
    issued = tokens.issue_pair(
        client=cli_app, user=user, scopes=["content:read", "schema:read"], resource=live_server.url + "/_emdash/api/mcp"
    )
    credentials.store(credentials.origin_of(live_server.url), credentials.entry_from_tokens(issued, None))
    config = Path(os.environ["XDG_CONFIG_HOME"])
    names, ok_is_error, denied, structured, version = asyncio.run(_session(live_server.url, config, mode))
    assert "schema_list_collections" in names and "content_create" in names
    assert ok_is_error is False
    # auto negotiates 2026-07-28 through the bridge, legacy the newest handshake revision; both have structuredContent
    assert version == ("2025-11-25" if mode == "legacy" else "2026-07-28")
    assert structured == {"items": []}
    assert "nope" in denied or "not found" in denied.lower()
