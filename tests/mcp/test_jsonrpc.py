"""SPEC 5.2 (versions, lifecycle, capabilities) and 5.3 (JSON-RPC errors at the protocol level)."""

from __future__ import annotations

import base64
import logging
from importlib.metadata import version as package_version
from typing import Any

import orjson
import pytest
from django.test import Client

from audit.models import AuditLog
from emdash.operations import NoInput
from emdash.permissions import Perm
from mcp_endpoint import dispatch, registry
from tests.factories import swap_service
from tests.mcp.conftest import HANDSHAKE, MCP, MODERN, MakeMCP, body_of, notification, request

pytestmark = pytest.mark.django_db

SERVER_VERSION = package_version("emdash-django")


def initialize(mcp: MCP, requested: Any, **kwargs: Any) -> dict[str, Any]:
    params = {"protocolVersion": requested, "capabilities": {}, "clientInfo": {"name": "pytest", "version": "1"}}
    return mcp.result("initialize", params, **kwargs)


# --- 5.2 initialize ------------------------------------------------------------------------------------


@pytest.mark.parametrize("requested", HANDSHAKE)
def test_initialize_echoes_each_supported_version(mcp: MCP, requested: str) -> None:
    assert initialize(mcp, requested)["protocolVersion"] == requested


@pytest.mark.parametrize("requested", ["2099-12-31", "2025-01-01", "1.0", MODERN, "", None, 20250618, ["2025-06-18"]])
def test_initialize_answers_the_newest_for_unknown_versions(mcp: MCP, requested: Any) -> None:
    assert initialize(mcp, requested)["protocolVersion"] == "2025-11-25"


def test_initialize_without_params(mcp: MCP) -> None:
    assert mcp.result("initialize")["protocolVersion"] in HANDSHAKE


def test_initialize_result(mcp: MCP) -> None:
    result = initialize(mcp, "2025-06-18")
    info = result["serverInfo"]
    assert info["name"] == "emdash"
    assert info["version"] == SERVER_VERSION
    assert isinstance(info.get("title"), str) and info["title"]
    assert result["capabilities"]["tools"] == {"listChanged": False}
    instructions = result["instructions"]
    assert isinstance(instructions, str) and 100 < len(instructions) < 4000
    for needle in ("schema_get_collection", "_rev", "slug"):
        assert needle in instructions
    assert "resultType" not in result  # a 2026-only field, not sent to handshake clients


def test_initialized_notification_is_202(mcp: MCP) -> None:
    response = mcp.post(notification("notifications/initialized"), version="2025-06-18")
    assert response.status_code == 202 and response.content == b""


def test_ping(mcp: MCP) -> None:
    assert mcp.result("ping") == {}
    assert mcp.result("ping", {}, version="2025-11-25") == {}
    assert mcp.result("ping", {"_meta": {"progressToken": 1}}, msg_id="p") == {}


def test_task_parameter_is_ignored_until_tasks_exist(mcp: MCP) -> None:
    result = mcp.result(
        "tools/call",
        {"name": "schema_list_collections", "arguments": {}, "task": {"ttl": 60000}, "_meta": {"progressToken": "p1"}},
    )
    assert result["isError"] is False
    assert "task" not in result


def test_tools_work_without_initialize(make_mcp: MakeMCP) -> None:
    fresh = make_mcp()
    names = [t["name"] for t in fresh.result("tools/list", version="2025-06-18")["tools"]]
    assert "schema_list_collections" in names
    assert fresh.ok("schema_list_collections", {}, version="2025-06-18") == {"items": []}


# --- 5.2 the handshake-free revision --------------------------------------------------------------------


def modern_meta(client: str = "pytest-modern") -> dict[str, Any]:
    return {
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientInfo": {"name": client, "version": "0.1.0"},
            "io.modelcontextprotocol/clientCapabilities": {},
        }
    }


