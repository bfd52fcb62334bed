"""The official ``mcp`` SDK client pinned to each protocol version against the live endpoint: what it lists and
what its tool calls return. The SDK validates every result against the listed outputSchema, so an outputSchema
listed where no structuredContent comes back (issue 12) makes the call raise.

The SDK always offers its newest handshake version in ``initialize``; older ones are pinned by patching that
constant for the duration of one session (the server echoes a supported version)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from mcp import Client
from mcp.client import session as sdk_session
from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client

from emdash.roles import Role
from tests.mcp_e2e.conftest import new_user, token_for

HANDSHAKE = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
STRUCTURED = {"2025-06-18", "2025-11-25", "2026-07-28"}


async def _session(url: str, token: str, mode: str) -> dict[str, Any]:
    async with (
        create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http,
        Client(streamable_http_client(url, http_client=http), mode=mode) as client,
    ):
        listed = await client.list_tools()
        schemas = {t.name: t.output_schema for t in listed.tools}
        made = await client.call_tool("content_create", {"collection": "posts", "data": {"title": "Pinned"}})
        item_id = json.loads(made.content[0].text)["item"]["id"]
        page = await client.call_tool("content_list", {"collection": "posts", "limit": 3})
        got = await client.call_tool("content_get", {"collection": "posts", "id": item_id})
        results = {"content_create": made, "content_list": page, "content_get": got}
        return {"version": client.protocol_version, "schemas": schemas, "results": results}


@pytest.mark.parametrize("version", [*HANDSHAKE, "2026-07-28"])
def test_the_sdk_client_pinned_to_each_version(posts, mcp_url, monkeypatch, version):
    user = new_user(Role.EDITOR)
    token = token_for(user, ["content:read", "content:write"])
    if version in HANDSHAKE:
        monkeypatch.setattr(sdk_session, "LATEST_HANDSHAKE_VERSION", version)
        mode = "legacy"
    else:
        mode = version
    seen = asyncio.run(_session(mcp_url, token, mode))
    assert seen["version"] == version
    with_schema = {name for name, schema in seen["schemas"].items() if schema}
    for name, result in seen["results"].items():
        assert not result.is_error, result.content[0].text
        if version in STRUCTURED:
            assert name in with_schema
            Draft202012Validator(seen["schemas"][name]).validate(result.structured_content)
        else:
            assert result.structured_content is None
    if version not in STRUCTURED:
        assert with_schema == set()
