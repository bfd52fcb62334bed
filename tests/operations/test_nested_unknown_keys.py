"""An unknown key inside a nested object or an array item names where it sits and lists the keys accepted
there, not the top level's (SPEC 10: menu_set_items items[0].bogus used to answer "accepted: name, items")."""

from __future__ import annotations

import pytest

from emdash.errors import ValidationError
from emdash.operations import validate
from emdash.operations.record import TABLE, load


def _fields(name: str, arguments: dict) -> dict[str, str]:
    load()
    with pytest.raises(ValidationError) as exc:
        validate(TABLE[name], arguments)
    assert exc.value.details is not None
    return dict(exc.value.details["fields"])


def test_an_unknown_key_in_an_array_item_lists_that_items_keys() -> None:
    fields = _fields("menu_set_items", {"name": "main", "items": [{"type": "custom", "label": "x", "bogus": 1}]})
    message = fields["items.0.bogus"]
    assert message.startswith("unknown key in items[0] (accepted: ")
    assert "label" in message and "customUrl" in message and "cssClasses" in message
    assert "name, items" not in message


def test_every_bad_item_is_named_by_its_own_index() -> None:
    items = [{"type": "custom", "label": "a", "customUrl": "/a"}, {"type": "custom", "label": "b", "nope": True}]
    fields = _fields("menu_set_items", {"name": "main", "items": items})
    assert list(fields) == ["items.1.nope"]
    assert fields["items.1.nope"].startswith("unknown key in items[1] (accepted: ")


def test_an_unknown_key_in_a_nested_object_lists_that_objects_keys() -> None:
    fields = _fields("content_list", {"collection": "posts", "filter": {"autor": 1}})
    assert fields["filter.autor"].startswith("unknown key in filter (accepted: ")
    assert "collection" not in fields["filter.autor"]


def test_a_top_level_unknown_key_still_lists_the_arguments() -> None:
    fields = _fields("menu_set_items", {"name": "main", "items": [], "bogus": 1})
    assert fields == {"bogus": "unknown argument (accepted: name, locale, items)"}


@pytest.mark.django_db
def test_the_mcp_refusal_carries_the_items_keys(mcp) -> None:
    result = mcp.fails("menu_set_items", {"name": "main", "items": [{"type": "custom", "label": "x", "bogus": 1}]})
    assert result["_meta"]["code"] == "VALIDATION_ERROR"
    assert "items.0.bogus: unknown key in items[0] (accepted: " in result["content"][0]["text"]