def test_server_discover(mcp: MCP) -> None:
    result = mcp.result("server/discover", modern_meta(), version=MODERN, headers={"Mcp-Method": "server/discover"})
    assert MODERN in result["supportedVersions"]
    assert set(HANDSHAKE) <= set(result["supportedVersions"])
    assert result["capabilities"]["tools"] == {"listChanged": False}
    assert result["resultType"] == "complete"
    assert isinstance(result["ttlMs"], int) and result["ttlMs"] >= 0
    assert result["cacheScope"] in ("private", "public")
    info = result["_meta"]["io.modelcontextprotocol/serverInfo"]
    assert info["name"] == "emdash" and info["version"] == SERVER_VERSION
    assert "schema_get_collection" in result["instructions"]


@pytest.mark.parametrize("version", [None, *HANDSHAKE])
def test_server_discover_needs_the_modern_header(mcp: MCP, version: str | None) -> None:
    error = mcp.error("server/discover", {}, version=version)
    assert error["code"] == -32601


@pytest.mark.parametrize("version", HANDSHAKE)
def test_meta_version_contradicting_the_header_is_400_header_mismatch(mcp: MCP, version: str) -> None:
    """A _meta protocol version is checked against the header in every revision, not only 2026-07-28."""
    error = mcp.error("server/discover", modern_meta(), version=version, status=400)
    assert error["code"] == -32020 and "does not match" in error["message"]


def test_modern_results_carry_result_type(mcp: MCP) -> None:
    meta = modern_meta()
    listed = mcp.result("tools/list", meta, version=MODERN, headers={"Mcp-Method": "tools/list"})
    assert listed["resultType"] == "complete"
    assert isinstance(listed["ttlMs"], int) and listed["ttlMs"] >= 0
    assert listed["cacheScope"] in ("private", "public")
    called = mcp.call(
        "schema_list_collections",
        None,
        version=MODERN,
        headers={"Mcp-Method": "tools/call", "Mcp-Name": "schema_list_collections"},
    )
    assert called["resultType"] == "complete"
    assert called["isError"] is False
    assert called["structuredContent"] == {"items": []}


def test_legacy_results_carry_no_modern_fields(mcp: MCP) -> None:
    listed = mcp.result("tools/list", version="2025-11-25")
    assert not {"resultType", "ttlMs", "cacheScope"} & listed.keys()
    called = mcp.call("schema_list_collections", {}, version="2025-11-25")
    assert "resultType" not in called


def test_modern_result_type_does_not_leak_into_shared_objects(mcp: MCP) -> None:
    mcp.result("server/discover", modern_meta(), version=MODERN)
    mcp.result("tools/list", modern_meta(), version=MODERN)
    assert "resultType" not in dispatch.CAPABILITIES
    assert "resultType" not in dispatch.SERVER_INFO
    capabilities = mcp.result("initialize", {"protocolVersion": "2025-06-18"})["capabilities"]
    assert capabilities == {"tools": {"listChanged": False}}
    assert all("resultType" not in t for t in registry.definitions())


def test_mcp_method_header_mismatch_is_400(mcp: MCP) -> None:
    response = mcp.post(
        request("tools/list", modern_meta(), msg_id=4), version=MODERN, headers={"Mcp-Method": "tools/call"}
    )
    assert response.status_code == 400
    answer = body_of(response)
    assert answer["id"] == 4
    assert answer["error"]["code"] == -32020


def test_mcp_name_header_mismatch_is_400(mcp: MCP) -> None:
    params = {"name": "schema_list_collections", "arguments": {}, **modern_meta()}
    response = mcp.post(
        request("tools/call", params, msg_id=5),
        version=MODERN,
        headers={"Mcp-Method": "tools/call", "Mcp-Name": "content_list"},
    )
    assert response.status_code == 400
    assert body_of(response)["error"]["code"] == -32020
    assert not AuditLog.objects.exists()  # refused before the tool ran


def test_mcp_name_header_may_be_base64_wrapped(mcp: MCP) -> None:
    wrapped = "=?base64?" + base64.b64encode(b"schema_list_collections").decode() + "?="
    params = {"name": "schema_list_collections", "arguments": {}, **modern_meta()}
    result = mcp.result("tools/call", params, version=MODERN, headers={"Mcp-Method": "tools/call", "Mcp-Name": wrapped})
    assert result["isError"] is False


