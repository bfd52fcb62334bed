"""The permission table, exercised as a matrix generated from ``permissions.RULES`` and ``scopes.IMPLIES``.

Every Perm x every role (plus anonymous) x a family of token scope sets: ``permissions.require`` must
raise exactly the error the tables predict (scope checked before role) or pass.
"""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from emdash import permissions
from emdash.actor import Actor
from emdash.errors import InsufficientPermissions, InsufficientScope
from emdash.permissions import RULES, Perm
from emdash.roles import Role
from emdash.scopes import IMPLIES, Scope

ANONYMOUS = "anonymous"
ROLES: list[Role | str] = [ANONYMOUS, *Role]


def _role_id(role: Role | str) -> str:
    return role if isinstance(role, str) else role.label


def _effective(granted: frozenset[Scope] | None) -> frozenset[Scope] | None:
    """The expectation's own reading of IMPLIES: each granted scope plus what it implies, one hop."""
    if granted is None:
        return None
    out = set(granted)
    for scope in granted:
        out |= IMPLIES.get(scope, frozenset())
    return frozenset(out)


def scope_cases(perm: Perm) -> list[tuple[str, frozenset[Scope] | None]]:
    scope = RULES[perm].scope
    cases: list[tuple[str, frozenset[Scope] | None]] = [
        ("no-token", None),
        ("exact", frozenset({scope})),
        ("all-but", frozenset(Scope) - {*RULES[perm].scopes, Scope.ADMIN}),
        ("admin", frozenset({Scope.ADMIN})),
    ]
    for also in sorted(RULES[perm].also):  # content:draft passes the draft-writing rules (SPEC 9.1)
        cases.append((f"also-{also.value}", frozenset({also})))
    implying = [s for s, implied in IMPLIES.items() if scope in implied and s is not Scope.ADMIN and s != scope]
    for s in implying:  # e.g. content:write for taxonomies:manage and menus:manage
        cases.append((f"only-{s.value}", frozenset({s})))
    return cases


def _user(role: Role, pk: int = 1000) -> User:
    return User(pk=pk, email=f"{role.label}-{pk}@example.com", role=role, is_active=True)


def make_actor(role: Role | str, granted: frozenset[Scope] | None) -> Actor:
    if role == ANONYMOUS:
        # Not something the auth layer builds for tokens, but the table must still check scope first.
        return Actor(user=None, scopes=_effective(granted))
    assert isinstance(role, Role)
    return Actor.for_user(_user(role), None if granted is None else sorted(s.value for s in granted))


def expected_outcome(perm: Perm, role: Role | str, granted: frozenset[Scope] | None) -> str:
    rule = RULES[perm]
    effective = _effective(granted)
    if effective is not None and rule.scope not in effective and not (rule.also & effective):
        return "INSUFFICIENT_SCOPE"
    role_ok = rule.public if role == ANONYMOUS else int(role) >= int(rule.min_role)
    return "ok" if role_ok else "INSUFFICIENT_PERMISSIONS"


MATRIX = [
    pytest.param(perm, role, granted, id=f"{perm.value}-{_role_id(role)}-{case}")
    for perm in RULES
    for role in ROLES
    for case, granted in scope_cases(perm)
]


def _outcome(call: Any) -> tuple[str, Exception | None]:
    try:
        call()
    except (InsufficientScope, InsufficientPermissions) as exc:
        return exc.code, exc
    return "ok", None


@pytest.mark.parametrize(("perm", "role", "granted"), MATRIX)
def test_require_matrix(perm, role, granted):
    actor = make_actor(role, granted)
    expected = expected_outcome(perm, role, granted)
    got, exc = _outcome(lambda: permissions.require(actor, perm))
    assert got == expected
    # can() is the boolean form of the same decision, has_scope/has_role its two halves
    assert permissions.can(actor, perm) is (expected == "ok")
    assert permissions.has_scope(actor, perm) is (expected != "INSUFFICIENT_SCOPE")
    rule = RULES[perm]
    if expected == "INSUFFICIENT_SCOPE":
        assert type(exc) is InsufficientScope
        assert exc.details == {"requiredScope": rule.scope.value}
        assert exc.as_dict() == {
            "code": "INSUFFICIENT_SCOPE",
            "message": exc.message,
            "details": {"requiredScope": rule.scope.value},
        }
        assert rule.scope.value in exc.message
        assert exc.status == 403
    elif expected == "INSUFFICIENT_PERMISSIONS":
        assert type(exc) is InsufficientPermissions
        assert exc.message == f"Insufficient permissions: {rule.needs}"
        assert exc.as_dict() == {"code": "INSUFFICIENT_PERMISSIONS", "message": exc.message}
        assert exc.status == 403


