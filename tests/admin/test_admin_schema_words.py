"""The schema builder in editors' words (SPEC 13): every field type has a name and a help line, and a slug left
empty is derived from the label on the server too (a form posted without JavaScript)."""

from __future__ import annotations

from admin_ui.views.schema import slug_from_label
from content.field_types import FIELD_TYPES
from content.schema import specs as schema
from tests.admin.conftest import login


def test_every_field_type_has_a_friendly_name_and_a_help_line():
    for name, field_type in FIELD_TYPES.items():
        assert field_type.label and field_type.label != name, name
        assert field_type.help.endswith("."), name
    assert len({t.label for t in FIELD_TYPES.values()}) == len(FIELD_TYPES)


def test_slugs_are_derived_from_labels():
    assert slug_from_label("Cover image") == "cover_image"
    assert slug_from_label("  Café  menu! ") == "cafe_menu"
    assert slug_from_label("2024 results") == "f_2024_results"


def test_a_collection_and_a_field_posted_without_a_slug_get_one_from_the_label(cms):
    admin, _ = login("admin")
    response = admin.post("/_emdash/admin/schema/", {"label": "Recipe Ideas", "slug": "", "supports": ["drafts"]})
    assert response.status_code == 302 and response["Location"].endswith("/schema/recipe_ideas/")
    response = admin.post(
        "/_emdash/admin/schema/recipe_ideas/", {"label": "Cooking time", "slug": "", "type": "integer"}
    )
    assert response.status_code == 302
    field = schema.current(fresh=True).get("recipe_ideas").get_field("cooking_time")
    assert field is not None and field.type == "integer"


def test_the_field_table_shows_type_names_not_codes(cms):
    admin, _ = login("admin")
    admin.post("/_emdash/admin/schema/", {"label": "Notes", "supports": ["drafts"]})
    admin.post("/_emdash/admin/schema/notes/", {"label": "Body", "type": "portableText"})
    html = admin.get("/_emdash/admin/schema/notes/").content.decode()
    assert "<td>Rich text</td>" in html and "<td>portableText</td>" not in html
