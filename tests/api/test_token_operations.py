"""API tokens as operations (issue 11): the "tokens only with admin" rule lives in the permission table and
the token service, so REST, the admin and direct service calls all enforce it; writes are audited."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts import tokens
from accounts.models import PersonalAccessToken
from audit.models import AuditLog
from emdash.errors import InsufficientScope
from emdash.permissions import RULES, Perm
from emdash.scopes import Scope
from tests.api.helpers import body, call, session_client, token_client
from tests.factories import actor, make_user

pytestmark = pytest.mark.django_db


def test_the_rule_is_in_the_permission_table() -> None:
    rule = RULES[Perm.TOKENS_MANAGE]
    assert rule.scope is Scope.ADMIN and not rule.public


@pytest.mark.parametrize("scopes", ["content:read", "content:write media:write schema:write settings:manage"])
def test_a_narrow_token_cannot_list_create_or_revoke_tokens_at_any_door(scopes: str) -> None:
    user = make_user("admin")
    client = token_client(user, scopes)
    own = tokens.token_create(user=user, name="kept", scopes="content:read").token
    for method, path, data in (
        ("GET", "/_emdash/api/tokens", None),
        ("POST", "/_emdash/api/tokens", {"name": "wider", "scopes": ["admin"]}),
        ("DELETE", f"/_emdash/api/tokens/{own.pk}", None),
    ):
        refused = call(client, method, path, data)
        assert refused.status_code == 403 and body(refused)["error"]["code"] == "INSUFFICIENT_SCOPE", path
    narrow = actor(user, scopes=scopes.split())
    with pytest.raises(InsufficientScope):
        tokens.create_own(actor=narrow, name="wider", scopes=["admin"])
    with pytest.raises(InsufficientScope):
        tokens.revoke_own(actor=narrow, token_id=own.pk)
    assert PersonalAccessToken.objects.filter(user=user).count() == 2  # the client's own and "kept"
    assert PersonalAccessToken.objects.get(pk=own.pk).revoked_at is None


def test_an_admin_scoped_token_and_a_session_manage_tokens_and_each_write_is_audited() -> None:
    user = make_user("author")
    created = call(token_client(user, "admin"), "POST", "/_emdash/api/tokens", {"name": "ci", "scopes": "content:read"})
    assert created.status_code == 201, body(created)
    token_id = body(created)["token"]["id"]
    revoked = call(session_client(user), "DELETE", f"/_emdash/api/tokens/{token_id}")
    assert body(revoked) == {"revoked": True}
    rows = list(AuditLog.objects.order_by("id").values_list("action", "source", "target", "outcome"))
    assert rows == [
        ("token_create", "rest", f"tokens/{token_id}", "ok"),
        ("token_revoke", "rest", f"tokens/{token_id}", "ok"),
    ]
    assert body(created)["secret"] not in str(list(AuditLog.objects.values()))


def test_bad_token_input_is_refused_with_field_names() -> None:
    client = session_client(make_user("editor"))
    for data, key in (
        ({"name": "x", "scopes": ["root"]}, "scopes"),
        ({"name": "", "scopes": ["content:read"]}, "name"),
        ({"name": "x", "scopes": ["content:read"], "expiresDays": 0}, "expiresDays"),
        ({"name": "x", "scopes": [1]}, "scopes"),
    ):
        refused = call(client, "POST", "/_emdash/api/tokens", data)
        assert refused.status_code == 400, data
        assert any(k.startswith(key) for k in body(refused)["error"]["details"]["fields"]), body(refused)
    assert not PersonalAccessToken.objects.exists()
    assert call(client, "DELETE", "/_emdash/api/tokens/not-a-number").status_code == 404


def test_anonymous_callers_cannot_see_tokens() -> None:
    assert Client().get("/_emdash/api/tokens").status_code == 401


def test_the_openapi_document_types_the_token_and_taxonomy_routes() -> None:
    paths = Client().get("/_emdash/api/openapi.json").json()["paths"]
    create = paths["/_emdash/api/tokens"]["post"]
    schema = create["requestBody"]["content"]["application/json"]["schema"]
    assert {"name", "scopes", "expiresDays"} <= set(schema["properties"])
    assert "secret" in create["responses"]["201"]["content"]["application/json"]["schema"]["properties"]
    for path, method in (
        ("/_emdash/api/taxonomies", "post"),
        ("/_emdash/api/taxonomies/{name}", "patch"),
        ("/_emdash/api/menus/{name}/items", "put"),
        ("/_emdash/api/content/{collection}/{id}/terms/{taxonomy}", "put"),
    ):
        operation = paths[path][method]
        assert operation["requestBody"]["content"]["application/json"]["schema"]["properties"], path
        ok = next(code for code in operation["responses"] if code.startswith("2"))
        assert operation["responses"][ok]["content"]["application/json"]["schema"]["properties"], path
