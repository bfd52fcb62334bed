"""Unit tests of the role and scope tables and of how an Actor derives its role and scopes (SPEC 3)."""

from __future__ import annotations

import itertools

import pytest

from accounts.models import User
from emdash import scopes
from emdash.actor import Actor
from emdash.roles import Role, role_label
from emdash.scopes import IMPLIES, Scope

SPEC_ROLES = {"subscriber": 10, "contributor": 20, "author": 30, "editor": 40, "admin": 50}
SPEC_SCOPES = [
    "content:read",
    "content:write",
    "media:read",
    "media:write",
    "schema:read",
    "schema:write",
    "taxonomies:manage",
    "menus:manage",
    "settings:read",
    "settings:manage",
    "admin",
    "content:draft",  # SPEC 9.1 (third turn)
]


def _user(role: Role, *, active: bool = True, pk: int = 7) -> User:
    return User(pk=pk, email=f"{role.label}@example.com", role=role, is_active=active)


# --- roles -----------------------------------------------------------------------------------------


def test_roles_have_the_spec_names_and_values():
    assert {r.label: int(r) for r in Role} == SPEC_ROLES


def test_roles_are_ordered_by_value():
    ordered = sorted(Role)
    assert [r.label for r in ordered] == ["subscriber", "contributor", "author", "editor", "admin"]
    assert list(Role) == ordered  # iteration order is the rank order
    for lower, higher in itertools.pairwise(ordered):
        assert lower < higher


@pytest.mark.parametrize("name", ["editor", "EDITOR", " Editor ", "eDiToR"])
def test_role_from_name_is_case_and_space_insensitive(name):
    assert Role.from_name(name) is Role.EDITOR


@pytest.mark.parametrize("name", ["", "owner", "superuser", "editors", "40"])
def test_role_from_name_rejects_unknown_names(name):
    with pytest.raises(ValueError) as info:
        Role.from_name(name)
    message = str(info.value)
    assert "Unknown role" in message
    for label in SPEC_ROLES:
        assert label in message  # the error lists the valid roles


def test_role_choices_cover_every_role():
    assert Role.choices() == [(10, "subscriber"), (20, "contributor"), (30, "author"), (40, "editor"), (50, "admin")]


@pytest.mark.parametrize(
    ("value", "label"),
    [
        (0, "anonymous"),
        (9, "anonymous"),
        (10, "subscriber"),
        (19, "subscriber"),
        (20, "contributor"),
        (35, "author"),
        (40, "editor"),
        (50, "admin"),
        (99, "admin"),
    ],
)
def test_role_label_names_the_highest_role_at_or_below(value, label):
    assert role_label(value) == label


# --- scopes ----------------------------------------------------------------------------------------


def test_scopes_are_the_twelve_of_the_spec():
    assert [s.value for s in Scope] == SPEC_SCOPES
    assert tuple(SPEC_SCOPES) == scopes.ALL
    assert set(scopes.DESCRIPTIONS) == set(Scope)
    assert all(scopes.DESCRIPTIONS[s].strip() for s in Scope)


@pytest.mark.parametrize(
    "raw",
    [
        ["content:read", "media:write"],
        "content:read,media:write",
        "content:read media:write",
        " content:read , media:write ",
        "content:read,,media:write,",
        ("media:write", "content:read", "content:read"),
    ],
)
def test_parse_accepts_lists_and_separated_strings(raw):
    assert scopes.parse(raw) == frozenset({Scope.CONTENT_READ, Scope.MEDIA_WRITE})


def test_parse_empty_input_is_the_empty_set():
    assert scopes.parse("") == frozenset()
    assert scopes.parse([]) == frozenset()


def test_parse_returns_scope_members():
    parsed = scopes.parse("admin")
    assert parsed == {Scope.ADMIN}
    assert all(isinstance(s, Scope) for s in parsed)


@pytest.mark.parametrize(
    ("raw", "unknown"),
    [
        ("content:read,content:delete", ["content:delete"]),
        (["Content:Read"], ["Content:Read"]),
        ("superuser admin write", ["superuser", "write"]),
        (["content:read", "menus:write"], ["menus:write"]),
    ],
)
def test_parse_rejects_unknown_scopes_naming_them(raw, unknown):
    with pytest.raises(ValueError) as info:
        scopes.parse(raw)
    message = str(info.value)
    assert message.startswith("Unknown scope(s):")
    for name in unknown:
        assert name in message
    assert "valid scopes: " + ", ".join(SPEC_SCOPES) in message


def test_admin_expands_to_every_scope():
    assert scopes.expand(["admin"]) == frozenset(Scope)
    assert scopes.expand(["admin", "content:read"]) == frozenset(Scope)


def test_content_write_adds_taxonomies_and_menus_and_nothing_else():
    assert scopes.expand(["content:write"]) == {Scope.CONTENT_WRITE, Scope.TAXONOMIES_MANAGE, Scope.MENUS_MANAGE}
    # in particular not content:read, settings or schema
    assert Scope.CONTENT_READ not in scopes.expand(["content:write"])


def test_only_admin_and_content_write_imply_anything():
    assert set(IMPLIES) == {Scope.ADMIN, Scope.CONTENT_WRITE}
    assert IMPLIES[Scope.CONTENT_WRITE] == {Scope.TAXONOMIES_MANAGE, Scope.MENUS_MANAGE}
    assert IMPLIES[Scope.ADMIN] == frozenset(Scope)


@pytest.mark.parametrize("scope", [s for s in Scope if s not in IMPLIES], ids=str)
def test_other_scopes_expand_to_themselves(scope):
    assert scopes.expand([scope.value]) == {scope}