def test_header_checks_only_apply_to_the_modern_revision(mcp: MCP) -> None:
    assert mcp.result("ping", version="2025-11-25", headers={"Mcp-Method": "tools/list"}) == {}


def test_modern_client_name_reaches_the_audit_log(mcp: MCP) -> None:
    params = {"name": "schema_list_collections", **modern_meta("Claude Test Client")}
    mcp.result("tools/call", params, version=MODERN)
    assert AuditLog.objects.get().client == "Claude Test Client"


# --- 5.2 structured content by version ------------------------------------------------------------------


@pytest.mark.parametrize("version", [None, "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", MODERN])
def test_structured_content_from_2025_06_18(mcp: MCP, version: str | None) -> None:
    result = mcp.call("schema_list_collections", {}, version=version)
    assert result["isError"] is False
    if version in ("2025-06-18", "2025-11-25", MODERN):
        assert result["structuredContent"] == orjson.loads(result["content"][0]["text"])
    else:
        assert "structuredContent" not in result


@pytest.fixture
def schemaless_tool(operation_table: Any) -> str:
    """A tool without an outputSchema, declared for one test (after tools/list was built)."""
    registry.definitions()
    op = operation_table.add(
        name="test_schemaless",
        title="Echo (tests only)",
        description="Answers an echo.",
        category="schema",
        perm=Perm.SCHEMA_READ,
        input=NoInput,
        service=lambda *, actor: {"echo": True},
        read_only=True,
    )
    return op.name


@pytest.mark.parametrize("version", [None, "2025-06-18", "2025-11-25", MODERN])
def test_no_structured_content_without_an_output_schema(mcp: MCP, schemaless_tool: str, version: str | None) -> None:
    result = mcp.call(schemaless_tool, {}, version=version)
    assert result["isError"] is False
    assert orjson.loads(result["content"][0]["text"]) == {"echo": True}
    assert "structuredContent" not in result


# --- 5.3 parse errors -----------------------------------------------------------------------------------


def nested(depth: int) -> bytes:
    """A JSON document ``depth`` levels deep (the top-level request object is level 1)."""
    inner = "0"
    for _ in range(depth - 2):
        inner = "[" + inner + "]"
    return ('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":' + inner + "}}").encode()


PARSE_ERRORS = {
    "empty": b"",
    "whitespace": b"  \n ",
    "truncated": b'{"jsonrpc":"2.0","id":1,"method":"pi',
    "truncated-array": b'[{"jsonrpc":"2.0","id":1,"method":"ping"}',
    "invalid-utf8": b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":"\xff\xfe"}}',
    "overlong-utf8": b'{"jsonrpc":"2.0","id":1,"method":"\xc0\xaf"}',
    "latin1": '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":"Grüße"}}'.encode("latin-1"),
    "nan": b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":NaN}}',
    "infinity": b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":Infinity}}',
    "minus-infinity": b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":-Infinity}}',
    "overflow": b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":1e999}}',
    "single-quotes": b"{'jsonrpc':'2.0','id':1,'method':'ping'}",
    "trailing-comma": b'{"jsonrpc":"2.0","id":1,"method":"ping",}',
    "trailing-garbage": b'{"jsonrpc":"2.0","id":1,"method":"ping"} x',
    "two-documents": b'{"jsonrpc":"2.0","id":1,"method":"ping"}{"jsonrpc":"2.0","id":2,"method":"ping"}',
    "comment": b'{"jsonrpc":"2.0","id":1,"method":"ping"} // hi',
    "lone-surrogate": b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":"\\ud800"}}',
    "depth-65": nested(65),
    "depth-1000": b"[" * 1000 + b"]" * 1000,
    "depth-100000": b"[" * 100_000 + b"]" * 100_000,
}


@pytest.mark.parametrize("body", PARSE_ERRORS.values(), ids=PARSE_ERRORS.keys())
def test_parse_errors_are_400_with_a_null_id(mcp: MCP, body: bytes) -> None:
    response = mcp.post(body)
    assert response.status_code == 400, response.content[:200]
    answer = body_of(response)
    assert answer["jsonrpc"] == "2.0"
    assert answer["id"] is None
    assert answer["error"]["code"] == -32700


