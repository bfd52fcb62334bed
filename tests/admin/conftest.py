"""Fixtures for the admin UI tests: logged-in clients per role and a collection with every field type."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from emdash.roles import Role
from tests.factories import make_collection, make_user

EVERY_TYPE: list[dict[str, Any]] = [
    {"slug": "title", "label": "Title", "type": "string", "required": True},
    {"slug": "summary", "label": "Summary", "type": "text"},
    {"slug": "rating", "label": "Rating", "type": "number"},
    {"slug": "count", "label": "Count", "type": "integer"},
    {"slug": "featured", "label": "Featured", "type": "boolean"},
    {"slug": "event_at", "label": "Event at", "type": "datetime"},
    {"slug": "color", "label": "Color", "type": "select", "validation": {"options": ["red", "green"]}},
    {"slug": "tags", "label": "Tags", "type": "multiSelect", "validation": {"options": ["a", "b", "c"]}},
    {"slug": "body", "label": "Body", "type": "portableText"},
    {"slug": "cover", "label": "Cover", "type": "image"},
    {"slug": "attachment", "label": "Attachment", "type": "file"},
    {"slug": "related", "label": "Related", "type": "reference", "options": {"collection": "posts"}},
    {"slug": "meta", "label": "Meta", "type": "json"},
    {"slug": "handle", "label": "Handle", "type": "slug"},
]


def login(role: Role | str) -> tuple[Client, Any]:
    user = make_user(role)
    client = Client()
    client.force_login(user)
    return client, user


@pytest.fixture
def as_role():
    """``as_role("editor")`` -> (client, user)."""
    return login


@pytest.fixture
def kitchen_sink(posts):
    """A ``things`` collection with one field of every type (its reference points at ``posts``)."""
    return make_collection("things", fields=EVERY_TYPE)
