"""Resources, resource templates, prompts and completions (SPEC 10) through the official ``mcp`` SDK client,
end to end over HTTP, at each protocol version that has them (2025-06-18, 2025-11-25 and 2026-07-28): the SDK
validates each result against its own schema for the negotiated version."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from mcp import Client, MCPError
from mcp.client import session as sdk_session
from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client
from mcp_types import PromptReference, ResourceTemplateReference

from emdash.roles import Role
from settings_app import services as settings_services
from tests.factories import SYSTEM, make_collection
from tests.mcp_e2e.conftest import new_user, token_for

GUIDE = "# House style\n\nWeights in grams."


async def _session(url: str, token: str, mode: str) -> dict[str, Any]:
    async with (
        create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http,
        Client(streamable_http_client(url, http_client=http), mode=mode) as client,
    ):
        caps = client.server_capabilities
        listed = await client.list_resources()
        templates = await client.list_resource_templates()
        schema = await client.read_resource("emdash://schema/recipes")
        guide = await client.read_resource("emdash://guide")
        prompts = await client.list_prompts()
        prompt = await client.get_prompt("write_item", {"collection": "recipes", "topic": "Leek soup"})
        completed = await client.complete(
            PromptReference(type="ref/prompt", name="audit_content"), {"name": "collection", "value": "rec"}
        )
        from_template = await client.complete(
            ResourceTemplateReference(type="ref/resource", uri="emdash://schema/{collection}"),
            {"name": "collection", "value": ""},
        )
        try:
            await client.read_resource("emdash://nothing")
            missing: Any = None
        except MCPError as exc:
            missing = exc.error.code
        return {
            "version": client.protocol_version,
            "caps": caps,
            "resources": [str(r.uri) for r in listed.resources],
            "templates": [t.uri_template for t in templates.resource_templates],
            "schema": schema.contents[0],
            "guide": guide.contents[0],
            "prompts": [p.name for p in prompts.prompts],
            "prompt": prompt.messages[0].content.text,
            "completed": completed.completion.values,
            "from_template": from_template.completion.values,
            "missing": missing,
        }


@pytest.mark.parametrize("version", ["2025-06-18", "2025-11-25", "2026-07-28"])
def test_resources_prompts_and_completions_through_the_sdk(cms, mcp_url, monkeypatch, version):
    make_collection("recipes", fields=[{"slug": "title", "label": "Title", "type": "string", "required": True}])
    settings_services.settings_update(actor=SYSTEM, changes={"editorialGuide": GUIDE})
    token = token_for(new_user(Role.EDITOR), ["content:read", "content:write", "schema:read"])
    if version == "2026-07-28":
        mode = version
    else:
        monkeypatch.setattr(sdk_session, "LATEST_HANDSHAKE_VERSION", version)
        mode = "legacy"
    seen = asyncio.run(_session(mcp_url, token, mode))
    assert seen["version"] == version
    caps = seen["caps"]
    if version != "2026-07-28":  # pinned to 2026-07-28 the SDK keeps no capabilities (tools is None too)
        assert caps.resources is not None and caps.prompts is not None and caps.completions is not None
    assert seen["resources"] == ["emdash://schema", "emdash://settings", "emdash://guide"]
    assert seen["templates"] == ["emdash://schema/{collection}"]
    assert seen["schema"].mime_type == "application/json"
    assert json.loads(seen["schema"].text)["slug"] == "recipes"
    assert (seen["guide"].mime_type, seen["guide"].text) == ("text/markdown", GUIDE)
    assert seen["prompts"] == ["write_item", "review_changeset", "audit_content"]
    assert "Leek soup" in seen["prompt"] and "Weights in grams." in seen["prompt"]
    assert seen["completed"] == ["recipes"]
    assert seen["from_template"] == ["recipes"]
    assert seen["missing"] == (-32602 if version == "2026-07-28" else -32002)


def test_an_older_client_is_offered_none_of_them(cms, mcp_url, monkeypatch):
    monkeypatch.setattr(sdk_session, "LATEST_HANDSHAKE_VERSION", "2025-03-26")
    token = token_for(new_user(Role.EDITOR), ["content:read"])

    async def run() -> Any:
        async with (
            create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http,
            Client(streamable_http_client(mcp_url, http_client=http), mode="legacy") as client,
        ):
            return client.server_capabilities

    caps = asyncio.run(run())
    assert caps.resources is None and caps.prompts is None and caps.completions is None