def test_nesting_of_64_levels_is_accepted(mcp: MCP) -> None:
    response = mcp.post(nested(64))
    assert response.status_code == 200
    assert body_of(response)["result"] == {}


def test_utf8_and_escapes_are_accepted(mcp: MCP) -> None:
    body = '{"jsonrpc":"2.0","id":"ü-✓-\\u00e9-\\ud83d\\ude00","method":"ping"}'.encode()
    response = mcp.post(body)
    assert response.status_code == 200
    assert body_of(response)["id"] == "ü-✓-é-😀"


# --- 5.3 invalid requests ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected_id"),
    [
        ({"id": 1, "method": "ping"}, 1),
        ({"jsonrpc": "1.0", "id": 2, "method": "ping"}, 2),
        ({"jsonrpc": 2.0, "id": 3, "method": "ping"}, 3),
        ({"jsonrpc": None, "id": "x", "method": "ping"}, "x"),
        ({"jsonrpc": "2.0", "id": 1.5, "method": "ping"}, None),
        ({"jsonrpc": "2.0", "id": 1.0, "method": "ping"}, None),
        ({"jsonrpc": "2.0", "id": True, "method": "ping"}, None),
        ({"jsonrpc": "2.0", "id": False, "method": "ping"}, None),
        ({"jsonrpc": "2.0", "id": {"a": 1}, "method": "ping"}, None),
        ({"jsonrpc": "2.0", "id": [1], "method": "ping"}, None),
        ({"jsonrpc": "2.0", "id": None, "method": "ping"}, None),
        ({"jsonrpc": "2.0", "id": 4, "method": 5}, 4),
        ({"jsonrpc": "2.0", "id": 5, "method": None}, 5),
        ({"jsonrpc": "2.0", "id": 6, "method": ["ping"]}, 6),
        ({"jsonrpc": "2.0", "id": 7, "method": ""}, 7),
        ({"jsonrpc": "2.0", "id": 8}, 8),
        ({"jsonrpc": "2.0"}, None),
        ({}, None),
        ({"jsonrpc": "2.0", "id": 9, "result": {}, "error": {"code": 1, "message": "x"}}, 9),
        ({"jsonrpc": "2.0", "result": {}}, None),
    ],
    ids=lambda v: repr(v)[:60],
)
def test_invalid_requests_are_32600(mcp: MCP, body: dict, expected_id: Any) -> None:
    response = mcp.post(body)
    assert response.status_code in (200, 400)
    answer = body_of(response)
    assert answer["jsonrpc"] == "2.0"
    assert answer["id"] == expected_id
    assert answer["error"]["code"] == -32600


@pytest.mark.parametrize("body", [b"42", b'"ping"', b"null", b"true", b"3.5"])
def test_non_object_bodies_are_400_invalid_request(mcp: MCP, body: bytes) -> None:
    response = mcp.post(body)
    assert response.status_code == 400
    answer = body_of(response)
    assert answer["id"] is None and answer["error"]["code"] == -32600


@pytest.mark.parametrize("params", [[], [1, 2], "x", 5, True])
@pytest.mark.parametrize("method", ["ping", "initialize", "tools/list", "tools/call"])
def test_params_must_be_an_object(mcp: MCP, method: str, params: Any) -> None:
    error = mcp.error(method, params, msg_id=11)
    assert error["code"] == -32602


@pytest.mark.parametrize("msg_id", [0, -1, 2**63 - 1, 2**64 - 1, -(2**63), "", "a" * 300, "ü ✓"])
def test_ids_are_echoed_verbatim(mcp: MCP, msg_id: Any) -> None:
    assert mcp.rpc("ping", msg_id=msg_id)["result"] == {}


@pytest.mark.parametrize(
    "method",
    [
        "no/such",
        "resources/list",
        "prompts/list",
        "tasks/list",
        "logging/setLevel",
        "PING",
        "tools/call/extra",
        "rpc.discover",
    ],
)
def test_unknown_methods_are_200_32601(mcp: MCP, method: str) -> None:
    response = mcp.post(request(method, {}, msg_id="m"))
    assert response.status_code == 200
    answer = body_of(response)
    assert answer["id"] == "m"
    assert answer["error"]["code"] == -32601


