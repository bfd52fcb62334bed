"""NUL (U+0000) and lone surrogates are validation errors on every door, never 500s (SPEC 2, issue 10 item 7).

Generated from the URL conf, the MCP tool table and the REST route table: each string argument or parameter
gets a NUL and a lone surrogate, and the answer must be the door's 4xx while no table changes. PostgreSQL is
where this used to fail (it cannot store either); the suite runs on both databases.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any
from unittest import mock

import orjson
import pytest
from django.db import connection, transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from accounts.oauth import metadata
from accounts.tokens import token_create
from emdash.text import find_bad_text, is_bad_text_db_error, scrub
from mcp_endpoint import registry
from tests.api.helpers import routes
from tests.factories import make_entry, make_user, swap_service

BAD = {"nul": "a\x00b", "surrogate": "a\ud800b"}
# Rows these tables gain on every call, refused or not.
VOLATILE = {"emdash_auditlog", "django_session"}


def raw_json(value: Any) -> bytes:
    """JSON with ``\\u0000`` / ``\\ud800`` escapes, as a hostile client sends them (orjson cannot encode them)."""
    return json.dumps(value, ensure_ascii=True).encode()


def table_counts() -> dict[str, int]:
    counts = {}
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            if table in VOLATILE:
                continue
            cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
            counts[table] = cursor.fetchone()[0]
    return counts


@dataclass
class World:
    admin: Any
    token: str
    entry_id: str


@pytest.fixture
def unchanged(posts):
    """An admin with a token; afterwards, no table gained or lost rows and the sample item is untouched."""
    entry = make_entry("posts", data={"title": "Keep me"})
    admin = make_user("admin")
    world = World(admin, token_create(user=admin, name="t", scopes="admin").raw, entry.id)
    before = table_counts()
    yield world
    assert table_counts() == before
    row = posts.model.objects.get(pk=entry.id)
    assert row.version == entry.row.version and row.f_title == "Keep me"


# -- unit ----------------------------------------------------------------------------------------------


def test_find_bad_text_names_the_path():
    assert find_bad_text({"data": {"title": "ok", "body": [{"text": "x\x00"}]}}) == "data.body[0].text"
    assert find_bad_text({"a\ud800": 1}) == "a\ufffd"
    assert find_bad_text("\udc00") == ""
    assert find_bad_text({"data": {"title": "ok \U0001f600 é"}, "n": 1}) is None
    assert scrub("a\x00b\ud800") == "a\ufffdb\ufffd"


def _raw_insert(model: Any, slug: str) -> None:
    """Straight to the table, past every check."""
    now = timezone.now()
    model.objects.create(
        id="X" * 26, slug=slug, status="draft", created_at=now, updated_at=now, version=1, locale="en",
        translation_group="X" * 26,
    )  # fmt: skip


def test_database_errors_from_such_text_are_recognised(posts):
    """Defence in depth: what each database raises when such text reaches it is mapped to VALIDATION_ERROR."""
    for value in BAD.values():
        try:
            with transaction.atomic():
                _raw_insert(posts.model, value)
        except Exception as exc:
            assert is_bad_text_db_error(exc), repr(exc)
        else:
            assert connection.vendor == "sqlite" and value == BAD["nul"]  # SQLite stores NUL
            posts.model.objects.filter(id="X" * 26).delete()
    assert not is_bad_text_db_error(ValueError("invalid literal for int()"))


def _db_error(value: str) -> Exception:
    from content.schema import specs as schema

    try:
        with transaction.atomic():
            _raw_insert(schema.get_collection("posts").model, value)
    except Exception as exc:
        return exc
    pytest.skip("this database stores the value")


@pytest.mark.parametrize("kind", sorted(BAD))
def test_a_database_refusal_that_slips_through_is_a_validation_error(posts, kind, monkeypatch):
    error = _db_error(BAD[kind])
    admin = make_user("admin")
    token = token_create(user=admin, name="t", scopes="admin").raw
    swap_service(monkeypatch, "content_list", mock.Mock(side_effect=error))
    response = Client().get("/_emdash/api/content/posts", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 400, response.content
    assert orjson.loads(response.content)["error"]["code"] == "VALIDATION_ERROR"
    result = _mcp(token, "content_list", {"collection": "posts"})["result"]
    assert result["isError"] and result["_meta"]["code"] == "VALIDATION_ERROR"


# -- every route of the URL conf: path, query string and form fields ----------------------------------


def _patterns(patterns: list[Any], prefix: str = "") -> list[str]:
    found = []
    for p in patterns:
        if isinstance(p, URLResolver):
            found += _patterns(p.url_patterns, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            found.append(prefix + str(p.pattern))
    return found


def _concrete(pattern: str, fill: str = "zz") -> str | None:
    """A path for a pattern, placeholders filled; None for regex patterns we cannot fill simply."""
    path = re.sub(r"<int:\w+>", "999999", pattern)
    path = re.sub(r"<(?:\w+:)?\w+>", fill, path)
    path = re.sub(r"\(\?P<\w+>[^)]*\)", fill, path).lstrip("^").rstrip("$")
    if any(c in path for c in "()[]*+?\\"):
        return None
    return "/" + path


URL_PATHS = sorted({p for p in (_concrete(r) for r in _patterns(get_resolver().url_patterns)) if p})


def _expect_refusal(response: Any, path: str) -> None:
    assert response.status_code == 400, (path, response.status_code, response.content[:300])
    if path.startswith(metadata.MCP_PATH):
        assert orjson.loads(response.content)["error"]["code"] == -32602
    elif path.startswith((metadata.AUTHORIZE_PATH, "/_emdash/api/oauth/")):
        assert orjson.loads(response.content)["error"] == "invalid_request"
    elif path.startswith("/_emdash/api/"):
        assert orjson.loads(response.content)["error"]["code"] == "VALIDATION_ERROR"


def test_the_url_walk_covers_every_door():
    for prefix in ("/_emdash/admin/", "/_emdash/api/content/", metadata.TOKEN_PATH, metadata.MCP_PATH, "/search/"):
        assert any(p.startswith(prefix) for p in URL_PATHS), prefix


@pytest.mark.parametrize("logged_in", [False, True], ids=["anonymous", "admin-session"])
def test_every_route_refuses_nul_in_query_and_form(unchanged, logged_in):
    client = Client()
    if logged_in:
        client.force_login(unchanged.admin)
    for path in URL_PATHS:
        _expect_refusal(client.get(path, {"q": BAD["nul"]}), path)
        _expect_refusal(client.get(path, {BAD["nul"]: "1"}), path)
        form = {name: BAD["nul"] for name in ("email", "password", "label", "name", "title", "client_id", "q")}
        _expect_refusal(client.post(path, form), path)


def test_every_route_refuses_nul_in_the_path(unchanged):
    client = Client()
    client.force_login(unchanged.admin)
    for pattern in _patterns(get_resolver().url_patterns):
        if "<" not in pattern:
            continue
        path = _concrete(pattern, fill="a%00b")
        if path is None or "%00" not in path:
            continue
        response = client.get(path)
        assert response.status_code in (400, 404), (path, response.status_code)


def test_percent_encoded_surrogates_never_fail(unchanged):
    """A surrogate cannot be sent as UTF-8; its broken encoding is kept or replaced, never a 500."""
    client = Client()
    client.force_login(unchanged.admin)
    for path in URL_PATHS:
        response = client.get(f"{path}?q=%ED%A0%80&x=%C0%80")
        assert response.status_code < 500, (path, response.status_code)


# -- MCP: every string argument of every tool -----------------------------------------------------------


def _mcp(token: str, name: str, arguments: Any, *, raw: bool = False) -> dict[str, Any]:
    message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
    body = raw_json(message) if raw else orjson.dumps(message)
    response = Client().post(
        metadata.MCP_PATH, body, content_type="application/json", headers={"Authorization": f"Bearer {token}"}
    )
    assert response.status_code < 500, (name, arguments, response.content[:300])
    return {"status": response.status_code, **orjson.loads(response.content)}


def _placeholder(schema: dict[str, Any]) -> Any:
    kind = schema.get("type")
    kind = kind[0] if isinstance(kind, list) else kind
    if "enum" in schema:
        return schema["enum"][0]
    return {"integer": 1, "number": 1, "boolean": True, "object": {}, "array": []}.get(kind, "zz_missing")


def _is_stringy(schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    return kind == "string" or (isinstance(kind, list) and "string" in kind) or kind is None


def _tool_probes() -> list[tuple[str, dict[str, Any], str]]:
    """(tool, arguments, where) with one bad string per argument, nested object values included."""
    probes = []
    for tool in registry.definitions():
        schema = tool["inputSchema"]
        props = schema.get("properties", {})
        base = {k: _placeholder(props[k]) for k in schema.get("required", [])}
        for name, prop in props.items():
            if _is_stringy(prop):
                probes.append((tool["name"], {**base, name: BAD["nul"]}, name))
            kind = prop.get("type")
            if kind == "object" or (isinstance(kind, list) and "object" in kind):
                probes.append((tool["name"], {**base, name: {"title": BAD["nul"]}}, f"{name}.title"))
            if kind == "array" or (isinstance(kind, list) and "array" in kind):
                probes.append((tool["name"], {**base, name: [BAD["nul"]]}, f"{name}[0]"))
    return probes


def test_every_tool_argument_refuses_nul_and_surrogates(unchanged):
    token = unchanged.token
    probes = _tool_probes()
    with_arguments = [t["name"] for t in registry.definitions() if t["inputSchema"].get("properties")]
    assert {name for name, _, _ in probes} == set(with_arguments)
    for name, arguments, where in probes:
        result = _mcp(token, name, arguments)["result"]
        assert result["isError"] is True, (name, arguments)
        assert result["_meta"]["code"] == "VALIDATION_ERROR", (name, arguments, result)
        assert where in result["_meta"]["details"]["fields"], (name, where, result["_meta"]["details"])
        surrogate = json.loads(json.dumps(arguments).replace("\\u0000", "\\ud800"))
        answer = _mcp(token, name, surrogate, raw=True)
        assert answer["status"] == 400 and answer["error"]["code"] == -32700, (name, answer)


def test_protocol_params_and_tool_names_refuse_nul(unchanged):
    token = unchanged.token
    client = Client(headers={"Authorization": f"Bearer {token}"})
    for method, params in [
        ("tools/call", {"name": "content_\x00list", "arguments": {}}),
        ("initialize", {"protocolVersion": "2025-06-18\x00", "capabilities": {}, "clientInfo": {"name": "\x00"}}),
        ("tools/list", {"cursor": "\x00"}),
    ]:
        body = orjson.dumps({"jsonrpc": "2.0", "id": 7, "method": method, "params": params})
        response = client.post(metadata.MCP_PATH, body, content_type="application/json")
        assert response.status_code == 200, response.content
        assert orjson.loads(response.content)["error"]["code"] == -32602, (method, response.content)


# -- REST: path, query and JSON body of every route -----------------------------------------------------


@pytest.mark.parametrize("kind", sorted(BAD))
def test_every_rest_route_refuses_bad_text_in_json_bodies(unchanged, kind):
    token = unchanged.token
    client = Client(headers={"Authorization": f"Bearer {token}"})
    bad = BAD[kind]
    codes = set()
    for route in routes():
        if route.method == "GET":
            continue
        for body in ({"name": bad}, {"data": {"title": bad}}, {bad: "x"}, {"items": [{"label": bad}]}):
            response = client.generic(route.method, route.path, raw_json(body), content_type="application/json")
            # Routes that take no body (DELETE, lifecycle actions) ignore it and answer for the missing object.
            assert 400 <= response.status_code < 500, (str(route), body, response.status_code, response.content)
            codes.add(orjson.loads(response.content)["error"]["code"])
    assert "VALIDATION_ERROR" in codes


def test_rest_writes_with_bad_text_name_the_field(unchanged):
    token = unchanged.token
    client = Client(headers={"Authorization": f"Bearer {token}"})
    for kind, bad in BAD.items():
        response = client.post(
            "/_emdash/api/content/posts", raw_json({"data": {"title": bad}}), content_type="application/json"
        )
        assert response.status_code == 400, (kind, response.content)
        assert "data.title" in orjson.loads(response.content)["error"]["details"]["fields"]
        response = client.put(
            f"/_emdash/api/content/posts/{unchanged.entry_id}", raw_json({"data": {"title": bad}}), "application/json"
        )
        assert response.status_code == 400, (kind, response.content)
        response = client.post(
            "/_emdash/api/tokens", raw_json({"name": bad, "scopes": ["content:read"]}), "application/json"
        )
        assert response.status_code == 400, (kind, response.content)


# -- OAuth: form and JSON bodies, the authorize query ------------------------------------------------------


OAUTH_POSTS = [
    (metadata.TOKEN_PATH, {"grant_type": "refresh_token", "client_id": "{bad}", "refresh_token": "x"}),
    (metadata.TOKEN_PATH, {"grant_type": "{bad}", "client_id": "emdash-cli"}),
    (metadata.DEVICE_CODE_PATH, {"client_id": "{bad}"}),
    (metadata.REVOKE_PATH, {"client_id": "{bad}", "token": "x"}),
]


@pytest.mark.parametrize("kind", sorted(BAD))
@pytest.mark.parametrize(("path", "fields"), OAUTH_POSTS)
def test_oauth_endpoints_answer_invalid_request(unchanged, kind, path, fields):
    values = {k: v.replace("{bad}", BAD[kind]) for k, v in fields.items()}
    as_json = Client().post(path, raw_json(values), content_type="application/json")
    assert as_json.status_code == 400, as_json.content
    assert orjson.loads(as_json.content)["error"] == "invalid_request"
    if kind == "nul":  # a form cannot carry a surrogate (its UTF-8 is invalid and gets replaced)
        as_form = Client().post(path, values)
        assert as_form.status_code == 400, as_form.content
        assert orjson.loads(as_form.content)["error"] == "invalid_request"


@pytest.mark.parametrize("kind", sorted(BAD))
def test_registration_refuses_bad_client_metadata(unchanged, kind):
    body = {"client_name": BAD[kind], "redirect_uris": ["http://127.0.0.1:9/cb"]}
    response = Client().post(metadata.REGISTER_PATH, raw_json(body), content_type="application/json")
    assert response.status_code == 400, response.content
    assert orjson.loads(response.content)["error"] in ("invalid_request", "invalid_client_metadata")


def test_authorize_and_login_refuse_nul(unchanged):
    response = Client().get(metadata.AUTHORIZE_PATH, {"client_id": BAD["nul"], "response_type": "code"})
    assert response.status_code == 400 and orjson.loads(response.content)["error"] == "invalid_request"
    response = Client().post(metadata.LOGIN_PATH, {"email": BAD["nul"], "password": "x"})
    assert response.status_code == 400


# -- admin forms and the public site --------------------------------------------------------------------


def test_admin_forms_refuse_nul_and_create_nothing(unchanged):
    client = Client()
    client.force_login(unchanged.admin)
    for path, form in [
        ("/_emdash/admin/taxonomies/", {"name": "topics", "label": BAD["nul"]}),
        ("/_emdash/admin/menus/", {"name": "main", "label": BAD["nul"]}),
        ("/_emdash/admin/tokens/", {"name": BAD["nul"], "scopes": "content:read"}),
        ("/_emdash/admin/content/posts/new/", {"title": BAD["nul"]}),
    ]:
        response = client.post(path, form)
        assert response.status_code == 400, (path, response.status_code)
        assert b"NUL" in response.content


def test_public_search_with_nul_is_a_400(unchanged):
    assert Client().get("/search/", {"q": BAD["nul"]}).status_code == 400


def test_uploaded_file_names_lose_nul(posts, tmp_path, settings):
    """Django's multipart parser drops non-printable characters from file names, so no check is needed there."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from media.models import MediaItem

    settings.MEDIA_ROOT = str(tmp_path)
    client = Client()
    client.force_login(make_user("admin"))
    upload = SimpleUploadedFile("a\x00b.png", b"\x89PNG\r\n\x1a\n", content_type="image/png")
    response = client.post("/_emdash/admin/media/upload/", {"file": upload})
    assert response.status_code < 500
    assert all("\x00" not in name for name in MediaItem.objects.values_list("filename", flat=True))
