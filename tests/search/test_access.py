"""Who may search (spec section 3: subscriber, anonymous, token scopes) and what they see: published items only."""

from __future__ import annotations

import pytest

from content.entries import services
from emdash.actor import Actor
from emdash.errors import InsufficientPermissions, InsufficientScope
from emdash.roles import Role
from tests.factories import SYSTEM, actor, make_user
from tests.search.conftest import create, find, found_ids


@pytest.mark.parametrize("role", list(Role))
def test_every_role_finds_published_items_only(articles, role):
    published = create(title="Hawthorn ketchup", publish=True)
    create(title="Hawthorn draft")
    assert found_ids("hawthorn", actor=actor(role=role)) == [published]


def test_anonymous_visitors_may_search(articles):
    published = create(title="Hawthorn ketchup", publish=True)
    create(title="Hawthorn draft")
    assert found_ids("hawthorn", actor=Actor.anonymous()) == [published]


def test_admins_see_the_live_version_not_their_draft(articles):
    entry_id = create(title="Hawthorn ketchup", publish=True)
    services.entry_update(actor=SYSTEM, collection="articles", id=entry_id, data={"title": "Hawthorn relish"})
    admin = actor(role=Role.ADMIN)
    [hit] = find("hawthorn", actor=admin)
    assert hit["title"] == "Hawthorn ketchup"
    assert found_ids("relish", actor=admin) == []


def test_a_token_needs_content_read(articles):
    user = make_user(Role.ADMIN)
    with pytest.raises(InsufficientScope):
        found_ids("x", actor=Actor.for_user(user, ["media:read"]))
    assert found_ids("x", actor=Actor.for_user(user, ["content:read"])) == []


def test_inactive_users_may_not_search(articles):
    user = make_user(Role.ADMIN)
    user.is_active = False
    with pytest.raises(InsufficientPermissions):
        found_ids("x", actor=Actor.for_user(user))
