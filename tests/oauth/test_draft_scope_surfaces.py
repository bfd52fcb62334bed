"""SPEC 9.1: `content:draft` is offered and clamped wherever scopes are chosen (consent page, device flow,
`emdash login --scopes`, the admin token page, `emdash_token create`) and listed in discovery."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client

from accounts.models import PersonalAccessToken
from accounts.tokens import resolve_pat
from emdash.cli.main import build_parser
from emdash.roles import Role
from emdash.scopes import Scope, describe
from tests.factories import make_user
from tests.oauth.conftest import (
    authorize_query,
    consent,
    device_decide,
    exchange,
    logged_in,
    mcp_call,
    pkce,
    poll,
    start_device,
)

DRAFT = Scope.CONTENT_DRAFT.value


@pytest.mark.usefixtures("app")
def test_consent_page_offers_content_draft_with_what_it_means():
    _, challenge = pkce()
    client, _ = logged_in(Role.AUTHOR)
    page = client.get(authorize_query(challenge, scope=f"content:read {DRAFT}"))
    assert page.status_code == 200
    text = page.content.decode()
    assert DRAFT in text and "(not available to your role)" not in text
    assert "never publishes" in text  # the description people read before approving


@pytest.mark.usefixtures("app")
def test_consent_grants_content_draft_and_the_token_writes_drafts_but_cannot_publish(posts):
    verifier, challenge = pkce()
    client, _ = logged_in(Role.AUTHOR)
    query = consent(client, authorize_query(challenge, scope=f"content:read {DRAFT}"), scopes=["content:read", DRAFT])
    body = exchange(query["code"][0], verifier).json()
    assert body["scope"] == f"{DRAFT} content:read"
    token = body["access_token"]
    made = mcp_call(
        token, "tools/call", {"name": "content_create", "arguments": {"collection": "posts", "data": {"title": "A"}}}
    )
    assert made.status_code == 200 and made.json()["result"]["isError"] is False
    item = json.loads(made.json()["result"]["content"][0]["text"])["item"]["id"]
    refused = mcp_call(
        token, "tools/call", {"name": "content_publish", "arguments": {"collection": "posts", "id": item}}
    )
    assert refused.status_code == 403
    assert 'error="insufficient_scope"' in refused["WWW-Authenticate"]
    assert 'scope="content:write"' in refused["WWW-Authenticate"]
    assert "change set" in refused.json()["error"]["message"]


@pytest.mark.usefixtures("app")
def test_consent_clamps_content_draft_below_author_like_content_write():
    verifier, challenge = pkce()
    client, _ = logged_in(Role.CONTRIBUTOR)
    url = authorize_query(challenge, scope=f"content:read content:write {DRAFT}")
    text = client.get(url).content.decode()
    assert f"{DRAFT}</code> (not available to your role)" in text
    assert "content:write</code> (not available to your role)" in text
    query = consent(client, url, scopes=["content:read", "content:write", DRAFT])
    assert exchange(query["code"][0], verifier).json()["scope"] == "content:read"


@pytest.mark.usefixtures("cli_app")
@pytest.mark.parametrize(
    ("role", "granted"), [(Role.AUTHOR, f"{DRAFT} content:read"), (Role.CONTRIBUTOR, "content:read")]
)
def test_device_flow_grants_content_draft_clamped_to_the_role(role, granted):
    started = start_device(scope=f"content:read {DRAFT}").json()
    client, _ = logged_in(role)
    page = device_decide(client, started["user_code"], "lookup")  # the confirmation page lists the scopes
    assert DRAFT in page.content.decode()
    assert device_decide(client, started["user_code"]).status_code == 200
    assert poll(started["device_code"]).json()["scope"] == granted


def test_emdash_login_help_names_content_draft():
    parser = build_parser()
    login = parser._subparsers._group_actions[0].choices["login"]  # type: ignore[union-attr]
    text = login.format_help()
    assert DRAFT in text and "--scopes" in text
    args = parser.parse_args(["login", "--url", "https://cms.example.com", "--scopes", f"content:read,{DRAFT}"])
    assert args.scope == f"content:read,{DRAFT}"


@pytest.mark.django_db
def test_admin_token_page_offers_content_draft_and_issues_a_draft_token():
    user = make_user(Role.AUTHOR)
    client = Client()
    client.force_login(user)
    page = client.get("/_emdash/admin/tokens/").content.decode()
    assert f'value="{DRAFT}"' in page and describe(Scope.CONTENT_DRAFT)[:40] in page
    response = client.post(
        "/_emdash/admin/tokens/", {"name": "assistant", "scopes": ["content:read", DRAFT]}, follow=True
    )
    assert response.status_code == 200
    raw = response.context["issued"]["raw"]
    actor = resolve_pat(raw)
    assert actor is not None and actor.scopes == {Scope.CONTENT_READ, Scope.CONTENT_DRAFT}
    assert PersonalAccessToken.objects.get(user=user).scopes == [DRAFT, "content:read"]


@pytest.mark.django_db
def test_emdash_token_create_accepts_content_draft():
    user = make_user(Role.EDITOR)
    out, err = StringIO(), StringIO()
    call_command(
        "emdash_token", "create", "--email", user.email, "--scopes", f"content:read,{DRAFT}", stdout=out, stderr=err
    )
    raw = out.getvalue().strip()
    actor = resolve_pat(raw)
    assert actor is not None and Scope.CONTENT_DRAFT in actor.scopes and Scope.CONTENT_WRITE not in actor.scopes


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path",
    [
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/_emdash/api/mcp",
        "/.well-known/oauth-authorization-server/_emdash",
    ],
)
def test_discovery_lists_content_draft(path):
    assert DRAFT in Client().get(path).json()["scopes_supported"]
