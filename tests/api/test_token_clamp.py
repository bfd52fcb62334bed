"""Tokens hold only the scopes their user's role may hold (SPEC 3 and 9.1: "granted and clamped like the others"),
on every surface that issues them: the API (and so MCP's and the admin's token_create), the admin token page and
``emdash_token create``. Before, a contributor could mint a ``content:write`` token and a subscriber an ``admin``
one (every call was still refused by the role check, but the token said otherwise). A matrix over the role and
scope tables, as OAuth grants are clamped (accounts/oauth/grants.py)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from accounts.models import PersonalAccessToken
from emdash.permissions import scopes_for_role
from emdash.roles import Role
from emdash.scopes import Scope
from tests.api.helpers import body, call, session_client
from tests.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("role", list(Role), ids=lambda r: r.label)
def test_the_api_grants_the_scopes_the_role_may_hold_and_drops_the_rest(role: Role) -> None:
    user = make_user(role)
    allowed = scopes_for_role(role)
    answer = call(
        session_client(user), "POST", "/_emdash/api/tokens", {"name": "all", "scopes": [s.value for s in Scope]}
    )
    assert answer.status_code == 201, body(answer)
    assert set(body(answer)["token"]["scopes"]) == {s.value for s in allowed}
    assert set(PersonalAccessToken.objects.get(user=user).scopes) == {s.value for s in allowed}


@pytest.mark.parametrize(
    ("role", "scope"), [(r, s) for r in Role for s in Scope], ids=lambda v: v.label if isinstance(v, Role) else v.value
)
def test_one_scope_beyond_the_role_is_refused_with_what_the_role_may_hold(role: Role, scope: Scope) -> None:
    user = make_user(role)
    answer = call(session_client(user), "POST", "/_emdash/api/tokens", {"name": "one", "scopes": [scope.value]})
    if scope in scopes_for_role(role):
        assert answer.status_code == 201 and body(answer)["token"]["scopes"] == [scope.value]
        return
    assert answer.status_code == 400, body(answer)
    message = body(answer)["error"]["details"]["fields"]["scopes"]
    assert f"held by a {role.label}" in message
    assert not PersonalAccessToken.objects.filter(user=user).exists()


@pytest.mark.parametrize("role", list(Role), ids=lambda r: r.label)
def test_the_admin_token_page_offers_only_what_the_role_may_hold(role: Role) -> None:
    user = make_user(role)
    page = session_client(user).get("/_emdash/admin/tokens/").content.decode()
    for scope in Scope:
        assert (f'value="{scope.value}"' in page) == (scope in scopes_for_role(role)), scope


def test_emdash_token_create_clamps_and_says_what_it_dropped() -> None:
    user = make_user(Role.CONTRIBUTOR)
    out, err = StringIO(), StringIO()
    call_command(
        "emdash_token",
        "create",
        "--email",
        user.email,
        "--scopes",
        "content:read,content:write,admin",
        stdout=out,
        stderr=err,
    )
    assert PersonalAccessToken.objects.get(user=user).scopes == ["content:read"]
    assert "Not granted (a contributor cannot hold them): admin, content:write" in err.getvalue()
    with pytest.raises(CommandError, match="none of these can be held by a contributor"):
        call_command("emdash_token", "create", "--email", user.email, "--scopes", "admin", stdout=out, stderr=err)
    assert PersonalAccessToken.objects.filter(user=user).count() == 1


def test_emdash_token_create_names_what_it_dropped_from_a_space_separated_list() -> None:
    user = make_user(Role.CONTRIBUTOR)
    out, err = StringIO(), StringIO()
    call_command(
        "emdash_token", "create", "--email", user.email, "--scopes", "content:read admin", stdout=out, stderr=err
    )
    assert "Not granted (a contributor cannot hold them): admin" in err.getvalue()
