"""SPEC 5.4 (tool results, errors, audit log) and 5.5 (tool definitions in tools/list)."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import orjson
import pytest
from django.utils import timezone
from jsonschema import Draft202012Validator

from audit.models import AuditLog
from emdash.permissions import RULES
from mcp_endpoint import dispatch, registry
from tests.mcp.conftest import MCP, MODERN, MakeMCP, body_of, request

CONTENT_TOOLS = [
    "content_list",
    "content_get",
    "content_create",
    "content_update",
    "content_delete",
    "content_restore",
    "content_permanent_delete",
    "content_publish",
    "content_unpublish",
    "content_schedule",
    "content_unschedule",
    "content_compare",
    "content_discard_draft",
    "content_list_trashed",
    "content_duplicate",
    "content_translations",
]
SCHEMA_TOOLS = [
    "schema_list_collections",
    "schema_get_collection",
    "schema_create_collection",
    "schema_update_collection",
    "schema_delete_collection",
    "schema_create_field",
    "schema_update_field",
    "schema_delete_field",
]
REVISION_TOOLS = ["revision_list", "revision_restore"]
EXPECTED = CONTENT_TOOLS + SCHEMA_TOOLS + REVISION_TOOLS
READ_ONLY = {
    "content_list",
    "content_get",
    "content_compare",
    "content_list_trashed",
    "content_translations",
    "schema_list_collections",
    "schema_get_collection",
    "revision_list",
}
DESTRUCTIVE = {
    "content_delete",
    "content_permanent_delete",
    "content_discard_draft",
    "schema_delete_collection",
    "schema_delete_field",
}
HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
CATEGORIES = {"content", "schema", "media", "search", "taxonomy", "menu", "byline", "revision", "settings"}  # + SPEC 10


# --- 5.5 tools/list ---------------------------------------------------------------------------------------


@pytest.fixture
def tools(mcp: MCP) -> list[dict[str, Any]]:
    return mcp.result("tools/list", version="2025-11-25")["tools"]


def test_the_list_holds_every_registered_tool(tools: list[dict[str, Any]]) -> None:
    names = [t["name"] for t in tools]
    assert len(names) == len(set(names)) == len(registry.REGISTRY)
    assert len(EXPECTED) == 26  # 24 of SPEC 5.5 plus the schema updates of SPEC 6.4d
    assert set(EXPECTED) <= set(names)


def test_each_definition(tools: list[dict[str, Any]]) -> None:
    for tool in tools:
        name = tool["name"]
        record = registry.REGISTRY[name]
        assert 1 <= len(name) <= 64 and name.replace("_", "").isalnum() and name.islower(), name
        assert isinstance(tool["title"], str) and tool["title"], name
        assert isinstance(tool["description"], str) and len(tool["description"]) >= 20, name
        schema = tool["inputSchema"]
        Draft202012Validator.check_schema(schema)
        assert schema["type"] == "object" and schema["additionalProperties"] is False, name
        for required in schema.get("required", []):
            assert required in schema["properties"], (name, required)
        if "outputSchema" in tool:
            Draft202012Validator.check_schema(tool["outputSchema"])
            assert tool["outputSchema"]["type"] == "object", name
        annotations = tool["annotations"]
        for hint in HINTS:
            assert isinstance(annotations.get(hint), bool), (name, hint)
        assert annotations["openWorldHint"] is False
        assert not (annotations["readOnlyHint"] and annotations["destructiveHint"]), name
        rule = RULES[record.perm]
        assert tool["_meta"] == {
            "emdash/scope": rule.scope.value,
            "emdash/minRole": rule.min_role.label,
            "emdash/category": record.category,
        }, name
        assert record.category in CATEGORIES


def test_categories_and_hints_of_the_first_24(tools: list[dict[str, Any]]) -> None:
    by_name = {t["name"]: t for t in tools}
    for names, category in ((CONTENT_TOOLS, "content"), (SCHEMA_TOOLS, "schema"), (REVISION_TOOLS, "revision")):
        for name in names:
            assert by_name[name]["_meta"]["emdash/category"] == category, name
    for name in EXPECTED:
        annotations = by_name[name]["annotations"]
        assert annotations["readOnlyHint"] is (name in READ_ONLY), name
        assert annotations["destructiveHint"] is (name in DESTRUCTIVE), name
        if name in READ_ONLY:
            assert annotations["idempotentHint"] is True, name
            assert by_name[name]["_meta"]["emdash/scope"].endswith(":read"), name


def test_spec_scopes_and_roles(tools: list[dict[str, Any]]) -> None:
    meta = {t["name"]: t["_meta"] for t in tools}
    assert meta["content_list"] == {
        "emdash/scope": "content:read",
        "emdash/minRole": "subscriber",
        "emdash/category": "content",
    }
    assert meta["content_compare"]["emdash/minRole"] == "contributor"
    assert meta["content_list_trashed"]["emdash/minRole"] == "contributor"
    assert meta["content_create"] == {
        "emdash/scope": "content:write",
        "emdash/minRole": "author",
        "emdash/category": "content",
    }
    assert meta["content_permanent_delete"]["emdash/minRole"] == "admin"
    assert meta["schema_get_collection"] == {
        "emdash/scope": "schema:read",
        "emdash/minRole": "editor",
        "emdash/category": "schema",
    }
    assert meta["schema_create_field"] == {
        "emdash/scope": "schema:write",
        "emdash/minRole": "admin",
        "emdash/category": "schema",
    }
    assert meta["revision_list"]["emdash/minRole"] == "contributor"


def test_required_arguments_match_the_spec(tools: list[dict[str, Any]]) -> None:
    required = {t["name"]: set(t["inputSchema"].get("required", [])) for t in tools}
    assert required["content_list"] == {"collection"}
    assert required["content_get"] == {"collection", "id"}
    assert required["content_create"] == {"collection", "data"}
    assert required["content_schedule"] == {"collection", "id", "scheduledAt"}
    assert required["schema_list_collections"] == set()
    assert required["schema_create_field"] == {"collection", "slug", "label", "type"}
    assert required["schema_delete_field"] == {"collection", "fieldSlug"}
    assert required["revision_restore"] == {"revisionId"}


def test_the_list_is_built_once(mcp: MCP, monkeypatch: pytest.MonkeyPatch) -> None:
    first = registry.definitions()
    assert registry.definitions() is first
    built = []
    original = registry.Tool.definition
    monkeypatch.setattr(registry.Tool, "definition", lambda self: built.append(self.name) or original(self))
    legacy = [{k: v for k, v in tool.items() if k != "outputSchema"} for tool in first]
    # From 2025-06-18 the title is top-level only (annotations.title is its older place).
    titled = [{**tool, "annotations": {k: v for k, v in tool["annotations"].items() if k != "title"}} for tool in first]
    for version in (None, "2024-11-05", "2025-06-18", "2025-11-25", MODERN):
        listed = mcp.result("tools/list", version=version)["tools"]
        # From 2025-11-25 each entry also carries execution.taskSupport (SPEC 5.6); the rest is the same list.
        plain = [{k: v for k, v in t.items() if k != "execution"} for t in listed]
        assert plain == (titled if version in ("2025-06-18", "2025-11-25", MODERN) else legacy)
        again = mcp.result("tools/list", version=version)["tools"]
        assert again is listed or again == listed
    assert built == []
    # One list object per version, reused by every request.
    for version in ("2024-11-05", "2025-06-18", MODERN):
        assert dispatch.tool_definitions(version) is dispatch.tool_definitions(version)
    assert dispatch.tool_definitions("2025-06-18") == titled
    assert registry.definitions() is first


def test_the_list_is_the_same_for_every_caller(make_mcp: MakeMCP) -> None:
    admin = make_mcp("admin", "admin").result("tools/list")["tools"]
    reader = make_mcp("subscriber", "content:read").result("tools/list")["tools"]
    assert admin == reader


# --- 5.4 tool errors and argument validation ---------------------------------------------------------------


def assert_tool_error(result: dict[str, Any], code: str) -> dict[str, Any]:
    assert result["isError"] is True
    assert result["_meta"]["code"] == code
    assert isinstance(result["_meta"]["traceId"], str) and result["_meta"]["traceId"]
    assert result["content"][0]["type"] == "text" and result["content"][0]["text"]
    assert "structuredContent" not in result
    return result


@pytest.mark.django_db
def test_validation_error_names_every_bad_field(mcp: MCP) -> None:
    result = mcp.fails(
        "content_create",
        {"collection": 5, "data": "nope", "slug": "", "status": "live", "locale": ["en"], "bogus": 1, "another": None},
    )
    assert_tool_error(result, "VALIDATION_ERROR")
    fields = result["_meta"]["details"]["fields"]
    assert set(fields) == {"collection", "data", "slug", "status", "locale", "bogus", "another"}
    text = result["content"][0]["text"]
    for name in fields:
        assert name in text
    assert "live" not in fields["status"] or "draft" in fields["status"]


@pytest.mark.django_db
def test_missing_required_arguments_are_all_named(mcp: MCP) -> None:
    for arguments in ({}, None):
        result = assert_tool_error(mcp.fails("content_schedule", arguments), "VALIDATION_ERROR")
        assert set(result["_meta"]["details"]["fields"]) == {"collection", "id", "scheduledAt"}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("tool", "arguments", "bad"),
    [
        ("content_list", {"collection": "posts", "colection": "x"}, {"colection"}),
        (
            "content_list",
            {"collection": "posts", "limit": 0, "order": "up", "orderBy": "author"},
            {"limit", "order", "orderBy"},
        ),
        ("content_list", {"collection": "posts", "limit": 101}, {"limit"}),
        ("content_list", {"collection": "posts", "limit": 5.5}, {"limit"}),
        ("content_list", {"collection": "posts", "limit": "5"}, {"limit"}),
        ("content_list", {"collection": "posts", "limit": True}, {"limit"}),
        ("schema_list_collections", {"verbose": True}, {"verbose"}),
        ("schema_create_collection", {"slug": "Bad Slug", "label": ""}, {"slug", "label"}),
        (
            "schema_create_field",
            {"collection": "posts", "slug": "f", "label": "F", "type": "blob", "validation": {"min": "1", "nope": 1}},
            {"type", "validation.min", "validation.nope"},
        ),
        ("revision_restore", {"revisionId": "x" * 27}, {"revisionId"}),
    ],
)
def test_argument_validation(mcp: MCP, tool: str, arguments: dict, bad: set[str]) -> None:
    result = assert_tool_error(mcp.fails(tool, arguments), "VALIDATION_ERROR")
    assert set(result["_meta"]["details"]["fields"]) == bad


@pytest.mark.django_db
def test_unknown_collection_is_a_tool_error(mcp: MCP) -> None:
    assert_tool_error(mcp.fails("content_list", {"collection": "nope"}), "COLLECTION_NOT_FOUND")
    assert_tool_error(mcp.fails("schema_get_collection", {"slug": "nope"}), "COLLECTION_NOT_FOUND")


@pytest.mark.django_db
def test_tool_errors_in_every_version(mcp: MCP) -> None:
    for version in (None, "2024-11-05", "2025-06-18", "2025-11-25", MODERN):
        result = assert_tool_error(
            mcp.fails("content_list", {"collection": "nope"}, version=version), "COLLECTION_NOT_FOUND"
        )
        assert ("resultType" in result) is (version == MODERN)


# --- 5.4 audit log -------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_every_call_writes_one_audit_row(make_mcp: MakeMCP) -> None:
    client = make_mcp("admin", "content:read,schema:read")
    calls = [
        ("schema_list_collections", {}, "ok"),
        ("schema_get_collection", {"slug": "missing"}, "COLLECTION_NOT_FOUND"),
        (
            "content_list",
            {"collection": "posts", "cursor": "SECRET-CURSOR-VALUE", "bogus": "SECRET-ARG"},
            "VALIDATION_ERROR",
        ),
        ("schema_create_collection", {"slug": "secret_slug_value", "label": "SECRET-LABEL"}, "INSUFFICIENT_SCOPE"),
    ]
    trace_ids = []
    for name, arguments, outcome in calls:
        status = 403 if outcome == "INSUFFICIENT_SCOPE" else 200
        answer = client.rpc("tools/call", {"name": name, "arguments": arguments}, status=status)
        trace_ids.append(answer["result"]["_meta"]["traceId"] if "result" in answer else None)
    rows = list(AuditLog.objects.order_by("id"))
    assert [(r.action, r.outcome) for r in rows] == [(n, o) for n, _, o in calls]
    token_ref = f"pat:{client.issued.token.pk}"
    for row, trace_id in zip(rows, trace_ids, strict=True):
        assert row.user_id == client.user.pk
        assert row.token_ref == token_ref
        assert row.source == "mcp"
        assert row.duration_ms >= 0
        assert row.trace_id and (trace_id is None or row.trace_id == trace_id)
        assert abs(row.created_at - timezone.now()) < timedelta(minutes=5)
    dumped = json.dumps(list(AuditLog.objects.values()), default=str)
    for secret in ("SECRET", "secret_slug_value", client.token):
        assert secret not in dumped


@pytest.mark.django_db
def test_protocol_methods_are_not_audited_but_unknown_tool_calls_are(mcp: MCP) -> None:
    mcp.result("ping")
    mcp.result("tools/list")
    mcp.result("initialize", {"protocolVersion": "2025-06-18"})
    assert not AuditLog.objects.exists()
    mcp.error("tools/call", {"name": "no_such_tool"})
    mcp.error("tools/call", {"name": "content_list", "arguments": []})
    rows = list(AuditLog.objects.order_by("id").values_list("action", "outcome"))
    assert rows == [("no_such_tool", "UNKNOWN_TOOL"), ("content_list", "INVALID_PARAMS")]


@pytest.mark.django_db
def test_batch_calls_are_audited_each(mcp: MCP) -> None:
    response = mcp.post([request("tools/call", {"name": "schema_list_collections"}, msg_id=i) for i in range(3)])
    assert response.status_code == 200
    assert len(body_of(response)) == 3
    assert AuditLog.objects.filter(action="schema_list_collections", outcome="ok").count() == 3


# --- 5.4 success results, with content -------------------------------------------------------------------------


def test_success_text_is_compact_utf8_json(mcp: MCP, posts: Any) -> None:
    data = {"title": "Grüße ✓", "excerpt": "naïve “quotes”"}
    result = mcp.call("content_create", {"collection": "posts", "data": data}, version="2025-06-18")
    assert result["isError"] is False
    assert result["_meta"]["traceId"]
    text = result["content"][0]["text"]
    assert result["content"][0]["type"] == "text"
    payload = json.loads(text)
    assert payload == result["structuredContent"]
    assert text == json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    assert "Grüße ✓" in text and "\\u" not in text
    assert payload["item"]["data"]["title"] == "Grüße ✓"
    assert (
        "Grüße ✓".encode()
        in mcp.post(
            request(
                "tools/call", {"name": "content_get", "arguments": {"collection": "posts", "id": payload["item"]["id"]}}
            )
        ).content
    )
    assert AuditLog.objects.get(action="content_create").outcome == "ok"
    assert "Grüße" not in json.dumps(list(AuditLog.objects.values()), default=str)


def test_not_found_is_a_tool_error(mcp: MCP, posts: Any) -> None:
    result = assert_tool_error(
        mcp.fails("content_get", {"collection": "posts", "id": "01ARZ3NDEKTSV4RRFFQ69G5FAV"}), "NOT_FOUND"
    )
    assert AuditLog.objects.get(action="content_get").outcome == "NOT_FOUND"
    assert result["_meta"]["traceId"] == AuditLog.objects.get(action="content_get").trace_id


def test_content_validation_names_every_bad_field(mcp: MCP, posts: Any) -> None:
    result = assert_tool_error(
        mcp.fails("content_create", {"collection": "posts", "data": {"title": 5, "excerpt": ["x"], "nope": 1}}),
        "VALIDATION_ERROR",
    )
    fields = result["_meta"]["details"]["fields"]
    assert {"title", "excerpt", "nope"} <= {key.split(".")[-1] for key in fields}


def test_not_the_owner_is_insufficient_permissions(make_mcp: MakeMCP, posts: Any) -> None:
    alice = make_mcp("author", "content:write,content:read")
    bob = make_mcp("author", "content:write,content:read")
    item = alice.ok("content_create", {"collection": "posts", "data": {"title": "Alice's"}})["item"]
    error = bob.error(
        "tools/call",
        {
            "name": "content_update",
            "arguments": {"collection": "posts", "id": item["id"], "data": {"title": "Bob was here"}},
        },
    )
    assert error["code"] == -32600
    assert error["message"].startswith("Insufficient permissions: ")
    assert error["data"]["code"] == "INSUFFICIENT_PERMISSIONS"
    assert str(alice.user.pk) not in error["message"]


def test_every_tool_output_validates_against_its_schema(mcp: MCP, posts: Any) -> None:
    """Drive all 24 tools through a realistic session; each success must match its outputSchema."""
    schemas = {t["name"]: t.get("outputSchema") for t in mcp.result("tools/list", version="2025-06-18")["tools"]}
    seen: set[str] = set()

    def ok(name: str, arguments: dict[str, Any]) -> Any:
        result = mcp.call(name, arguments, version="2025-06-18")
        assert result["isError"] is False, (name, result)
        payload = orjson.loads(result["content"][0]["text"])
        if schemas[name] is not None:
            assert result["structuredContent"] == payload
            errors = list(Draft202012Validator(schemas[name]).iter_errors(payload))
            assert not errors, (name, [e.message for e in errors])
        seen.add(name)
        return payload

    future = (timezone.now() + timedelta(days=3)).isoformat().replace("+00:00", "Z")
    collections = ok("schema_list_collections", {})
    assert [c["slug"] for c in collections["items"]] == ["posts"]
    ok("schema_get_collection", {"slug": "posts"})
    ok("schema_create_collection", {"slug": "notes", "label": "Notes", "supports": ["drafts", "revisions"]})
    ok(
        "schema_create_field",
        {
            "collection": "notes",
            "slug": "title",
            "label": "Title",
            "type": "string",
            "required": True,
            "validation": {"maxLength": 80},
        },
    )
    ok("schema_create_field", {"collection": "notes", "slug": "rating", "label": "Rating", "type": "integer"})
    ok("schema_update_collection", {"slug": "notes", "icon": "note"})
    ok("schema_update_field", {"collection": "notes", "fieldSlug": "rating", "position": 1, "validation": {"min": 0}})
    ok("schema_delete_field", {"collection": "notes", "fieldSlug": "rating"})
    ok("schema_delete_collection", {"slug": "notes"})

    created = ok("content_create", {"collection": "posts", "data": {"title": "Hello MCP", "excerpt": "First"}})
    item_id = created["item"]["id"]
    got = ok("content_get", {"collection": "posts", "id": item_id})
    ok("content_get", {"collection": "posts", "id": "hello-mcp"})
    ok("content_update", {"collection": "posts", "id": item_id, "data": {"excerpt": "Second"}, "_rev": got["_rev"]})
    ok("content_publish", {"collection": "posts", "id": item_id})
    ok("content_update", {"collection": "posts", "id": item_id, "data": {"excerpt": "Draft change"}})
    compared = ok("content_compare", {"collection": "posts", "id": item_id})
    assert compared["hasChanges"] is True
    ok("content_discard_draft", {"collection": "posts", "id": item_id})
    ok("content_schedule", {"collection": "posts", "id": item_id, "scheduledAt": future})
    ok("content_unschedule", {"collection": "posts", "id": item_id})
    ok("content_unpublish", {"collection": "posts", "id": item_id})
    listed = ok("content_list", {"collection": "posts", "limit": 10, "orderBy": "title", "order": "asc"})
    assert [i["id"] for i in listed["items"]] == [item_id]
    ok("content_list", {"collection": "posts", "status": "published"})
    ok("content_translations", {"collection": "posts", "id": item_id})
    revisions = ok("revision_list", {"collection": "posts", "id": item_id})
    assert revisions["total"] >= 1
    ok("revision_restore", {"revisionId": revisions["items"][-1]["id"]})
    copy = ok("content_duplicate", {"collection": "posts", "id": item_id})["item"]
    ok("content_delete", {"collection": "posts", "id": copy["id"]})
    trashed = ok("content_list_trashed", {"collection": "posts"})
    assert [i["id"] for i in trashed["items"]] == [copy["id"]]
    ok("content_restore", {"collection": "posts", "id": copy["id"]})
    ok("content_delete", {"collection": "posts", "id": copy["id"]})
    ok("content_permanent_delete", {"collection": "posts", "id": copy["id"]})

    assert seen == set(EXPECTED)
    assert AuditLog.objects.exclude(outcome="ok").count() == 0
