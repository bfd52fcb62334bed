"""SPEC 4.1: personal access tokens (format, hashed storage, last use, expiry, revocation, the command)."""

from __future__ import annotations

import hashlib
import json
import re
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.utils import timezone

from accounts import tokens
from accounts.auth import resolve_bearer
from accounts.models import PersonalAccessToken
from accounts.tokens import token_create, token_revoke
from emdash.errors import NotFound, ValidationError
from emdash.scopes import Scope
from tests.mcp.conftest import MCP, MakeMCP, fast_user, request

pytestmark = pytest.mark.django_db

PAT_RE = re.compile(r"^ec_pat_[A-Za-z0-9_-]{43}$")
PING = request("ping")


def test_format() -> None:
    user = fast_user("editor")
    raws = {token_create(user=user, name=f"t{i}", scopes="content:read").raw for i in range(20)}
    assert len(raws) == 20
    for raw in raws:
        assert PAT_RE.match(raw), raw


def test_only_the_sha256_is_stored() -> None:
    user = fast_user("editor")
    issued = token_create(user=user, name="My laptop", scopes=["content:read", "content:write"])
    stored = PersonalAccessToken.objects.get(pk=issued.token.pk)
    assert stored.token_hash == hashlib.sha256(issued.raw.encode()).hexdigest()
    assert stored.prefix == issued.raw[: len(stored.prefix)] and len(stored.prefix) < 16
    assert stored.name == "My laptop"
    assert stored.scopes == ["content:read", "content:write"]
    assert stored.last_used_at is None and stored.revoked_at is None and stored.expires_at is None
    assert not hasattr(issued.token, "raw")
    row = json.dumps(list(PersonalAccessToken.objects.filter(pk=issued.token.pk).values()), default=str)
    secret_part = issued.raw.removeprefix("ec_pat_")
    assert secret_part not in row
    assert secret_part[8:] not in row
    # nowhere else in the database either
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            quoted = connection.ops.quote_name(table)
            cursor.execute(f"SELECT * FROM {quoted}")
            for values in cursor.fetchall():
                assert not any(isinstance(v, str) and secret_part in v for v in values), table


def test_resolution_uses_the_hash(mcp: MCP) -> None:
    actor = resolve_bearer(mcp.token)
    assert actor is not None
    assert actor.user == mcp.user
    assert actor.token_id == f"pat:{mcp.issued.token.pk}"
    assert actor.scopes == frozenset(Scope)
    assert resolve_bearer(mcp.issued.token.token_hash) is None
    assert resolve_bearer("ec_pat_" + mcp.issued.token.token_hash) is None


def test_scopes_expand_one_hop(make_mcp: MakeMCP) -> None:
    client = make_mcp("admin", "content:write")
    actor = resolve_bearer(client.token)
    assert actor is not None
    assert actor.scopes == {Scope.CONTENT_WRITE, Scope.TAXONOMIES_MANAGE, Scope.MENUS_MANAGE}


def test_last_used_at_is_updated_and_throttled(mcp: MCP) -> None:
    token = PersonalAccessToken.objects.get(pk=mcp.issued.token.pk)
    assert token.last_used_at is None
    assert mcp.post(PING).status_code == 200
    token.refresh_from_db()
    first = token.last_used_at
    assert first is not None and abs(timezone.now() - first) < timedelta(minutes=1)

    assert mcp.post(PING).status_code == 200
    token.refresh_from_db()
    assert token.last_used_at == first  # no write on every request

    stale = timezone.now() - tokens.LAST_USED_RESOLUTION - timedelta(seconds=5)
    PersonalAccessToken.objects.filter(pk=token.pk).update(last_used_at=stale)
    assert mcp.post(PING).status_code == 200
    token.refresh_from_db()
    assert token.last_used_at > stale + tokens.LAST_USED_RESOLUTION


def test_failed_requests_do_not_touch_other_tokens(make_mcp: MakeMCP) -> None:
    a, b = make_mcp(), make_mcp()
    assert a.post(PING).status_code == 200
    assert PersonalAccessToken.objects.get(pk=b.issued.token.pk).last_used_at is None