def test_matrix_covers_every_perm_role_and_scope_case():
    assert {p.values[0] for p in MATRIX} == set(Perm)
    assert {p.values[1] for p in MATRIX} == set(ROLES)
    assert len(MATRIX) >= len(Perm) * len(ROLES) * 4
    # the content:write -> taxonomies:manage / menus:manage hop is exercised
    ids = {p.id for p in MATRIX}
    assert f"{Perm.TAXONOMY_MANAGE.value}-editor-only-content:write" in ids
    assert f"{Perm.MENU_MANAGE.value}-editor-only-content:write" in ids


def test_every_perm_has_a_rule_with_a_readable_reason():
    assert set(RULES) == set(Perm)
    for perm, rule in RULES.items():
        assert isinstance(rule.scope, Scope), perm
        assert isinstance(rule.min_role, Role), perm
        assert rule.needs and rule.min_role.label in rule.needs, perm
        if rule.public:
            assert rule.min_role == Role.SUBSCRIBER, perm  # the public may only do what subscribers may


# SPEC section 3 "Minimum roles", as written there: guards the table the matrix is generated from.
SPEC_MINIMUM_ROLES = {
    Perm.CONTENT_READ: (Scope.CONTENT_READ, Role.SUBSCRIBER),
    Perm.MEDIA_READ: (Scope.MEDIA_READ, Role.SUBSCRIBER),
    Perm.TAXONOMY_READ: (Scope.CONTENT_READ, Role.SUBSCRIBER),
    Perm.MENU_READ: (Scope.CONTENT_READ, Role.SUBSCRIBER),
    Perm.SEARCH: (Scope.CONTENT_READ, Role.SUBSCRIBER),
    Perm.CONTENT_READ_UNPUBLISHED: (Scope.CONTENT_READ, Role.CONTRIBUTOR),
    Perm.CONTENT_CREATE: (Scope.CONTENT_WRITE, Role.AUTHOR),
    Perm.CONTENT_EDIT_OWN: (Scope.CONTENT_WRITE, Role.AUTHOR),
    Perm.CONTENT_EDIT_ANY: (Scope.CONTENT_WRITE, Role.EDITOR),
    Perm.CONTENT_DELETE_PERMANENT: (Scope.CONTENT_WRITE, Role.ADMIN),
    # SPEC 9.1: publish, unpublish, schedule, unschedule, trash, restore: content:write only (never content:draft).
    Perm.CONTENT_GO_LIVE: (Scope.CONTENT_WRITE, Role.AUTHOR),
    Perm.CONTENT_REVERT_CHANGES: (Scope.CONTENT_WRITE, Role.EDITOR),  # SPEC 9.3 changes_revert
    Perm.SCHEMA_READ: (Scope.SCHEMA_READ, Role.EDITOR),
    Perm.TAXONOMY_MANAGE: (Scope.TAXONOMIES_MANAGE, Role.EDITOR),
    Perm.MENU_MANAGE: (Scope.MENUS_MANAGE, Role.EDITOR),
    Perm.SETTINGS_READ: (Scope.SETTINGS_READ, Role.EDITOR),
    Perm.SCHEMA_WRITE: (Scope.SCHEMA_WRITE, Role.ADMIN),
    Perm.SETTINGS_MANAGE: (Scope.SETTINGS_MANAGE, Role.ADMIN),
    Perm.MEDIA_CREATE: (Scope.MEDIA_WRITE, Role.AUTHOR),
    Perm.MEDIA_EDIT_OWN: (Scope.MEDIA_WRITE, Role.AUTHOR),
    Perm.MEDIA_EDIT_ANY: (Scope.MEDIA_WRITE, Role.EDITOR),
    # SPEC 8: users and roles, and the audit log, are admin screens.
    Perm.USERS_MANAGE: (Scope.ADMIN, Role.ADMIN),
    Perm.AUDIT_READ: (Scope.ADMIN, Role.ADMIN),
    # Managing your own API tokens: any signed-in role, but a token needs the admin scope (SPEC 3, issue 11).
    Perm.TOKENS_MANAGE: (Scope.ADMIN, Role.SUBSCRIBER),
    Perm.WEBHOOKS_MANAGE: (Scope.ADMIN, Role.ADMIN),
    Perm.REDIRECTS_READ: (Scope.CONTENT_READ, Role.EDITOR),
    Perm.REDIRECTS_MANAGE: (Scope.CONTENT_WRITE, Role.EDITOR),
    Perm.BYLINES_READ: (Scope.CONTENT_READ, Role.SUBSCRIBER),  # SPEC 10: byline reads are content:read
    Perm.BYLINES_MANAGE: (Scope.CONTENT_WRITE, Role.EDITOR),  # SPEC 10: byline writes, editor
    Perm.SITE_IMPORT: (Scope.ADMIN, Role.ADMIN),  # SPEC 12: import_wordpress is admin
    Perm.MEDIA_USAGE_REPAIR: (Scope.ADMIN, Role.ADMIN),  # SPEC 10: media_usage_repair (admin)
    # SPEC 9.2: anyone author+ proposes (content:draft or content:write), editors review, publishing needs
    # content:write (and, checked per item, publish rights on every item).
    Perm.CHANGESET_READ: (Scope.CONTENT_READ, Role.AUTHOR),
    Perm.CHANGESET_PROPOSE: (Scope.CONTENT_WRITE, Role.AUTHOR),
    Perm.CHANGESET_REVIEW: (Scope.CONTENT_WRITE, Role.EDITOR),
    Perm.CHANGESET_PUBLISH: (Scope.CONTENT_WRITE, Role.AUTHOR),
}


