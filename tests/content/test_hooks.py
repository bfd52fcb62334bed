"""Content reaches taxonomy and media only through the functions they register (content/hooks.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from content import hooks
from emdash.errors import ValidationError
from media import selectors as media_selectors
from media.hooks import MediaItems
from taxonomy import selectors as taxonomy_selectors
from taxonomy.hooks import EntryTerms
from taxonomy.services import replace_entry_terms


@pytest.fixture
def bare_hooks() -> Iterator[None]:
    terms, media = hooks.registered()
    hooks.register_terms(None)
    hooks.register_media(None)
    yield
    hooks.register_terms(terms)
    hooks.register_media(media)


def test_the_apps_register_their_own_functions() -> None:
    """No wrapper sits between content and the apps: the providers' methods are the apps' functions."""
    terms, media = hooks.registered()
    assert isinstance(terms, EntryTerms) and isinstance(media, MediaItems)
    assert (terms.replace, terms.assigned, terms.taxonomies) == (
        replace_entry_terms,
        taxonomy_selectors.assigned_terms,
        taxonomy_selectors.taxonomies_for,
    )
    assert (terms.tagged, terms.column, terms.of_column) == (
        taxonomy_selectors.tagged_entries,
        taxonomy_selectors.assigned_column,
        taxonomy_selectors.terms_of_rows,
    )
    assert (media.existing_ids, media.urls_by_id, media.ids_by_url) == (
        media_selectors.existing_ids,
        media_selectors.urls_by_id,
        media_selectors.ids_by_url,
    )


def test_without_taxonomy_terms_are_refused_and_none_are_listed(bare_hooks: None) -> None:
    with pytest.raises(ValidationError) as raised:
        hooks.replace_entry_terms(collection="posts", entry_id="x", terms={"category": ["news"]})
    assert "terms" in raised.value.details["fields"]
    assert hooks.assigned_terms(collection="posts", entry_id="x") == {}


def test_without_media_no_id_names_a_media_item(bare_hooks: None) -> None:
    assert hooks.existing_media_ids({"01HZZZZZZZZZZZZZZZZZZZZZZZ"}) == set()
