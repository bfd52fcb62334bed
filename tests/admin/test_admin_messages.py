"""Plain-language admin messages: domain errors become sentences next to the right field, never jargon."""

from __future__ import annotations

from django.test import override_settings

from admin_ui import plain
from emdash.errors import Conflict, EmDashError, SlugConflict, ValidationError
from tests.factories import make_entry


def test_required_field_reads_as_a_sentence():
    exc = ValidationError.for_fields({"data.title": "is required"})
    assert plain.message_for(exc, {"title": "Title"}) == "Please check: Title is required."
    assert plain.field_sentences(exc.details["fields"], {"title": "Title"}) == {"title": "Title is required."}


def test_publish_problems_name_the_field_label():
    exc = ValidationError.for_fields({"data.cover_image": "is required"}, prefix="Cannot publish: invalid value")
    assert plain.message_for(exc) == "This item cannot be published yet: Cover image is required."


def test_unique_and_slug_conflicts_name_the_kind_of_item():
    exc = ValidationError.for_fields({"data.isbn": "must be unique; another item already has this value"})
    assert plain.field_sentences(exc.details["fields"], {"isbn": "ISBN"}, "book") == {
        "isbn": "Another book already uses this ISBN."
    }
    unique = "must be unique; another item already has this value"
    assert plain.field_sentence("data.title", unique, {"title": "Title"}) == "Another item already uses this title."
    slug = SlugConflict("Slug 'hello' is already used in 'posts' (en)")
    assert plain.problems_of(slug) == {"slug": "is already used by another item"}
    assert plain.field_sentences(plain.problems_of(slug), {}, "post") == {
        "slug": "This slug is already used by another post."
    }
    assert plain.message_for(slug, noun="post") == "This slug is already used by another post. Choose a different slug."


def test_other_problems_keep_their_meaning_without_internal_paths():
    assert plain.field_sentence("data.count", "must be a whole number") == "Count must be a whole number."
    assert plain.field_sentence("publishAt", "That time is skipped.") == "That time is skipped."
    assert (
        plain.field_sentence("data.author", "no item with id 'x' in 'people'")
        == "Author: no item with id 'x' in 'people'."
    )
    assert "data." not in plain.message_for(EmDashError("Unknown field data.foo"))
    assert plain.message_for(Conflict("The item was changed")).startswith("Someone else saved this item")


def test_no_codes_in_the_visible_text_of_an_edit_error(posts, as_role):
    client, _ = as_role("editor")
    make_entry(data={"title": "Taken"}, slug="taken")
    entry = make_entry(data={"title": "Mine"}, slug="mine")
    response = client.post(
        f"/_emdash/admin/content/posts/{entry.id}/",
        {"f_title": "Mine", "slug": "taken", "_rev": entry.rev, "terms_taxonomies": ""},
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert (
        "This slug is already used by another posts." in html
    )  # the fixture's singular label is "Posts"  # next to the slug field
    assert 'id="id_slug-error"' in html and "(SLUG_CONFLICT)" not in html
    assert "code-SLUG_CONFLICT" in html  # the stable code stays machine-readable


def test_a_missing_title_is_shown_next_to_the_title_field(posts, as_role):
    client, _ = as_role("editor")
    response = client.post("/_emdash/admin/content/posts/new/", {"f_title": "", "slug": ""})
    html = response.content.decode()
    assert response.status_code == 400 and "Title is required." in html
    assert "data.title" not in html and "(VALIDATION_ERROR)" not in html


def test_an_action_error_reads_as_a_sentence(posts, as_role):
    client, _ = as_role("editor")
    entry = make_entry(data={"title": "Hello"})
    with override_settings(EMDASH={"LOCALES": ["en", "fr"]}):
        response = client.post(f"/_emdash/admin/content/posts/{entry.id}/translate/", {"locale": "xx"}, follow=True)
    html = response.content.decode()
    assert "Please check: Locale must be one of the configured locales: en, fr." in html
    assert "VALIDATION_ERROR)" not in html and "Invalid value for 1 field" not in html