@pytest.mark.parametrize(
    "params",
    [
        {"name": "no_such_tool", "arguments": {}},
        {"name": "", "arguments": {}},
        {"name": 5},
        {"name": None},
        {"name": ["content_list"]},
        {"arguments": {}},
        {},
        {"name": "content_list", "arguments": []},
        {"name": "content_list", "arguments": "collection=posts"},
        {"name": "content_list", "arguments": 1},
    ],
)
def test_bad_tools_call_params_are_32602(mcp: MCP, params: dict) -> None:
    assert mcp.error("tools/call", params)["code"] == -32602


def test_unknown_tool_message_names_it(mcp: MCP) -> None:
    assert "no_such_tool" in mcp.error("tools/call", {"name": "no_such_tool"})["message"]


@pytest.mark.parametrize("cursor", ["x", "", 5, None])
def test_tools_list_cursor(mcp: MCP, cursor: Any) -> None:
    if cursor is None:
        assert mcp.result("tools/list", {"cursor": None})["tools"]
    else:
        assert mcp.error("tools/list", {"cursor": cursor})["code"] == -32602


# --- 5.3 scope and role ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tool", "arguments", "scope"),
    [
        ("schema_list_collections", {}, "schema:read"),
        ("schema_create_collection", {"slug": "x", "label": "X"}, "schema:write"),
        ("content_create", {"collection": "posts", "data": {}}, "content:write"),
        ("revision_restore", {"revisionId": "x"}, "content:write"),
    ],
)
def test_missing_scope(make_mcp: MakeMCP, tool: str, arguments: dict, scope: str) -> None:
    client = make_mcp("admin", "content:read")
    response = client.post(request("tools/call", {"name": tool, "arguments": arguments}, msg_id=21))
    # Step-up authorization (MCP 2025-11-25): 403 + a challenge naming the scope; the JSON-RPC body is unchanged.
    assert response.status_code == 403
    assert response["WWW-Authenticate"] == (
        f'Bearer error="insufficient_scope", scope="{scope}", '
        'resource_metadata="http://testserver/.well-known/oauth-protected-resource", '
        f'error_description="This call needs the {scope} scope"'
    )
    error = body_of(response)["error"]
    assert body_of(response)["id"] == 21
    assert error["code"] == -32600
    assert error["message"].startswith(f"Insufficient scope: requires {scope}. Re-authorise with the {scope} scope")
    assert error["data"] == {"code": "INSUFFICIENT_SCOPE", "requiredScope": scope}
    row = AuditLog.objects.get()
    assert row.action == tool and row.outcome == "INSUFFICIENT_SCOPE"


def test_scope_is_checked_before_arguments(make_mcp: MakeMCP) -> None:
    client = make_mcp("admin", "content:read")
    error = client.error("tools/call", {"name": "schema_get_collection", "arguments": {"bogus": 1}}, status=403)
    assert error["data"]["code"] == "INSUFFICIENT_SCOPE"


@pytest.mark.parametrize(
    ("role", "tool", "arguments"),
    [
        ("subscriber", "content_create", {"collection": "posts", "data": {}}),
        ("contributor", "content_create", {"collection": "posts", "data": {}}),
        ("subscriber", "content_list_trashed", {"collection": "posts"}),
        ("author", "schema_list_collections", {}),
        ("editor", "schema_create_collection", {"slug": "x", "label": "X"}),
        ("editor", "content_permanent_delete", {"collection": "posts", "id": "x"}),
    ],
)
def test_insufficient_role(make_mcp: MakeMCP, role: str, tool: str, arguments: dict) -> None:
    client = make_mcp(role, "admin")
    response = client.post(request("tools/call", {"name": tool, "arguments": arguments}, msg_id=22))
    assert response.status_code == 200
    error = body_of(response)["error"]
    assert error["code"] == -32600
    assert error["message"].startswith("Insufficient permissions: ")
    assert error["data"]["code"] == "INSUFFICIENT_PERMISSIONS"
    assert AuditLog.objects.get().outcome == "INSUFFICIENT_PERMISSIONS"


