"""Issue 12 section 3: what each protocol version lists, the 2026-07-28 envelope, step-up challenges and refusals
that say what would work. Raw HTTP, one version at a time."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from jsonschema import Draft202012Validator

from mcp_endpoint.instructions import INSTRUCTIONS
from tests.mcp.conftest import HANDSHAKE, MCP, MODERN, MakeMCP, body_of, modern_meta, request

pytestmark = pytest.mark.django_db
STRUCTURED = ("2025-06-18", "2025-11-25", MODERN)
ALL_VERSIONS = (None, *HANDSHAKE, MODERN)


def _modern_post(mcp: MCP, body: dict[str, Any], **headers: str):
    return mcp.post(body, version=MODERN, headers=headers)


# --- outputSchema by version (SPEC 5.2) ------------------------------------------------------------------


@pytest.mark.parametrize("version", ALL_VERSIONS)
def test_output_schema_is_listed_exactly_where_structured_content_is_returned(
    mcp: MCP, posts: Any, version: str | None
) -> None:
    tools = {t["name"]: t for t in mcp.result("tools/list", version=version)["tools"]}
    with_schema = [name for name, tool in tools.items() if "outputSchema" in tool]
    result = mcp.call("content_list", {"collection": "posts"}, version=version)
    assert result["isError"] is False
    if version in STRUCTURED:
        assert "content_list" in with_schema and len(with_schema) > 20
        Draft202012Validator(tools["content_list"]["outputSchema"]).validate(result["structuredContent"])
        assert result["structuredContent"] == orjson.loads(result["content"][0]["text"])
    else:
        assert with_schema == []
        assert "structuredContent" not in result


# --- 2026-07-28 envelope ----------------------------------------------------------------------------------


def test_missing_meta_is_400_invalid_params_with_the_id(mcp: MCP) -> None:
    response = _modern_post(mcp, request("tools/list", {}, msg_id=101), **{"Mcp-Method": "tools/list"})
    assert response.status_code == 400
    answer = body_of(response)
    assert answer["id"] == 101 and answer["error"]["code"] == -32602


@pytest.mark.parametrize(
    "drop", ["io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientCapabilities"]
)
def test_meta_without_a_required_key_is_400_invalid_params(mcp: MCP, drop: str) -> None:
    meta = {k: v for k, v in modern_meta().items() if k != drop}
    response = _modern_post(mcp, request("tools/list", {"_meta": meta}, msg_id=102), **{"Mcp-Method": "tools/list"})
    assert response.status_code == 400 and body_of(response)["error"]["code"] == -32602


def test_client_info_is_optional(mcp: MCP) -> None:
    meta = {k: v for k, v in modern_meta().items() if not k.endswith("clientInfo")}
    response = _modern_post(mcp, request("tools/list", {"_meta": meta}), **{"Mcp-Method": "tools/list"})
    assert response.status_code == 200 and "tools" in body_of(response)["result"]


def test_meta_version_contradicting_the_header_is_400_header_mismatch(mcp: MCP) -> None:
    meta = {**modern_meta(), "io.modelcontextprotocol/protocolVersion": "v999.0.0"}
    response = _modern_post(
        mcp, request("server/discover", {"_meta": meta}, msg_id=302), **{"Mcp-Method": "server/discover"}
    )
    assert response.status_code == 400
    assert body_of(response)["id"] == 302 and body_of(response)["error"]["code"] == -32020


@pytest.mark.parametrize(
    ("method", "params", "headers"),
    [
        ("tools/list", {}, {}),  # Mcp-Method missing
        ("tools/list", {}, {"Mcp-Method": "prompts/list"}),
        ("tools/list", {}, {"Mcp-Method": "TOOLS/LIST"}),  # values are case-sensitive
        ("tools/call", {"name": "content_list", "arguments": {}}, {"Mcp-Method": "tools/call"}),  # Mcp-Name missing
        ("tools/call", {"name": "content_list"}, {"Mcp-Method": "tools/call", "Mcp-Name": "content_get"}),
    ],
)
def test_routing_headers_must_match_the_body(mcp: MCP, method: str, params: dict, headers: dict) -> None:
    body = request(method, {**params, "_meta": modern_meta()}, msg_id=7)
    response = _modern_post(mcp, body, **headers)
    assert response.status_code == 400
    assert body_of(response)["id"] == 7 and body_of(response)["error"]["code"] == -32020


def test_routing_header_names_are_case_insensitive_and_values_trimmed(mcp: MCP, posts: Any) -> None:
    body = request("tools/call", {"name": "content_list", "arguments": {"collection": "posts"}, "_meta": modern_meta()})
    response = _modern_post(mcp, body, **{"mcp-method": " tools/call ", "MCP-NAME": "  content_list  "})
    assert response.status_code == 200
    assert body_of(response)["result"]["isError"] is False


@pytest.mark.parametrize("method", ["initialize", "ping", "logging/setLevel", "resources/subscribe", "unknown/method"])
def test_removed_and_unknown_methods_are_404_at_2026(mcp: MCP, method: str) -> None:
    response = _modern_post(mcp, request(method, {"_meta": modern_meta()}, msg_id=500), **{"Mcp-Method": method})
    assert response.status_code == 404
    answer = body_of(response)
    assert answer["id"] == 500 and answer["error"]["code"] == -32601


@pytest.mark.parametrize("version", [None, *HANDSHAKE])
def test_unknown_methods_stay_200_before_2026(mcp: MCP, version: str | None) -> None:
    response = mcp.post(request("unknown/method", msg_id=3), version=version)
    assert response.status_code == 200 and body_of(response)["error"]["code"] == -32601


def test_unsupported_version_error_lists_only_versions_discover_lists(mcp: MCP) -> None:
    supported = mcp.result("server/discover", version=MODERN)["supportedVersions"]
    meta = {**modern_meta(), "io.modelcontextprotocol/protocolVersion": "v999.0.0"}
    response = mcp.post(
        request("server/discover", {"_meta": meta}, msg_id=301),
        headers={"MCP-Protocol-Version": "v999.0.0", "Mcp-Method": "server/discover"},
    )
    assert response.status_code == 400
    answer = body_of(response)
    assert answer["id"] == 301 and answer["error"]["code"] == -32022
    assert set(answer["error"]["data"]["supported"]) <= set(supported)
    assert answer["error"]["data"]["requested"] == "v999.0.0"


# --- step-up authorization (SPEC 5.3) ---------------------------------------------------------------------


@pytest.mark.parametrize("version", ALL_VERSIONS)
def test_missing_scope_is_403_with_a_step_up_challenge_in_every_version(make_mcp: MakeMCP, version: str | None) -> None:
    client = make_mcp("admin", "content:read")
    error = client.error("tools/call", {"name": "schema_list_collections"}, version=version, status=403)
    assert error["data"] == {"code": "INSUFFICIENT_SCOPE", "requiredScope": "schema:read"}
    assert "Re-authorise with the schema:read scope" in error["message"]


def test_a_batch_with_a_missing_scope_stays_200(make_mcp: MakeMCP) -> None:
    """One HTTP status cannot describe a batch: the refused member carries the error, the others their results."""
    client = make_mcp("admin", "content:read")
    batch = [request("tools/call", {"name": "schema_list_collections"}, msg_id=1), request("ping", msg_id=2)]
    response = client.post(batch, version="2025-03-26")
    assert response.status_code == 200 and "WWW-Authenticate" not in response
    first, second = body_of(response)
    assert first["error"]["data"]["code"] == "INSUFFICIENT_SCOPE" and second["result"] == {}


def test_insufficient_role_stays_200_and_names_the_role(make_mcp: MakeMCP) -> None:
    client = make_mcp("author", "admin")
    response = client.post(request("tools/call", {"name": "schema_list_collections"}))
    assert response.status_code == 200 and "WWW-Authenticate" not in response
    assert body_of(response)["error"]["message"] == (
        "Insufficient permissions: reading the schema requires the editor role"
    )


# --- refusals that say what would work ------------------------------------------------------------------


@pytest.mark.parametrize("version", [None, MODERN])
def test_unknown_tool_points_to_tools_list(mcp: MCP, version: str | None) -> None:
    kwargs: dict[str, Any] = {"version": version}
    if version == MODERN:
        kwargs["status"] = 200
    error = mcp.error("tools/call", {"name": "no_such_tool"}, **kwargs)
    assert error["code"] == -32602
    assert error["message"] == "Unknown tool: no_such_tool. Call tools/list to see the available tools."


def test_unknown_collection_names_the_existing_ones(make_mcp: MakeMCP, posts: Any) -> None:
    client = make_mcp("subscriber", "content:read")
    result = client.fails("content_list", {"collection": "postz"})
    assert result["_meta"]["code"] == "COLLECTION_NOT_FOUND"
    assert result["content"][0]["text"] == "Collection 'postz' not found. Available collections: posts."
    assert result["_meta"]["details"] == {"available": ["posts"]}


def test_instructions_match_the_readme_token() -> None:
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert "--scopes content:read,content:write,media:read,schema:read" in readme
    assert "schema_get_collection (needs the schema:read scope" in INSTRUCTIONS
    assert "content_list/content_get" in INSTRUCTIONS  # the way without schema:read


def test_readme_token_can_do_what_the_instructions_say_first(make_mcp: MakeMCP, posts: Any) -> None:
    client = make_mcp("editor", "content:read,content:write,media:read,schema:read")
    assert client.call("schema_get_collection", {"slug": "posts"})["isError"] is False
    assert client.call("content_list", {"collection": "posts"})["isError"] is False


def test_a_batch_member_with_a_contradicting_meta_version_gets_its_own_error(mcp: MCP) -> None:
    batch = [request("ping", {"_meta": modern_meta()}, msg_id=1), request("ping", msg_id=2)]
    response = mcp.post(batch, version="2025-03-26")
    assert response.status_code == 200
    first, second = body_of(response)
    assert first["id"] == 1 and first["error"]["code"] == -32020
    assert second == {"jsonrpc": "2.0", "id": 2, "result": {}}