# SPEC 9.1: content:draft creates and edits (drafts) and proposes change sets (9.2); nothing else accepts a second
# scope but reading change sets, which whoever may propose may do.
SPEC_DRAFT_RULES = {Perm.CONTENT_CREATE, Perm.CONTENT_EDIT_OWN, Perm.CONTENT_EDIT_ANY, Perm.CHANGESET_PROPOSE}
CHANGESET_READERS = {Scope.CONTENT_DRAFT, Scope.CONTENT_WRITE}


def test_rules_agree_with_the_spec_table():
    assert {p: (r.scope, r.min_role) for p, r in RULES.items()} == SPEC_MINIMUM_ROLES
    assert {p for p, r in RULES.items() if r.also} == SPEC_DRAFT_RULES | {Perm.CHANGESET_READ}
    assert all(r.also == {Scope.CONTENT_DRAFT} for p, r in RULES.items() if r.also and p in SPEC_DRAFT_RULES)
    assert RULES[Perm.CHANGESET_READ].also == CHANGESET_READERS
    assert {p for p, r in RULES.items() if r.public} == {
        Perm.CONTENT_READ,
        Perm.MEDIA_READ,
        Perm.TAXONOMY_READ,
        Perm.MENU_READ,
        Perm.SEARCH,
        Perm.BYLINES_READ,  # credits shown on published content
    }


@pytest.mark.parametrize("perm", list(RULES), ids=str)
def test_system_actor_passes_everything(perm):
    permissions.require(Actor.system(), perm)
    assert permissions.can(Actor.system(), perm)


@pytest.mark.parametrize("perm", list(RULES), ids=str)
def test_inactive_users_pass_nothing(perm):
    user = User(pk=5, email="gone@example.com", role=Role.ADMIN, is_active=False)
    with pytest.raises(InsufficientPermissions):
        permissions.require(Actor.for_user(user), perm)
    # even with every scope the role check still fails
    with pytest.raises(InsufficientPermissions):
        permissions.require(Actor.for_user(user, ["admin"]), perm)