def test_expiry() -> None:
    user = fast_user("editor")
    issued = token_create(user=user, name="short", scopes="content:read", expires_days=7)
    expected = timezone.now() + timedelta(days=7)
    assert abs(issued.token.expires_at - expected) < timedelta(minutes=1)
    assert issued.token.is_usable and resolve_bearer(issued.raw) is not None
    PersonalAccessToken.objects.filter(pk=issued.token.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert resolve_bearer(issued.raw) is None
    assert not PersonalAccessToken.objects.get(pk=issued.token.pk).is_usable


@pytest.mark.parametrize("days", [0, -1, 3651, "7", 1.5, True])
def test_bad_expiry_is_refused(days: object) -> None:
    with pytest.raises(ValidationError) as info:
        token_create(user=fast_user("editor"), name="x", scopes="content:read", expires_days=days)
    assert "expiresDays" in info.value.details["fields"]
    assert not PersonalAccessToken.objects.exists()


@pytest.mark.parametrize(
    ("name", "scopes", "bad"),
    [
        ("", "content:read", {"name"}),
        ("x" * 101, "content:read", {"name"}),
        ("ok", "", {"scopes"}),
        ("ok", "content:read,content:delete", {"scopes"}),
        ("  ", "nope", {"name", "scopes"}),
    ],
)
def test_bad_names_and_scopes_are_refused(name: str, scopes: str, bad: set[str]) -> None:
    with pytest.raises(ValidationError) as info:
        token_create(user=fast_user("editor"), name=name, scopes=scopes)
    assert set(info.value.details["fields"]) == bad


def test_revocation(mcp: MCP) -> None:
    token_revoke(user=mcp.user, token_id=mcp.issued.token.pk)
    stored = PersonalAccessToken.objects.get(pk=mcp.issued.token.pk)
    assert stored.revoked_at is not None and not stored.is_usable
    assert resolve_bearer(mcp.token) is None
    token_revoke(user=mcp.user, token_id=mcp.issued.token.pk)  # idempotent
    assert PersonalAccessToken.objects.get(pk=stored.pk).revoked_at == stored.revoked_at


def test_revoking_someone_elses_token_is_not_found(make_mcp: MakeMCP) -> None:
    a, b = make_mcp(), make_mcp()
    with pytest.raises(NotFound):
        token_revoke(user=b.user, token_id=a.issued.token.pk)
    with pytest.raises(NotFound):
        token_revoke(user=b.user, token_id=10**9)
    assert resolve_bearer(a.token) is not None


def test_revoking_one_token_keeps_the_others(make_mcp: MakeMCP) -> None:
    a = make_mcp()
    second = token_create(user=a.user, name="second", scopes="admin")
    token_revoke(user=a.user, token_id=a.issued.token.pk)
    assert a.post(PING).status_code == 401
    assert a.post(PING, token=second.raw).status_code == 200


# --- the emdash_token command ---------------------------------------------------------------------------


def run(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("emdash_token", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_command_prints_the_raw_token_alone_on_stdout(db: None) -> None:
    user = fast_user("editor")
    out, err = run(
        "create",
        "--email",
        user.email.upper(),
        "--scopes",
        "content:read,content:write",
        "--name",
        "CI",
        "--expires-days",
        "30",
    )
    assert out.endswith("\n")
    lines = out.splitlines()
    assert len(lines) == 1
    raw = lines[0]
    assert PAT_RE.match(raw)
    assert raw not in err and raw[7:] not in err
    token = PersonalAccessToken.objects.get(user=user)
    assert token.token_hash == hashlib.sha256(raw.encode()).hexdigest()
    assert token.name == "CI" and token.scopes == ["content:read", "content:write"]
    assert token.expires_at is not None
    actor = resolve_bearer(raw)
    assert actor is not None and actor.user == user
    client = MCP(Client(), raw)
    assert client.post(PING).status_code == 200


def test_command_list_and_revoke_never_print_secrets(db: None) -> None:
    user = fast_user("editor")
    raw = run("create", "--email", user.email, "--scopes", "content:read")[0].strip()
    listed, _ = run("list", "--email", user.email)
    token = PersonalAccessToken.objects.get(user=user)
    assert str(token.pk) in listed and "active" in listed
    assert raw[len(token.prefix) :] not in listed and token.token_hash not in listed
    run("revoke", "--email", user.email, "--id", str(token.pk))
    assert resolve_bearer(raw) is None
    assert "revoked" in run("list", "--email", user.email)[0]


@pytest.mark.parametrize(
    "args",
    [
        ("create", "--email", "nobody@example.com", "--scopes", "content:read"),
        ("create", "--email", "{email}", "--scopes", "content:nope"),
        ("create", "--email", "{email}", "--scopes", "content:read", "--expires-days", "0"),
        ("revoke", "--email", "{email}", "--id", "999999"),
    ],
)
def test_command_errors(db: None, args: tuple[str, ...]) -> None:
    user = fast_user("editor")
    with pytest.raises(CommandError):
        run(*(a.format(email=user.email) for a in args))
    assert not PersonalAccessToken.objects.exists()
