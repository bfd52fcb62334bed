"""Issue 21.4: deeply nested JSON is a clear 400 at every door, never a RecursionError (500).

One parser (``emdash.json_input``) serves MCP, REST, OAuth and the admin's JSON fields: 10 KB of ``[`` and a
well-formed value nested past ``MAX_DEPTH`` get the door's validation answer and change nothing.
"""

from __future__ import annotations

import orjson
import pytest
from django.test import Client

from accounts.tokens import token_create
from content.entries import selectors
from emdash.actor import Actor
from emdash.json_input import MAX_DEPTH
from menus import selectors as menu_selectors
from menus import services as menu_services
from tests.factories import make_user

OPEN_BRACKETS = b"[" * 10_000  # the attacker's 10 KB body
CLOSED = b"[" * (MAX_DEPTH + 5) + b"1" + b"]" * (MAX_DEPTH + 5)  # valid JSON, too deep
SYSTEM = Actor.system()

REST_POSTS = [
    "/_emdash/api/content/posts",
    "/_emdash/api/menus",
    "/_emdash/api/taxonomies",
    "/_emdash/api/redirects",
    "/_emdash/api/webhooks",
    "/_emdash/api/tokens",
]


def rest_client() -> Client:
    issued = token_create(user=make_user("admin"), name="deep", scopes="admin")
    return Client(headers={"Authorization": f"Bearer {issued.raw}"})


@pytest.mark.parametrize("path", REST_POSTS)
@pytest.mark.parametrize("body", [OPEN_BRACKETS, b'{"data": ' + CLOSED + b"}"], ids=["open", "closed"])
def test_rest_answers_validation_error(posts, path: str, body: bytes) -> None:
    response = rest_client().generic("POST", path, body, "application/json")
    assert response.status_code == 400, response.content[:300]
    error = orjson.loads(response.content)["error"]
    assert error["code"] == "VALIDATION_ERROR"
    if body is not OPEN_BRACKETS:
        assert f"nesting deeper than {MAX_DEPTH} levels" in error["message"]


@pytest.mark.django_db
@pytest.mark.parametrize("body", [b'{"a": "\xed\xa0\x80"}', b'{"a": "\xef\xbf"}', b'"\\ud800" \xff'])
def test_rest_bad_utf8_near_surrogates_is_a_400(body: bytes) -> None:
    response = rest_client().generic("POST", "/_emdash/api/menus", body, "application/json")
    assert response.status_code == 400, response.content[:300]
    assert orjson.loads(response.content)["error"]["code"] == "VALIDATION_ERROR"


@pytest.mark.django_db
@pytest.mark.parametrize("body", [OPEN_BRACKETS, CLOSED])
def test_oauth_registration_answers_invalid_client_metadata(body: bytes) -> None:
    response = Client().generic("POST", "/_emdash/api/oauth/register", body, "application/json")
    assert response.status_code == 400 and response.json()["error"] == "invalid_client_metadata"


@pytest.mark.django_db
def test_mcp_answers_parse_error() -> None:
    issued = token_create(user=make_user("admin"), name="deep", scopes="admin")
    headers = {"Authorization": f"Bearer {issued.raw}", "Accept": "application/json, text/event-stream"}
    response = Client(headers=headers).generic("POST", "/_emdash/api/mcp", OPEN_BRACKETS, "application/json")
    assert orjson.loads(response.content)["error"]["code"] == -32700


@pytest.mark.parametrize("field", ["meta", "body"])  # a json field and a rich-text (Portable Text) field
@pytest.mark.parametrize("raw", [OPEN_BRACKETS.decode(), CLOSED.decode()], ids=["open", "closed"])
def test_admin_json_and_rich_text_fields_answer_on_the_field(kitchen_sink, as_role, field: str, raw: str) -> None:
    client, _ = as_role("editor")
    response = client.post("/_emdash/admin/content/things/new/", {"f_title": "Deep", f"f_{field}": raw})
    assert response.status_code == 400
    assert "could not be read" in response.content.decode() or "is not valid JSON" in response.content.decode()
    assert selectors.entry_list(actor=SYSTEM, collection="things").rows == []


@pytest.mark.parametrize("raw", [OPEN_BRACKETS.decode(), CLOSED.decode()], ids=["open", "closed"])
def test_admin_menu_editor_answers_on_the_form(posts, as_role, raw: str) -> None:
    client, _ = as_role("editor")
    menu_services.menu_create(actor=SYSTEM, name="footer", label="Footer")
    response = client.post("/_emdash/admin/menus/footer/", {"items_json": raw})
    assert response.status_code == 400
    assert menu_selectors.menu_get(actor=SYSTEM, name="footer")["items"] == []


@pytest.mark.parametrize("kind", [bytes, str])
def test_the_depth_limit_holds_at_its_edge_and_brackets_in_strings_do_not_refuse(kind) -> None:
    from emdash.json_input import BadJSON, loads

    def encode(text: str) -> bytes | str:
        return text.encode() if kind is bytes else text

    at_limit = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert loads(encode(at_limit)) is not None
    with pytest.raises(BadJSON, match="nesting deeper"):
        loads(encode("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)))
    with pytest.raises(BadJSON, match="nesting deeper"):
        loads(encode('{"a": [' * 40 + "1" + "]}" * 40))  # objects and lists mixed
    text = '{"title": "' + "[{" * 100 + '"}'  # many brackets, all in a string: shallow, accepted
    assert loads(encode(text)) == {"title": "[{" * 100}
    assert loads(memoryview(b"[[1]]")) == [[1]]
