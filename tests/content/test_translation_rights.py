"""SPEC 7: ``translationOf`` needs edit rights on the source, and non-translatable values are copied only
into the items of the group the caller may edit (issue 10 item 6, on MCP, REST and the services)."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from django.test import Client, override_settings

from accounts.models import User
from accounts.tokens import token_create
from content.entries import selectors, services
from content.schema import specs as schema
from emdash.actor import Actor
from emdash.roles import Role
from tests.factories import make_collection, make_user

FIELDS = [
    {"slug": "title", "label": "Title", "type": "string", "required": True},
    {"slug": "price", "label": "Price", "type": "integer", "translatable": False},
]
MCP_URL = "/_emdash/api/mcp"


@pytest.fixture(params=[["drafts", "revisions"], []], ids=["revisions", "no-revisions"])
def products(cms: None, request: pytest.FixtureRequest):
    with override_settings(EMDASH={"LOCALES": ["en", "fr"]}):
        make_collection("products", fields=FIELDS, supports=request.param)
        yield request.param


def as_actor(user: User) -> Actor:
    return Actor.for_user(user)


def published(owner: User, price: int = 10) -> str:
    entry = services.entry_create(
        actor=as_actor(owner), collection="products", data={"title": "Lamp", "price": price}, status="published"
    )
    return entry.id


def row(entry_id: str) -> Any:
    return schema.get_collection("products").model.objects.get(pk=entry_id)


def draft_price(entry_id: str) -> Any:
    """The price an editor of the item sees (the draft's when there is one)."""
    return selectors.entry_get(actor=Actor.system(), collection="products", id=entry_id).to_dict()["data"]["price"]


def count() -> int:
    return schema.get_collection("products").model.objects.count()


# -- the doors -----------------------------------------------------------------------------------------


def _token(user: User) -> str:
    return token_create(user=user, name="t", scopes="content:read,content:write").raw


def via_mcp(user: User, arguments: dict[str, Any]) -> tuple[str, Any]:
    """(outcome code or "OK", payload) of content_create over MCP."""
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "content_create", "arguments": arguments},
    }
    response = Client().post(
        MCP_URL,
        orjson.dumps(body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {_token(user)}"},
    )
    assert response.status_code == 200, response.content
    answer = orjson.loads(response.content)
    if "error" in answer:
        return answer["error"]["data"]["code"], answer["error"]
    result = answer["result"]
    if result["isError"]:
        return result["_meta"]["code"], result
    return "OK", orjson.loads(result["content"][0]["text"])["item"]


def via_rest(user: User, arguments: dict[str, Any]) -> tuple[str, Any]:
    body = {k: v for k, v in arguments.items() if k != "collection"}
    response = Client().post(
        f"/_emdash/api/content/{arguments['collection']}",
        orjson.dumps(body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {_token(user)}"},
    )
    payload = orjson.loads(response.content)
    if response.status_code >= 400:
        assert response.status_code < 500, payload
        return payload["error"]["code"], payload
    return "OK", payload["item"]


def via_services(user: User, arguments: dict[str, Any]) -> tuple[str, Any]:
    from emdash.errors import EmDashError

    try:
        entry = services.entry_create(
            actor=as_actor(user),
            collection=arguments["collection"],
            data=arguments["data"],
            locale=arguments["locale"],
            translation_of=arguments["translationOf"],
        )
    except EmDashError as exc:
        return exc.code, exc.as_dict()
    return "OK", entry.to_dict()


DOORS = {"mcp": via_mcp, "rest": via_rest, "services": via_services}


@pytest.mark.parametrize("door", sorted(DOORS))
@pytest.mark.parametrize(
    ("role", "own", "expected"),
    [
        ("author", True, "OK"),
        ("author", False, "INSUFFICIENT_PERMISSIONS"),
        ("editor", True, "OK"),
        ("editor", False, "OK"),
    ],
)
def test_translation_of_needs_edit_rights_on_the_source(products, door, role, own, expected):
    owner = make_user("author")
    caller = owner if own and role == "author" else make_user(role)
    source_owner = caller if own else owner
    source = published(source_owner)
    before, version = count(), row(source).version
    outcome, payload = DOORS[door](
        caller, {"collection": "products", "data": {"title": "Lampe"}, "locale": "fr", "translationOf": source}
    )
    assert outcome == expected, payload
    if expected == "OK":
        assert count() == before + 1
        assert payload["translationGroup"] == row(source).translation_group
        assert payload["data"]["price"] == 10  # the shared value starts from the source's
    else:
        assert count() == before  # nothing created
        assert row(source).version == version and row(source).f_price == 10


def test_the_audit_scenario_no_longer_rewrites_another_authors_item(products):
    """Author B translated A's published item, then edited their own translation: A's price changed."""
    alice, bob = make_user("author"), make_user("author")
    source = published(alice, price=10)
    outcome, _ = via_mcp(
        bob, {"collection": "products", "data": {"title": "Lampe", "price": 1}, "locale": "fr", "translationOf": source}
    )
    assert outcome == "INSUFFICIENT_PERMISSIONS"
    assert row(source).f_price == 10 and row(source).draft_revision_id is None


def test_shared_values_skip_items_the_caller_may_not_edit(products):
    """An editor's translation of Alice's item: Alice's edits stay in her item, the editor's reach hers."""
    alice, editor = make_user("author"), make_user(Role.EDITOR)
    source = published(alice, price=10)
    fr = services.entry_create(
        actor=as_actor(editor), collection="products", data={"title": "Lampe"}, locale="fr", translation_of=source
    ).id
    fr_version = row(fr).version
    services.entry_update(actor=as_actor(alice), collection="products", id=source, data={"price": 20})
    assert draft_price(source) == 20
    assert row(fr).version == fr_version and draft_price(fr) == 10  # not Alice's to change
    services.entry_update(actor=as_actor(editor), collection="products", id=fr, data={"price": 30})
    assert draft_price(source) == 30  # an editor may edit Alice's item, so the value is shared


def test_shared_values_follow_the_draft_rules_of_each_item(products):
    """A published item with revisions gets the shared value as a draft; without revisions, in the row."""
    alice = make_user("author")
    source = published(alice, price=10)
    fr = services.entry_create(
        actor=as_actor(alice), collection="products", data={"title": "Lampe"}, locale="fr", translation_of=source
    ).id
    services.entry_update(actor=as_actor(alice), collection="products", id=fr, data={"price": 40})
    assert draft_price(source) == 40
    if "revisions" in products:
        assert row(source).f_price == 10 and row(source).draft_revision_id is not None  # live value unchanged
    else:
        assert row(source).f_price == 40


def test_admin_translate_uses_the_same_rules(products):
    """The admin's translate button pre-fills every value but cannot translate someone else's item."""
    alice, bob = make_user("author"), make_user("author")
    source = published(alice, price=10)
    with pytest.raises(Exception) as denied:
        services.entry_translate(actor=as_actor(bob), collection="products", id=source, locale="fr")
    assert getattr(denied.value, "code", None) == "INSUFFICIENT_PERMISSIONS"
    copy = services.entry_translate(actor=as_actor(alice), collection="products", id=source, locale="fr")
    assert copy.to_dict()["data"] == {"title": "Lamp", "price": 10}
    assert copy.to_dict()["locale"] == "fr"
