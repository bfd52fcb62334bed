"""Property tests: whatever arrives, the endpoint answers with a well-formed JSON-RPC response (or 202), never 500.

Bodies are arbitrary JSON values, arbitrary bytes, and JSON-RPC-shaped messages with arbitrary ids, methods,
params, tool names and tool arguments, under every protocol version header.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest
from django.http import HttpResponse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from mcp_endpoint import registry, versions
from tests.mcp.conftest import MCP, MakeMCP

# A fuzz run sends ~1,000 calls a minute with one token, by design: above the default MCP rate limit, which
# tests/auth_limits tests on its own.
pytestmark = pytest.mark.usefixtures("unlimited_rates")

FUZZ = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30)
)
json_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
ids = (
    st.none()
    | st.integers(min_value=-(2**64), max_value=2**64)
    | st.text(max_size=20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.booleans()
    | st.lists(st.integers(), max_size=2)
)
methods = st.sampled_from(
    [
        "initialize",
        "ping",
        "tools/list",
        "tools/call",
        "server/discover",
        "notifications/initialized",
        "notifications/cancelled",
        "resources/list",
    ]
) | st.text(max_size=20)
version_headers = st.sampled_from([None, *versions.SUPPORTED, "2099-01-01"])
registry.load_tools()
TOOL_NAMES = sorted(registry.REGISTRY)
HINTS = [
    "posts",
    "nope",
    "",
    "hello",
    "draft",
    "published",
    "scheduled",
    "2031-01-01T00:00:00Z",
    "yesterday",
    "title",
    "string",
    "integer",
    "01ARZ3NDEKTSV4RRFFQ69G5FAV",
    0,
    1,
    50,
    101,
    -1,
    True,
    False,
    None,
    {"title": "Fuzz"},
    {"title": 5},
    {"nope": 1},
    ["drafts"],
    ["revisions", "revisions"],
]
plausible = st.sampled_from(HINTS) | json_values


def check_message(message: Any) -> None:
    assert isinstance(message, dict), message
    assert message.get("jsonrpc") == "2.0", message
    assert "id" in message, message
    msg_id = message["id"]
    assert msg_id is None or isinstance(msg_id, str) or (isinstance(msg_id, int) and not isinstance(msg_id, bool))
    assert ("result" in message) != ("error" in message), message
    if "error" in message:
        error = message["error"]
        assert isinstance(error["code"], int) and not isinstance(error["code"], bool)
        assert isinstance(error["message"], str) and error["message"]
        assert error["code"] != -32603, message  # nothing in here should be an internal error
    else:
        assert isinstance(message["result"], dict), message


def check(response: HttpResponse) -> Any:
    assert response.status_code != 500, response.content[:500]
    # 403: a missing scope (step-up challenge); 404: an unknown method at 2026-07-28
    assert response.status_code in (200, 202, 400, 403, 404), (response.status_code, response.content[:300])
    if response.status_code == 403:
        assert response["WWW-Authenticate"].startswith('Bearer error="insufficient_scope"')
    if response.status_code == 202:
        assert response.content == b""
        return None
    assert response["Content-Type"].startswith("application/json")
    answer = orjson.loads(response.content)
    if isinstance(answer, list):
        assert response.status_code == 200 and answer
        for message in answer:
            check_message(message)
    else:
        check_message(answer)
    return answer


def dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode()


@pytest.fixture
def reader(make_mcp: MakeMCP) -> MCP:
    """Every read scope and the admin role, but no write scope: the fuzzer cannot change the schema."""
    return make_mcp("admin", "content:read,schema:read,media:read,settings:read")


@FUZZ
@given(body=json_values, version=version_headers)
def test_arbitrary_json_bodies(reader: MCP, body: Any, version: str | None) -> None:
    check(reader.post(dumps(body), version=version))


@FUZZ
@given(
    body=st.binary(max_size=300)
    | json_values.map(dumps).flatmap(lambda b: st.integers(min_value=0, max_value=len(b)).map(lambda n: b[:n]))
)
def test_arbitrary_bytes(reader: MCP, body: bytes) -> None:
    check(reader.post(body))


@FUZZ
@given(
    msg_id=ids,
    method=methods,
    params=json_values
    | st.dictionaries(
        st.sampled_from(["protocolVersion", "name", "arguments", "cursor", "_meta", "capabilities", "task"]),
        plausible,
        max_size=4,
    ),
    version=version_headers,
    with_id=st.booleans(),
    jsonrpc=st.sampled_from(["2.0", "2.0", "2.0", "1.0", None]),
)
def test_arbitrary_messages(
    reader: MCP, msg_id: Any, method: Any, params: Any, version: str | None, with_id: bool, jsonrpc: Any
) -> None:
    message: dict[str, Any] = {"jsonrpc": jsonrpc, "method": method, "params": params}
    if with_id:
        message["id"] = msg_id
    answer = check(reader.post(dumps(message), version=version))
    if answer is not None and isinstance(msg_id, str) and with_id and jsonrpc == "2.0":
        assert answer["id"] in (msg_id, None)


@FUZZ
@given(
    batch=st.lists(
        st.fixed_dictionaries({"jsonrpc": st.just("2.0"), "method": methods, "id": ids})
        | st.fixed_dictionaries({"jsonrpc": st.just("2.0"), "method": methods})
        | st.fixed_dictionaries({"jsonrpc": st.just("2.0"), "id": ids, "result": json_values})
        | json_values,
        max_size=6,
    ),
    version=version_headers,
)
def test_arbitrary_batches(reader: MCP, batch: list[Any], version: str | None) -> None:
    check(reader.post(dumps(batch), version=version))


@FUZZ
@given(
    name=st.sampled_from(TOOL_NAMES),
    arguments=st.data(),
    version=st.sampled_from([None, "2025-06-18", versions.MODERN]),
    mcp_name=st.none() | st.text(max_size=30) | st.binary(max_size=30).map(lambda b: f"=?base64?{b.hex()}?="),
)
def test_arbitrary_tool_arguments_read_only(
    reader: MCP, name: str, arguments: st.DataObject, version: str | None, mcp_name: str | None
) -> None:
    args = arguments.draw(arguments_for(name))
    headers = {"Mcp-Name": mcp_name} if mcp_name is not None else {}
    message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": args}}
    check(reader.post(dumps(message), version=version, headers=headers))


STRING_HINTS = {
    "collection": ["posts", "posts", "nope"],
    "id": ["fuzz", "fuzz-1", "fuzz-2", "hello", "01ARZ3NDEKTSV4RRFFQ69G5FAV"],
    "slug": ["fuzz", "fuzz-copy", "notes", "posts", "a_b"],
    "fieldSlug": ["title", "excerpt", "body", "extra"],
    "scheduledAt": ["2031-01-01T00:00:00Z", "2031-01-01T09:00:00+02:00", "yesterday", "2001-01-01T00:00:00Z"],
    "locale": ["en", "fr"],
}
DATA = st.sampled_from(
    [
        {"title": "Fuzz"},
        {"title": "Fuzz", "excerpt": "x"},
        {"excerpt": "only"},
        {"title": 5},
        {"body": [{"_type": "block", "children": [{"_type": "span", "text": "hi"}]}]},
    ]
) | st.dictionaries(st.sampled_from(["title", "excerpt", "body", "nope"]), plausible, max_size=3)


def from_schema(schema: dict[str, Any], key: str = "") -> st.SearchStrategy[Any]:
    """Values that mostly satisfy a (simple) JSON Schema, with hints that hit existing rows."""
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if isinstance(kind, list):
        return st.one_of([from_schema({**schema, "type": k}, key) for k in kind])
    if kind == "string":
        low, high = schema.get("minLength", 0), schema.get("maxLength", 40)
        text = st.from_regex(schema["pattern"], fullmatch=True) if "pattern" in schema else st.text(max_size=high)
        return st.sampled_from(STRING_HINTS.get(key, ["Fuzz"])) | text.filter(lambda v: low <= len(v) <= high)
    if kind == "integer":
        return st.integers(min_value=schema.get("minimum", -5), max_value=schema.get("maximum", 200))
    if kind == "number":
        return st.floats(allow_nan=False, allow_infinity=False)
    if kind == "boolean":
        return st.booleans()
    if kind == "array":
        return st.lists(from_schema(schema.get("items", {})), max_size=3, unique_by=str)
    if kind == "object":
        properties = schema.get("properties")
        if not properties:
            return DATA if key == "data" else st.dictionaries(st.text(max_size=8), json_values, max_size=3)
        required = set(schema.get("required", []))
        return st.fixed_dictionaries(
            {k: from_schema(v, k) for k, v in properties.items() if k in required},
            optional={k: from_schema(v, k) for k, v in properties.items() if k not in required},
        )
    if key == "defaultValue":
        return plausible
    return json_values


def arguments_for(name: str) -> st.SearchStrategy[Any]:
    schema = registry.REGISTRY[name].input_schema
    properties = sorted(schema.get("properties", {}))
    valid = from_schema(schema)
    known = (
        st.dictionaries(st.sampled_from(properties), plausible, max_size=len(properties)) if properties else st.just({})
    )
    extra = st.dictionaries(st.text(max_size=10), plausible, min_size=1, max_size=2)
    return st.one_of(valid, valid, valid, known, st.builds(lambda a, b: {**b, **a}, valid, extra), json_values)


@settings(
    max_examples=250,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(calls=st.lists(st.tuples(st.sampled_from(TOOL_NAMES), st.data()), min_size=1, max_size=4))
def test_arbitrary_tool_calls_with_write_access(mcp: MCP, posts: Any, calls: list[tuple[str, Any]]) -> None:
    """An admin with every scope on a real collection: successes, tool errors and refusals, never a 500."""
    for name, data in calls:
        args = data.draw(arguments_for(name))
        message = {"jsonrpc": "2.0", "id": "w", "method": "tools/call", "params": {"name": name, "arguments": args}}
        answer = check(mcp.post(dumps(message), version="2025-06-18"))
        if "result" in answer and not answer["result"]["isError"]:
            schema = registry.REGISTRY[name].output_schema
            if schema is not None:
                structured = answer["result"]["structuredContent"]
                errors = [e.message for e in Draft202012Validator(schema).iter_errors(structured)]
                assert not errors, (name, args, errors)