@pytest.mark.parametrize("perm", list(RULES), ids=str)
def test_token_without_scopes_passes_nothing(perm):
    with pytest.raises(InsufficientScope) as info:
        permissions.require(Actor.for_user(_user(Role.ADMIN), []), perm)
    assert info.value.required_scope == RULES[perm].scope.value


def test_scope_is_checked_before_role():
    subscriber = Actor.for_user(_user(Role.SUBSCRIBER), ["content:read"])
    with pytest.raises(InsufficientScope) as info:
        permissions.require(subscriber, Perm.SETTINGS_MANAGE)  # both scope and role are missing
    assert info.value.details == {"requiredScope": "settings:manage"}


# --- require_owner_or ----------------------------------------------------------------------------

OWNERS = ["own", "other", "nobody"]
OWN_ANY_PAIRS = [(Perm.CONTENT_EDIT_OWN, Perm.CONTENT_EDIT_ANY), (Perm.MEDIA_EDIT_OWN, Perm.MEDIA_EDIT_ANY)]


def expected_owner_outcome(own: Perm, any_: Perm, role: Role | str, owner: str, granted: Any) -> str:
    first = expected_outcome(own, role, granted)
    if first != "ok":
        return first
    if owner == "own" and role != ANONYMOUS:
        return "ok"
    return expected_outcome(any_, role, granted)


OWNER_MATRIX = [
    pytest.param(own, any_, role, owner, granted, id=f"{own.value}-{_role_id(role)}-{owner}-{case}")
    for own, any_ in OWN_ANY_PAIRS
    for role in ROLES
    for owner in OWNERS
    for case, granted in scope_cases(own)
]


@pytest.mark.parametrize(("own", "any_", "role", "owner", "granted"), OWNER_MATRIX)
def test_require_owner_or_matrix(own, any_, role, owner, granted):
    actor = make_actor(role, granted)
    owner_id = {"own": actor.user_id if actor.user_id is not None else 1000, "other": 2000, "nobody": None}[owner]
    expected = expected_owner_outcome(own, any_, role, owner, granted)
    got, exc = _outcome(lambda: permissions.require_owner_or(actor, owner_id, own, any_))
    assert got == expected
    if exc is not None:
        # never reveals who owns the item
        assert str(owner_id) not in exc.message
        assert "@" not in exc.message


def test_anonymous_never_owns_items_of_nobody():
    """owner None == user_id None must not count as ownership."""
    with pytest.raises(InsufficientPermissions):
        permissions.require_owner_or(Actor.anonymous(), None, Perm.CONTENT_READ, Perm.CONTENT_EDIT_ANY)
    with pytest.raises(InsufficientPermissions):
        permissions.require_owner_or(
            Actor.for_user(_user(Role.AUTHOR)), None, Perm.CONTENT_EDIT_OWN, Perm.CONTENT_EDIT_ANY
        )
    # the system actor is admin and passes any_
    permissions.require_owner_or(Actor.system(), None, Perm.CONTENT_EDIT_OWN, Perm.CONTENT_EDIT_ANY)


@pytest.mark.parametrize("perm", [p for p in Perm if RULES[p].scope is Scope.CONTENT_WRITE and not RULES[p].also])
def test_a_draft_token_is_told_what_would_work_for_each_call_it_may_not_make(perm: Perm) -> None:
    """SPEC 9.1: a refusal names content:write and the change sets; it offers to propose the change in one only
    where a change set can hold it (items), never for bylines or redirects, which a change set cannot carry."""
    refused = permissions.scope_refused(make_actor(Role.ADMIN, frozenset({Scope.CONTENT_DRAFT})), perm)
    assert isinstance(refused, InsufficientScope) and refused.required_scope == "content:write"
    message = refused.message
    assert message.startswith("Insufficient scope: requires content:write.") and "change set" in message
    offers_a_change_set = "propose the change in a change set" in message
    assert offers_a_change_set == (perm not in {Perm.BYLINES_MANAGE, Perm.REDIRECTS_MANAGE, Perm.CHANGESET_REVIEW})