def test_session_calls_have_no_scope_limit(make_mcp: MakeMCP) -> None:
    client = make_mcp("admin")
    session = Client()
    session.force_login(client.user)
    response = MCP(session, None).post(
        request("tools/call", {"name": "schema_list_collections"}), headers={"Origin": "http://testserver"}
    )
    assert response.status_code == 200
    assert body_of(response)["result"]["isError"] is False


# --- 5.3 unexpected exceptions -------------------------------------------------------------------------------

SECRET_BITS = (
    "SELECT password FROM emdash_user",
    "/work/main/content/services/entries.py",
    "ec_pat_SECRETSECRETSECRET",
    "Traceback",
    "RuntimeError",
    "boom",
)


def _boom(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError(
        "boom: SELECT password FROM emdash_user at /work/main/content/services/entries.py "
        "with ec_pat_SECRETSECRETSECRET"
    )


def assert_internal_error(response: Any, msg_id: Any, caplog: pytest.LogCaptureFixture) -> str:
    assert response.status_code == 500
    answer = body_of(response)
    assert answer["id"] == msg_id
    assert answer["error"]["code"] == -32603
    assert answer["error"]["message"] == "Internal error"
    trace_id = answer["error"]["data"]["traceId"]
    assert isinstance(trace_id, str) and len(trace_id) >= 8
    text = response.content.decode()
    for bit in SECRET_BITS:
        assert bit not in text
    logged = [r for r in caplog.records if r.levelno >= logging.ERROR and trace_id in r.getMessage()]
    assert logged, [r.getMessage() for r in caplog.records]
    assert logged[0].exc_info is not None
    return trace_id


def test_exception_inside_a_tool_is_a_500_with_a_trace_id(
    mcp: MCP, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    swap_service(monkeypatch, "schema_list_collections", _boom)
    caplog.set_level(logging.ERROR)
    response = mcp.post(request("tools/call", {"name": "schema_list_collections", "arguments": {}}, msg_id="req-1"))
    trace_id = assert_internal_error(response, "req-1", caplog)
    row = AuditLog.objects.get()
    assert row.outcome == "INTERNAL_ERROR" and row.trace_id == trace_id


def test_exception_inside_a_protocol_method_is_a_500(
    mcp: MCP, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(dispatch.METHODS, "ping", _boom)
    caplog.set_level(logging.ERROR)
    assert_internal_error(mcp.post(request("ping", msg_id=31)), 31, caplog)


def test_exception_inside_a_batch_member(
    mcp: MCP, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    swap_service(monkeypatch, "schema_list_collections", _boom)
    caplog.set_level(logging.ERROR)
    calls = [request("tools/call", {"name": "schema_list_collections"}, msg_id=1), request("ping", msg_id=2)]
    response = mcp.post(calls)
    assert response.status_code == 200
    first, second = body_of(response)
    assert first["id"] == 1 and first["error"]["code"] == -32603 and "traceId" in first["error"]["data"]
    assert second == {"jsonrpc": "2.0", "id": 2, "result": {}}
    for bit in SECRET_BITS:
        assert bit not in response.content.decode()


def test_exception_outside_dispatch_is_a_jsonrpc_500(
    mcp: MCP, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """E.g. the database failing while the token is looked up: still a JSON-RPC body, nothing leaked."""
    from mcp_endpoint import views

    monkeypatch.setattr(views, "resolve_bearer", _boom)
    caplog.set_level(logging.ERROR)
    response = MCP(Client(raise_request_exception=False), mcp.token).post(request("ping", msg_id=41))
    assert response.status_code == 500
    answer = body_of(response)
    assert answer["error"]["code"] == -32603 and answer["error"]["message"] == "Internal error"
    trace_id = answer["error"]["data"]["traceId"]
    for bit in SECRET_BITS:
        assert bit not in response.content.decode()
    assert any(trace_id in r.getMessage() and r.exc_info for r in caplog.records)
