"""SPEC 5.1: stateless Streamable HTTP transport (methods, headers, origins, size limit, batches)."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from tests.mcp.conftest import HANDSHAKE, MCP, MODERN, URL, body_of, drained, encode, notification, request

pytestmark = pytest.mark.django_db

PING = request("ping")
FOREIGN = "https://evil.example.net"


def assert_error(response, status: int, code: int, msg_id=None) -> dict:
    assert response.status_code == status, (response.status_code, response.content[:300])
    answer = body_of(response)
    assert answer["jsonrpc"] == "2.0"
    assert answer["id"] == msg_id
    assert answer["error"]["code"] == code
    assert isinstance(answer["error"]["message"], str) and answer["error"]["message"]
    assert "result" not in answer
    return answer["error"]


# --- HTTP methods ---------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["GET", "DELETE", "PUT", "PATCH"])
def test_other_methods_are_405_with_allow_post_and_a_jsonrpc_body(mcp: MCP, method: str) -> None:
    response = mcp.client.generic(
        method,
        URL,
        b'{"jsonrpc":"2.0","id":1,"method":"ping"}',
        content_type="application/json",
        headers={"Authorization": f"Bearer {mcp.token}", "Accept": "text/event-stream"},
    )
    error = assert_error(response, 405, -32000)
    assert response["Allow"] == "POST"
    assert "stateless" in error["message"]
    assert drained(response)


def test_get_without_credentials_is_still_405(db: None) -> None:
    response = Client().get(URL, headers={"Accept": "text/event-stream"})
    assert_error(response, 405, -32000)
    assert response["Allow"] == "POST"


def test_preflight_for_an_allowed_origin(db: None) -> None:
    response = Client().options(
        URL,
        headers={
            "Origin": "http://testserver",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type, mcp-protocol-version",
        },
    )
    assert response.status_code in (200, 204)
    assert response["Access-Control-Allow-Origin"] == "http://testserver"
    assert "POST" in response["Access-Control-Allow-Methods"]
    allowed = {h.strip().lower() for h in response["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "content-type", "accept", "mcp-protocol-version", "mcp-method", "mcp-name"} <= allowed
    assert "origin" in response["Vary"].lower()  # header names are case-insensitive (django-cors-headers: "origin")


@override_settings(EMDASH={"ALLOWED_ORIGINS": ["https://app.example.com"]})
def test_preflight_for_a_configured_origin(db: None) -> None:
    response = Client().options(
        URL, headers={"Origin": "https://app.example.com", "Access-Control-Request-Method": "POST"}
    )
    assert response.status_code in (200, 204)
    assert response["Access-Control-Allow-Origin"] == "https://app.example.com"


def test_preflight_for_a_foreign_origin_is_refused(db: None) -> None:
    response = Client().options(URL, headers={"Origin": FOREIGN, "Access-Control-Request-Method": "POST"})
    assert response.status_code == 403
    assert not response.has_header("Access-Control-Allow-Origin")


def test_preflight_consumes_a_body(db: None) -> None:
    response = Client().generic("OPTIONS", URL, b"x" * 5000, content_type="text/plain", headers={"Origin": FOREIGN})
    assert response.status_code == 403
    assert drained(response)


# --- content negotiation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content_type",
    [
        "text/plain",
        "application/x-www-form-urlencoded",
        "application/jsonx",
        "application/json-patch+json",
        "multipart/form-data; boundary=x",
        "",
    ],
)
def test_content_type_must_be_json(mcp: MCP, content_type: str) -> None:
    response = mcp.post(PING, content_type=content_type)
    assert_error(response, 415, -32600)
    assert drained(response)


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8", "Application/JSON"])
def test_json_content_types_accepted(mcp: MCP, content_type: str) -> None:
    response = mcp.post(PING, content_type=content_type)
    assert response.status_code == 200
    assert body_of(response)["result"] == {}


@pytest.mark.parametrize("accept", ["text/html", "text/event-stream", "image/png, text/plain"])
def test_accept_excluding_json_is_406(mcp: MCP, accept: str) -> None:
    response = mcp.post(PING, headers={"Accept": accept})
    assert_error(response, 406, -32600)
    assert drained(response)


@pytest.mark.parametrize(
    "accept",
    [
        None,
        "*/*",
        "application/json",
        "application/json, text/event-stream",
        "text/event-stream, application/json;q=0.9",
        "application/*",
    ],
)
def test_lenient_accept(mcp: MCP, accept: str | None) -> None:
    response = mcp.post(PING, headers={"Accept": accept} if accept else {})
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("application/json")
    assert body_of(response) == {"jsonrpc": "2.0", "id": 1, "result": {}}


# --- origins ------------------------------------------------------------------------------------------


def test_foreign_origin_is_403(mcp: MCP) -> None:
    response = mcp.post(PING, headers={"Origin": FOREIGN})
    assert_error(response, 403, -32000)
    assert not response.has_header("Access-Control-Allow-Origin")
    assert drained(response)


def test_foreign_origin_is_403_even_without_credentials(db: None) -> None:
    response = MCP(Client(), None).post(PING, headers={"Origin": FOREIGN})
    assert response.status_code == 403


def test_same_origin_is_allowed_and_gets_cors_headers(mcp: MCP) -> None:
    response = mcp.post(PING, headers={"Origin": "http://testserver"})
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == "http://testserver"
    assert "origin" in response["Vary"].lower()  # header names are case-insensitive (django-cors-headers: "origin")


def test_no_origin_header_is_fine(mcp: MCP) -> None:
    response = mcp.post(PING)
    assert response.status_code == 200
    assert not response.has_header("Access-Control-Allow-Origin")


@override_settings(EMDASH={"ALLOWED_ORIGINS": ["https://app.example.com", "https://other.example.com/"]})
def test_configured_origins_are_allowed(mcp: MCP) -> None:
    for origin in ("https://app.example.com", "https://other.example.com"):
        response = mcp.post(PING, headers={"Origin": origin})
        assert response.status_code == 200, origin
        assert response["Access-Control-Allow-Origin"] == origin
    assert mcp.post(PING, headers={"Origin": "https://app.example.com.evil.net"}).status_code == 403
    assert mcp.post(PING, headers={"Origin": "http://app.example.com"}).status_code == 403


@override_settings(EMDASH={"SITE_URL": "https://cms.example.com/"})
def test_site_url_origin_is_allowed(mcp: MCP) -> None:
    assert mcp.post(PING, headers={"Origin": "https://cms.example.com"}).status_code == 200


@pytest.mark.parametrize(
    "origin", ["http://localhost:3000", "http://127.0.0.1:6274", "http://[::1]:8080", "http://app.localhost:5173"]
)
def test_loopback_origins_only_in_debug(mcp: MCP, origin: str) -> None:
    with override_settings(DEBUG=False):
        assert mcp.post(PING, headers={"Origin": origin}).status_code == 403
    with override_settings(DEBUG=True):
        response = mcp.post(PING, headers={"Origin": origin})
        assert response.status_code == 200
        assert response["Access-Control-Allow-Origin"] == origin


def test_cors_exposes_www_authenticate_on_401(db: None) -> None:
    response = MCP(Client(), None).post(PING, headers={"Origin": "http://testserver"})
    assert response.status_code == 401
    assert response["Access-Control-Allow-Origin"] == "http://testserver"
    assert "WWW-Authenticate" in response["Access-Control-Expose-Headers"]


# --- body size ----------------------------------------------------------------------------------------


@override_settings(EMDASH={"MCP_MAX_BODY": 1000})
def test_body_over_the_limit_is_413(mcp: MCP) -> None:
    big = request("ping", {"padding": "x" * 2000})
    response = mcp.post(big)
    assert_error(response, 413, -32600)
    assert drained(response)


@override_settings(EMDASH={"MCP_MAX_BODY": 1000})
def test_body_over_the_limit_is_413_before_auth_and_parsing(db: None) -> None:
    response = MCP(Client(), None).post(b"{" * 1500)
    assert response.status_code == 413
    assert drained(response)


@override_settings(EMDASH={"MCP_MAX_BODY": 1000})
def test_body_at_the_limit_is_accepted(mcp: MCP) -> None:
    size = len(encode(request("ping", {"padding": ""})))
    exact = request("ping", {"padding": "x" * (1000 - size)})
    assert len(encode(exact)) == 1000
    response = mcp.post(exact)
    assert response.status_code == 200
    assert body_of(response)["result"] == {}
    one_more = request("ping", {"padding": "x" * (1001 - size)})
    assert mcp.post(one_more).status_code == 413


def test_default_limit_is_4_mib(mcp: MCP) -> None:
    base = len(encode(request("ping", {"padding": ""})))
    assert mcp.post(request("ping", {"padding": "x" * (4 * 1024 * 1024 - base)})).status_code == 200
    assert mcp.post(request("ping", {"padding": "x" * (4 * 1024 * 1024 - base + 1)})).status_code == 413


# --- protocol version header ----------------------------------------------------------------------------


@pytest.mark.parametrize("version", ["2099-01-01", "2025-03-25", "1.0", "", "v999.0.0", "latest"])
def test_unsupported_protocol_version_header_is_400(mcp: MCP, version: str) -> None:
    response = mcp.post(PING, headers={"MCP-Protocol-Version": version})
    assert response.status_code == 400
    answer = body_of(response)
    assert answer["id"] == 1  # the request's id, not null (2026-07-28 conformance)
    error = answer["error"]
    assert error["code"] == -32022
    assert error["data"]["requested"] == version
    # clients fall back cleanly when the error names a handshake version they know (docs/mcp-wire-notes.md §3)
    assert set(HANDSHAKE) <= set(error["data"]["supported"])
    assert drained(response)


@pytest.mark.parametrize("version", [*HANDSHAKE, MODERN])
def test_supported_protocol_version_headers(mcp: MCP, version: str) -> None:
    assert "result" in mcp.rpc("tools/list", version=version)
    if version != MODERN:  # ping was removed in 2026-07-28
        assert "result" in mcp.rpc("ping", version=version)


def test_unsupported_version_error_without_a_parseable_body_has_id_null(mcp: MCP) -> None:
    response = mcp.post(b"{not json", headers={"MCP-Protocol-Version": "2099-01-01"})
    assert response.status_code == 400
    assert body_of(response)["id"] is None and body_of(response)["error"]["code"] == -32022


@pytest.mark.parametrize("version", [" 2025-06-18", "2025-06-18 "])
def test_whitespace_around_the_version_header_is_ignored(mcp: MCP, version: str) -> None:
    assert "result" in mcp.rpc("ping", headers={"MCP-Protocol-Version": version})


# --- notifications, responses, sessions ---------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        notification("notifications/initialized"),
        notification("notifications/cancelled", {"requestId": 1, "reason": "x"}),
        notification("notifications/unknown/thing"),
        {"jsonrpc": "2.0", "id": 7, "result": {}},
        {"jsonrpc": "2.0", "id": "abc", "error": {"code": -1, "message": "no"}},
        {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}},
    ],
)
@pytest.mark.parametrize("version", [None, "2025-06-18", "2025-11-25"])
def test_notifications_and_responses_are_202_with_an_empty_body(mcp: MCP, body: dict, version: str | None) -> None:
    response = mcp.post(body, version=version)
    assert response.status_code == 202
    assert response.content == b""


def test_batch_of_only_notifications_and_responses_is_202(mcp: MCP) -> None:
    response = mcp.post([notification("notifications/initialized"), {"jsonrpc": "2.0", "id": 1, "result": {}}])
    assert response.status_code == 202
    assert response.content == b""


def test_session_id_header_is_ignored(mcp: MCP) -> None:
    response = mcp.post(PING, headers={"Mcp-Session-Id": "does-not-exist-" + "z" * 40})
    assert response.status_code == 200
    assert body_of(response)["result"] == {}
    assert not response.has_header("Mcp-Session-Id")
    init = mcp.post(
        request(
            "initialize",
            {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
        )
    )
    assert not init.has_header("Mcp-Session-Id")


# --- batches --------------------------------------------------------------------------------------------


BATCH = [
    request("ping", msg_id=1),
    notification("notifications/initialized"),
    request("tools/list", msg_id="two"),
    {"jsonrpc": "2.0", "id": 99, "result": {}},
    request("no/such/method", msg_id=3),
]


@pytest.mark.parametrize("version", [None, "2025-03-26"])
def test_batches_accepted_for_2025_03_26(mcp: MCP, version: str | None) -> None:
    response = mcp.post(BATCH, version=version)
    assert response.status_code == 200
    answers = body_of(response)
    assert isinstance(answers, list)
    assert [a["id"] for a in answers] == [1, "two", 3]
    assert answers[0]["result"] == {}
    assert len(answers[1]["result"]["tools"]) >= 24
    assert answers[2]["error"]["code"] == -32601


def test_batch_with_invalid_members(mcp: MCP) -> None:
    response = mcp.post([request("ping", msg_id=5), 42, {"jsonrpc": "1.0", "id": 6, "method": "ping"}])
    assert response.status_code == 200
    answers = body_of(response)
    assert answers[0] == {"jsonrpc": "2.0", "id": 5, "result": {}}
    assert answers[1]["id"] is None and answers[1]["error"]["code"] == -32600
    assert answers[2]["id"] == 6 and answers[2]["error"]["code"] == -32600


def test_empty_batch_is_invalid(mcp: MCP) -> None:
    response = mcp.post([])
    assert response.status_code in (200, 400)
    assert body_of(response)["error"]["code"] == -32600


@pytest.mark.parametrize("version", ["2025-06-18", "2025-11-25", "2024-11-05", MODERN])
def test_batches_rejected_for_other_versions(mcp: MCP, version: str) -> None:
    response = mcp.post(BATCH, version=version)
    assert response.status_code == 200
    answer = body_of(response)
    assert isinstance(answer, dict)
    assert answer["id"] is None
    assert answer["error"]["code"] == -32600
    assert answer["error"]["message"].startswith("Batch requests are not supported")


# --- every early answer drains the body ------------------------------------------------------------------


@override_settings(EMDASH={"MCP_MAX_BODY": 100_000})
@pytest.mark.parametrize("case", ["415", "406", "403", "400-version", "413", "401", "401-bad", "400-parse", "405"])
def test_every_early_answer_consumes_the_body(mcp: MCP, case: str) -> None:
    body = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"p":"' + b"x" * 50_000 + b'"}}'
    kwargs: dict = {}
    if case == "415":
        kwargs["content_type"] = "text/plain"
    elif case == "406":
        kwargs["headers"] = {"Accept": "text/html"}
    elif case == "403":
        kwargs["headers"] = {"Origin": FOREIGN}
    elif case == "400-version":
        kwargs["version"] = "1999-01-01"
    elif case == "413":
        body += b" " * 60_000
    elif case == "401":
        kwargs["token"] = None
    elif case == "401-bad":
        kwargs["token"] = "ec_pat_nope"
    elif case == "400-parse":
        body = body[:-1]
    if case == "405":
        response = mcp.client.generic("GET", URL, body, content_type="application/json")
    else:
        response = mcp.post(body, **kwargs)
    assert response.status_code >= 400
    assert drained(response), case
