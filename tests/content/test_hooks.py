"""Content reaches taxonomy and media only through the functions they register (content/hooks.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from content import hooks
from content.field_types import FIELD_TYPES
from emdash.errors import ValidationError
from media.selectors import existing_ids, ids_by_url, urls_by_id
from settings_app import localtime
from taxonomy.selectors import assigned_column, assigned_terms, tagged_entries, taxonomies_for, terms_of_rows
from taxonomy.services import replace_entry_terms


@pytest.fixture
def bare_hooks() -> Iterator[None]:
    saved = dict(hooks._hooks)
    hooks._hooks.clear()
    yield
    hooks._hooks.update(saved)


def test_the_apps_register_their_functions() -> None:
    clock = hooks._hooks.pop("site_time")
    try:
        assert (clock.to_input, clock.from_input) == (localtime.to_input, localtime.from_input)
    finally:
        hooks._hooks["site_time"] = clock
    assert {k: v for k, v in hooks._hooks.items() if k != "site_time"} == {
        "replace": replace_entry_terms,
        "assigned": assigned_terms,
        "taxonomies": taxonomies_for,
        "tagged": tagged_entries,
        "terms_column": assigned_column,
        "terms_of_column": terms_of_rows,
        "media_ids": existing_ids,
        "urls_by_id": urls_by_id,
        "ids_by_url": ids_by_url,
    }


def test_without_taxonomy_terms_are_refused_and_none_are_listed(bare_hooks: None) -> None:
    with pytest.raises(ValidationError) as raised:
        hooks.replace_entry_terms(collection="posts", entry_id="x", terms={"category": ["news"]})
    assert "terms" in raised.value.details["fields"]
    assert hooks.assigned_terms(collection="posts", entry_id="x") == {}


def test_without_media_no_id_names_a_media_item(bare_hooks: None) -> None:
    assert hooks.existing_media_ids({"01HZZZZZZZZZZZZZZZZZZZZZZZ"}) == set()


def test_without_the_settings_app_instants_are_typed_and_shown_in_utc(bare_hooks: None) -> None:
    instant = FIELD_TYPES["datetime"]
    assert instant.display("2026-06-01T09:00:00Z") == "2026-06-01T09:00:00Z"
    assert instant.from_form(" 2026-06-01T09:00 ", None) == "2026-06-01T09:00:00Z"
