"""Ownership matrix: every content lifecycle action and read x every role x owner x item status.

The expected outcome of each cell is derived from ``permissions.RULES`` (SPEC 3: author own / editor
any / admin permanent delete; contributors read drafts; subscribers and the public see published items
only and get NOT_FOUND, not a permission error, for anything else). Denied calls and reads must leave
the item exactly as it was. Error messages never name authors (ids or emails).

Each test covers one (action, role) pair and loops over owners and statuses, creating fresh items in
one collection, so the run stays fast while the matrix grows with the tables.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from content.entries import rows, selectors, services
from content.models import Revision
from content.schema import specs as schema
from emdash.actor import Actor
from emdash.errors import EmDashError
from emdash.permissions import RULES, Perm
from emdash.roles import Role
from tests.factories import SYSTEM, make_entry, make_user

ANONYMOUS = "anonymous"
ROLES: list[Role | str] = [ANONYMOUS, *Role]
OWNERS = ("own", "other", "nobody")
STATUSES = ("published", "draft", "scheduled")  # published = live version plus a pending draft
OK = "ok"
FIRST, LIVE, DRAFT, CHANGED = "First title", "Live title", "Draft title", "Changed by the matrix"


def _role_id(role: Role | str) -> str:
    return role if isinstance(role, str) else role.label


def role_allows(role: Role | str, perm: Perm) -> bool:
    rule = RULES[perm]
    return rule.public if role == ANONYMOUS else int(role) >= int(rule.min_role)


@dataclass
class Cell:
    """One item under test and everything the checks need to know about it."""

    owner: str
    status: str
    entry_id: str
    revision_ids: list[str]
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Action:
    name: str
    perm: Perm
    any_perm: Perm | None = None  # owner-gated: items of others (or of nobody) need this too
    read: bool = False
    hides_unpublished: bool = False  # without CONTENT_READ_UNPUBLISHED, unpublished items are NOT_FOUND
    prepare: str | None = None  # "trash" or "schedule" before the call
    only_published_once: bool = False  # VALIDATION_ERROR on items never published


def _future() -> str:
    return (timezone.now() + timedelta(days=2)).isoformat()


ACTIONS: dict[str, Action] = {
    a.name: a
    for a in [
        Action("update", Perm.CONTENT_EDIT_OWN, Perm.CONTENT_EDIT_ANY),
        Action("trash", Perm.CONTENT_EDIT_OWN, Perm.CONTENT_EDIT_ANY),
        Action("restore", Perm.CONTENT_EDIT_OWN, Perm.CONTENT_EDIT_ANY, prepare="trash"),
        Action("permanent_delete", Perm.CONTENT_DELETE_PERMANENT, prepare="trash"),
        Action("publish", Perm.CONTENT_EDIT_OWN, Perm.CONTENT_EDIT_ANY),
        Action("unpublish", Perm.CONTENT_EDIT_OWN, Perm.CONTENT_EDIT_ANY),
        Action("schedule", Perm.CONTENT_EDIT_OWN, Perm.CONTENT_EDIT_ANY),
        Action("unschedule", Perm.CONTENT_EDIT_OWN, Perm.CONTENT_EDIT_ANY, prepare="schedule"),
        Action("discard_draft", Perm.CONTENT_EDIT_OWN, Perm.CONTENT_EDIT_ANY, only_published_once=True),
        Action("duplicate", Perm.CONTENT_CREATE),
        Action("revision_restore", Perm.CONTENT_EDIT_OWN, Perm.CONTENT_EDIT_ANY),
        Action("get", Perm.CONTENT_READ, read=True, hides_unpublished=True),
        Action("list", Perm.CONTENT_READ, read=True),
        Action("list_trashed", Perm.CONTENT_READ_UNPUBLISHED, read=True, prepare="trash"),
        Action("compare", Perm.CONTENT_READ_UNPUBLISHED, read=True),
        Action("translations", Perm.CONTENT_READ, read=True, hides_unpublished=True),
        Action("revision_list", Perm.CONTENT_READ_UNPUBLISHED, read=True),
    ]
}


def expected_outcome(action: Action, role: Role | str, owner: str, status: str) -> str:
    needed = [action.perm]
    if action.any_perm is not None and (owner != "own" or role == ANONYMOUS):
        needed.append(action.any_perm)
    if not all(role_allows(role, p) for p in needed):
        return "INSUFFICIENT_PERMISSIONS"
    if action.hides_unpublished and status != "published" and not role_allows(role, Perm.CONTENT_READ_UNPUBLISHED):
        return "NOT_FOUND"
    if action.only_published_once and status != "published":
        return "VALIDATION_ERROR"
    return OK


def sees_unpublished(role: Role | str) -> bool:
    return role_allows(role, Perm.CONTENT_READ_UNPUBLISHED)


# --- calling the services ------------------------------------------------------------------------


def call(action: Action, actor: Actor, cell: Cell, ident: str | None = None) -> Any:
    ident = cell.entry_id if ident is None else ident
    kw: dict[str, Any] = {"actor": actor, "collection": "posts", "id": ident}
    match action.name:
        case "update":
            return services.entry_update(**kw, data={"title": CHANGED})
        case "trash":
            return services.entry_trash(**kw)
        case "restore":
            return services.entry_restore(**kw)
        case "permanent_delete":
            return services.entry_delete_permanently(**kw)
        case "publish":
            return services.entry_publish(**kw)
        case "unpublish":
            return services.entry_unpublish(**kw)
        case "schedule":
            return services.entry_schedule(**kw, scheduled_at=cell.extra["when"])
        case "unschedule":
            return services.entry_unschedule(**kw)
        case "discard_draft":
            return services.entry_discard_draft(**kw)
        case "duplicate":
            return services.entry_duplicate(**kw)
        case "revision_restore":
            rid = cell.revision_ids[0] if ident == cell.entry_id else "01ARZ3NDEKTSV4RRFFQ69G5FAV"
            return services.revision_restore(actor=actor, revision_id=rid)
        case "get":
            return selectors.entry_get(**kw)
        case "list":
            return selectors.entry_list(actor=actor, collection="posts", limit=100, full=True)
        case "list_trashed":
            return selectors.entry_list_trashed(actor=actor, collection="posts", limit=100)
        case "compare":
            return selectors.entry_compare(**kw)
        case "translations":
            return selectors.entry_translations(**kw)
        case "revision_list":
            return selectors.revision_list(**kw, limit=50)
    raise AssertionError(f"no call for {action.name}")


def outcome(fn: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return OK, fn()
    except EmDashError as exc:
        return exc.code, exc


# --- state ---------------------------------------------------------------------------------------


def spec():
    return schema.get_collection("posts")


def snapshot(entry_id: str) -> dict[str, Any]:
    model = spec().model
    return {
        "row": model.objects.filter(pk=entry_id).values().first(),
        "revisions": sorted(
            Revision.objects.filter(collection="posts", entry_id=entry_id).values_list("id", flat=True)
        ),
        "rows_total": model.objects.count(),
        "revisions_total": Revision.objects.count(),
    }


def row_of(entry_id: str):
    return spec().model.objects.filter(pk=entry_id).first()


def live_title(entry_id: str) -> str:
    return rows.row_values(spec(), row_of(entry_id))["title"]


def current_title(entry_id: str) -> str:
    return rows.current_values(spec(), row_of(entry_id))["title"]


def make_item(owner: str, owner_id: int | None, status: str, prepare: str | None) -> Cell:
    """``published``: live "Live title" with a pending draft "Draft title"; ``draft``: never published,
    "Draft title"; ``scheduled``: that draft scheduled for later. The oldest revision says "First title"."""
    with transaction.atomic():  # one commit per item keeps the matrix fast
        return _make_item(owner, owner_id, status, prepare)


def _make_item(owner: str, owner_id: int | None, status: str, prepare: str | None) -> Cell:
    entry = make_entry(data={"title": FIRST, "excerpt": "x"})
    kw = {"actor": SYSTEM, "collection": "posts", "id": entry.id}
    if status == "published":
        services.entry_update(**kw, data={"title": LIVE})
        services.entry_publish(**kw)
    services.entry_update(**kw, data={"title": DRAFT})
    if status == "scheduled" or prepare == "schedule":
        services.entry_schedule(**kw, scheduled_at=_future())
    if prepare == "trash":
        services.entry_trash(**kw)
    if owner_id is not None:
        spec().model.objects.filter(pk=entry.id).update(author_id=owner_id)
    revision_ids = list(
        Revision.objects.filter(collection="posts", entry_id=entry.id)
        .order_by("created_at", "id")
        .values_list("id", flat=True)
    )
    row = row_of(entry.id)
    expected_status = "scheduled" if status == "draft" and prepare == "schedule" else status
    if prepare == "trash":
        assert row.deleted_at is not None
        expected_status = "draft" if status == "scheduled" else expected_status  # trash cancels a schedule
    assert row.status == expected_status, (status, prepare, row.status)
    assert row.author_id == owner_id
    return Cell(owner=owner, status=status, entry_id=entry.id, revision_ids=revision_ids, extra={"when": _future()})


# --- effect checks for allowed calls -------------------------------------------------------------


def verify_effect(action: Action, role: Role | str, actor: Actor, cell: Cell, before: dict, result: Any) -> None:
    eid, status = cell.entry_id, cell.status
    row = row_of(eid)
    after = snapshot(eid)
    if action.read:
        assert after == before, "a read changed the item"
    match action.name:
        case "update":
            assert current_title(eid) == CHANGED
            assert live_title(eid) == (LIVE if status == "published" else CHANGED)
            assert row.status == before["row"]["status"]
            assert after["row"]["version"] > before["row"]["version"]
        case "trash":
            assert row.deleted_at is not None
            assert row.scheduled_at is None
            assert row.status == ("published" if status == "published" else "draft")
        case "restore":
            assert row.deleted_at is None
            assert result.id == eid
        case "permanent_delete":
            assert row is None
            assert not Revision.objects.filter(collection="posts", entry_id=eid).exists()
            assert after["rows_total"] == before["rows_total"] - 1
        case "publish":
            assert row.status == "published"
            assert row.scheduled_at is None and row.draft_revision_id is None
            assert live_title(eid) == DRAFT
            assert Revision.objects.filter(entry_id=eid, kind=Revision.KIND_PUBLISH).count() == (
                2 if status == "published" else 1
            )
        case "unpublish":
            assert row.status == "draft"
            assert row.published_at is None and row.scheduled_at is None
            if status == "draft":
                assert after == before, "unpublishing a plain draft is a no-op"
        case "schedule":
            assert row.scheduled_at is not None and row.scheduled_at > timezone.now()
            assert row.status == ("published" if status == "published" else "scheduled")
            assert live_title(eid) == (LIVE if status == "published" else DRAFT)
        case "unschedule":
            assert row.scheduled_at is None
            assert row.status == ("published" if status == "published" else "draft")
        case "discard_draft":
            assert row.draft_revision_id is None
            assert current_title(eid) == LIVE
            assert row.status == "published"
        case "duplicate":
            assert after["rows_total"] == before["rows_total"] + 1
            copy = row_of(result.id)
            assert copy.id != eid and copy.status == "draft"
            assert copy.author_id == actor.user_id
            assert rows.current_values(spec(), copy)["title"] == DRAFT + " (Copy)"
            assert after["row"] == before["row"], "duplicating changed the source"
        case "revision_restore":
            assert current_title(eid) == FIRST
            assert row.status == before["row"]["status"], "revision_restore must not publish"
            assert live_title(eid) == (LIVE if status == "published" else FIRST)
            assert len(after["revisions"]) == len(before["revisions"]) + 1
        case "get":
            body = result.to_dict()
            assert body["id"] == eid
            if sees_unpublished(role):
                assert body["data"]["title"] == DRAFT
                if status == "published":
                    assert body["liveData"]["title"] == LIVE and body["hasDraft"] is True
            else:
                assert status == "published"
                assert body["data"]["title"] == LIVE, "a subscriber saw draft data"
                assert "liveData" not in body and "hasDraft" not in body
        case "list":
            items = {i["id"]: i for i in result.items}
            visible = status == "published" or sees_unpublished(role)
            assert (eid in items) is visible, f"visible={visible}"
            if not sees_unpublished(role):
                assert all(i["status"] == "published" for i in result.items)
                assert all(i["data"]["title"] != DRAFT for i in result.items), "a subscriber saw draft data"
                for st in ("draft", "scheduled"):
                    assert selectors.entry_list(actor=actor, collection="posts", status=st).items == []
            elif status != "published":
                assert eid in {
                    i["id"] for i in selectors.entry_list(actor=actor, collection="posts", status=status).items
                }
        case "list_trashed":
            assert eid in {i["id"] for i in result.items}
        case "compare":
            if status == "published":
                assert result["hasChanges"] is True
                assert result["live"]["title"] == LIVE and result["draft"]["title"] == DRAFT
            else:
                assert result["live"] is None and result["draft"]["title"] == DRAFT
        case "translations":
            ids = [t["id"] for t in result["translations"]]
            assert eid in ids
            if not sees_unpublished(role):
                assert all(t["status"] == "published" for t in result["translations"])
        case "revision_list":
            assert result["total"] == len(before["revisions"])
            assert {i["id"] for i in result["items"]} == set(before["revisions"])
            stamps = [i["createdAt"] for i in result["items"]]
            assert stamps == sorted(stamps, reverse=True)
        case _:
            raise AssertionError(f"no effect check for {action.name}")


def assert_discreet(exc: EmDashError, users: list[Any]) -> None:
    """Error text (message and details) names no author: no emails, no user ids, no author fields."""
    text = f"{exc.message} {exc.details or ''}"
    for user in users:
        assert user.email not in text, f"email leaked: {text}"
        assert not re.search(rf"(?<![\w-]){user.pk}(?![\w-])", text), f"user id leaked: {text}"
    assert not re.search(r"author_?id", text, re.IGNORECASE), f"author field leaked: {text}"


# --- the matrix ----------------------------------------------------------------------------------

MATRIX = [pytest.param(name, id=name) for name in ACTIONS]


def check_cell(action: Action, role: Role | str, actor: Actor, cell: Cell, users: list[Any]) -> None:
    before = snapshot(cell.entry_id)
    expected = expected_outcome(action, role, cell.owner, cell.status)
    got, result = outcome(lambda: call(action, actor, cell))
    assert got == expected, f"expected {expected}, got {got}: {getattr(result, 'message', result)}"
    if got == OK:
        verify_effect(action, role, actor, cell, before, result)
    else:
        assert snapshot(cell.entry_id) == before, "a refused call changed something"
        assert_discreet(result, users)
        if got == "INSUFFICIENT_PERMISSIONS":
            assert result.message.startswith("Insufficient permissions: ")
    if got != OK and not sees_unpublished(role):
        # no id enumeration: an unpublished item looks exactly like one that does not exist
        missing = "01ARZ3NDEKTSV4RRFFQ69G5FAV"
        got_missing, exc_missing = outcome(lambda: call(action, actor, cell, ident=missing))
        assert got_missing == got, f"a nonexistent id gives {got_missing}, this item gives {got}"
        assert exc_missing.message.replace(missing, "<id>") == result.message.replace(cell.entry_id, "<id>"), (
            "messages differ between hidden and missing items"
        )


@pytest.mark.parametrize("name", MATRIX)
def test_ownership_matrix(posts, name):
    """One action, every role x owner x status; all failing cells are reported together."""
    action = ACTIONS[name]
    other = make_user(Role.AUTHOR, password=None)  # unusable passwords: no slow hashing
    failures: list[str] = []
    cells = 0
    for role in ROLES:
        me = None if role == ANONYMOUS else make_user(role, password=None)
        actor = Actor.anonymous() if me is None else Actor.for_user(me)
        users = [u for u in (me, other) if u is not None]
        owner_ids = {"own": me.pk if me else None, "other": other.pk, "nobody": None}
        for owner in OWNERS:
            if owner == "own" and me is None:
                continue  # the public owns nothing
            for status in STATUSES:
                cells += 1
                try:
                    check_cell(action, role, actor, make_item(owner, owner_ids[owner], status, action.prepare), users)
                except AssertionError as exc:
                    failures.append(f"{name} by {_role_id(role)} on {owner}/{status} item: {exc}")
    assert not failures, f"{len(failures)} of {cells} cells failed:\n" + "\n".join(failures)
    assert cells == len(STATUSES) * (len(ROLES) * len(OWNERS) - 1)


def test_matrix_covers_every_action_role_owner_and_status():
    assert {p.values[0] for p in MATRIX} == set(ACTIONS)
    outcomes = {expected_outcome(a, r, o, s) for a in ACTIONS.values() for r in ROLES for o in OWNERS for s in STATUSES}
    assert outcomes == {OK, "INSUFFICIENT_PERMISSIONS", "NOT_FOUND", "VALIDATION_ERROR"}


@pytest.mark.parametrize(
    ("name", "role", "owner", "status", "expected"),
    [
        ("update", Role.AUTHOR, "own", "draft", OK),
        ("update", Role.AUTHOR, "other", "draft", "INSUFFICIENT_PERMISSIONS"),
        ("update", Role.AUTHOR, "nobody", "published", "INSUFFICIENT_PERMISSIONS"),
        ("update", Role.EDITOR, "nobody", "draft", OK),
        ("permanent_delete", Role.EDITOR, "own", "draft", "INSUFFICIENT_PERMISSIONS"),
        ("permanent_delete", Role.ADMIN, "other", "draft", OK),
        ("get", Role.SUBSCRIBER, "other", "draft", "NOT_FOUND"),
        ("get", ANONYMOUS, "other", "published", OK),
        ("get", Role.CONTRIBUTOR, "other", "scheduled", OK),
        ("compare", Role.SUBSCRIBER, "own", "published", "INSUFFICIENT_PERMISSIONS"),
        ("duplicate", Role.AUTHOR, "other", "draft", OK),
        ("duplicate", Role.CONTRIBUTOR, "own", "draft", "INSUFFICIENT_PERMISSIONS"),
        ("publish", Role.SUBSCRIBER, "own", "draft", "INSUFFICIENT_PERMISSIONS"),
        ("discard_draft", Role.EDITOR, "other", "draft", "VALIDATION_ERROR"),
    ],
)
def test_expectations_match_spec_section_3(name, role, owner, status, expected):
    """Spot checks of the derivation against the SPEC 3 table as written."""
    assert expected_outcome(ACTIONS[name], role, owner, status) == expected


def test_subscriber_list_is_silently_restricted(posts):
    """A subscriber's list shows published items only, with live values, and never errors."""
    published = make_entry(data={"title": LIVE}, status="published")
    services.entry_update(actor=SYSTEM, collection="posts", id=published.id, data={"title": DRAFT})
    hidden = make_entry(data={"title": "Hidden draft"})
    subscriber = Actor.for_user(make_user(Role.SUBSCRIBER, password=None))
    for who in (subscriber, Actor.anonymous()):
        page = selectors.entry_list(actor=who, collection="posts")
        assert [i["id"] for i in page.items] == [published.id]
        assert page.items[0]["data"]["title"] == LIVE
        assert "hasDraft" not in page.items[0]
        assert selectors.entry_list(actor=who, collection="posts", status="draft").items == []
        assert [i["id"] for i in selectors.entry_list(actor=who, collection="posts", status="published").items] == [
            published.id
        ]
    editor_ids = {
        i["id"]
        for i in selectors.entry_list(
            actor=Actor.for_user(make_user(Role.EDITOR, password=None)), collection="posts"
        ).items
    }
    assert editor_ids == {published.id, hidden.id}


def test_subscriber_get_by_slug_of_draft_is_not_found(posts):
    make_entry(data={"title": "Secret plan"})
    subscriber = Actor.for_user(make_user(Role.SUBSCRIBER, password=None))
    with pytest.raises(EmDashError) as info:
        selectors.entry_get(actor=subscriber, collection="posts", id="secret-plan")
    with pytest.raises(EmDashError) as missing:
        selectors.entry_get(actor=subscriber, collection="posts", id="no-such-plan")
    assert info.value.code == missing.value.code == "NOT_FOUND"
    assert info.value.message.replace("secret-plan", "x") == missing.value.message.replace("no-such-plan", "x")