@pytest.mark.parametrize("scope", [Scope.TAXONOMIES_MANAGE, Scope.MENUS_MANAGE], ids=str)
def test_implied_scopes_do_not_imply_content_write_back(scope):
    assert Scope.CONTENT_WRITE not in scopes.expand([scope.value])


def test_expand_is_one_hop_only(monkeypatch):
    """A chain a -> b -> c grants b but not c: the implication is applied once, not transitively."""
    chained = {**IMPLIES, Scope.CONTENT_READ: frozenset({Scope.CONTENT_WRITE})}
    monkeypatch.setattr(scopes, "IMPLIES", chained)
    assert scopes.expand(["content:read"]) == {Scope.CONTENT_READ, Scope.CONTENT_WRITE}
    assert Scope.TAXONOMIES_MANAGE not in scopes.expand(["content:read"])


def test_expand_ignores_scopes_it_no_longer_knows():
    assert scopes.expand(["content:read", "legacy:scope", ""]) == {Scope.CONTENT_READ}
    assert scopes.expand([]) == frozenset()


def test_expand_accepts_scope_members_and_strings_alike():
    assert scopes.expand([Scope.CONTENT_WRITE]) == scopes.expand(["content:write"])


# --- actors ----------------------------------------------------------------------------------------


def test_system_actor_is_admin_without_owner_or_scope_limit():
    system = Actor.system()
    assert system.role == Role.ADMIN
    assert system.is_system
    assert not system.is_anonymous
    assert system.user_id is None
    assert system.scopes is None


def test_anonymous_actor_has_no_role():
    anon = Actor.anonymous()
    assert anon.is_anonymous
    assert not anon.is_system
    assert anon.role == 0
    assert anon.role < min(Role)
    assert anon.user_id is None
    assert anon.scopes is None


@pytest.mark.parametrize("role", list(Role), ids=lambda r: r.label)
def test_active_user_actor_carries_the_user_role(role):
    user = _user(role, pk=42)
    a = Actor.for_user(user)
    assert a.role == int(role)
    assert isinstance(a.role, int)
    assert a.user_id == 42
    assert not a.is_anonymous
    assert not a.is_system
    assert a.scopes is None  # session: no scope limit


@pytest.mark.parametrize("role", list(Role), ids=lambda r: r.label)
def test_inactive_user_has_no_role(role):
    a = Actor.for_user(_user(role, active=False))
    assert a.role == 0
    assert not a.is_anonymous  # still a known user, just without rights


def test_token_actor_scopes_are_expanded():
    user = _user(Role.EDITOR)
    assert Actor.for_user(user, ["content:write"]).scopes == scopes.expand(["content:write"])
    assert Actor.for_user(user, ["admin"]).scopes == frozenset(Scope)
    assert Actor.for_user(user, []).scopes == frozenset()  # a token with no scopes is not "no limit"
    assert Actor.for_user(user, None).scopes is None


@pytest.mark.django_db
def test_actor_for_saved_user_uses_the_stored_role():
    from tests.factories import make_user

    user = make_user(Role.AUTHOR)
    a = Actor.for_user(User.objects.get(pk=user.pk))
    assert a.role == Role.AUTHOR
    assert a.user_id == user.pk
    User.objects.filter(pk=user.pk).update(is_active=False)
    assert Actor.for_user(User.objects.get(pk=user.pk)).role == 0


def test_descriptions_say_what_a_scope_implies_from_the_one_table():
    text = scopes.describe(Scope.CONTENT_WRITE)
    assert text.startswith(scopes.DESCRIPTIONS[Scope.CONTENT_WRITE])
    assert "menus" in text and "taxonomy terms" in text
    assert all(s.value in text for s in scopes.IMPLIES[Scope.CONTENT_WRITE])
    assert scopes.describe(Scope.ADMIN) == scopes.DESCRIPTIONS[Scope.ADMIN]
    assert scopes.describe(Scope.MEDIA_READ) == scopes.DESCRIPTIONS[Scope.MEDIA_READ]


@pytest.mark.django_db
def test_the_token_screen_shows_the_generated_descriptions():
    from tests.api.helpers import session_client
    from tests.factories import make_user

    page = session_client(make_user("editor")).get("/_emdash/admin/tokens/").content.decode()
    assert scopes.describe(Scope.CONTENT_WRITE) in page


# --- content:draft (SPEC 9.1) ------------------------------------------------------------------------


def test_content_draft_implies_nothing_and_nothing_but_admin_implies_it():
    assert scopes.expand(["content:draft"]) == {Scope.CONTENT_DRAFT}
    implying = {s for s, implied in scopes.IMPLIES.items() if Scope.CONTENT_DRAFT in implied}
    assert implying == {Scope.ADMIN}
    assert Scope.CONTENT_DRAFT not in scopes.expand(["content:write"])


def test_admin_grants_both_content_write_and_content_draft():
    assert {Scope.CONTENT_WRITE, Scope.CONTENT_DRAFT} <= scopes.expand(["admin"])


@pytest.mark.parametrize("role", list(Role), ids=lambda r: r.label)
def test_content_draft_is_clamped_like_content_write_to_author_and_up(role):
    from emdash.permissions import scopes_for_role

    allowed = scopes_for_role(role)
    assert (Scope.CONTENT_DRAFT in allowed) is (role >= Role.AUTHOR)
    assert (Scope.CONTENT_DRAFT in allowed) is (Scope.CONTENT_WRITE in allowed)


def test_content_draft_description_says_it_never_publishes():
    text = scopes.describe(Scope.CONTENT_DRAFT)
    assert "draft" in text.lower() and "never" in text.lower()
