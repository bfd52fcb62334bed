"""The admin's Bylines screens (SPEC 10): list with search, add, edit, delete; editors only."""

from __future__ import annotations

from bylines import services as byline_services
from bylines.models import Byline
from content.entries import selectors
from content.hooks import rows_credits
from tests.factories import SYSTEM, make_entry

URL = "/_emdash/admin/bylines/"


def test_an_editor_adds_edits_and_deletes_a_byline(db, as_role):
    client, _ = as_role("editor")
    assert "Bylines" in client.get("/_emdash/admin/").content.decode()  # in the navigation
    made = client.post(URL, {"displayName": "Jane Doe", "slug": "jane-doe", "websiteUrl": "https://jane.example/"})
    assert made.status_code == 302
    byline = Byline.objects.get(slug="jane-doe")
    assert byline.is_guest and byline.website_url == "https://jane.example/"
    page = client.get(f"{URL}?q=jane").content.decode()
    assert "Jane Doe" in page and 'data-byline="jane-doe"' in page
    edit = f"{URL}{byline.id}/"
    assert 'value="Jane Doe"' in client.get(edit).content.decode()
    saved = client.post(edit, {"displayName": "Jane D.", "slug": "jane-doe", "bio": "", "websiteUrl": ""})
    assert saved.status_code == 200
    byline.refresh_from_db()
    assert byline.display_name == "Jane D." and byline.website_url is None
    client.post(f"{edit}delete/")
    assert not Byline.objects.exists()


def test_bad_input_is_shown_on_the_form_and_nothing_is_saved(db, as_role):
    client, _ = as_role("editor")
    page = client.post(URL, {"displayName": "X", "slug": "Bad Slug", "websiteUrl": "javascript:alert(1)"})
    html = page.content.decode()
    assert page.status_code == 400 and 'id="id_slug-error"' in html and 'id="id_websiteUrl-error"' in html
    assert not Byline.objects.exists()


def test_authors_cannot_open_the_screen(db, as_role):
    client, _ = as_role("author")
    assert client.get(URL).status_code == 403
    assert client.post(URL, {"displayName": "X", "slug": "x"}).status_code == 403
    assert not Byline.objects.exists()


def test_the_entry_form_credits_bylines_in_order(posts, as_role):
    client, _ = as_role("editor")
    jane = byline_services.byline_create(actor=SYSTEM, slug="jane", display_name="Jane")
    sam = byline_services.byline_create(actor=SYSTEM, slug="sam", display_name="Sam")
    entry = make_entry(data={"title": "Credited"})
    edit = f"/_emdash/admin/content/posts/{entry.id}/"
    page = client.get(edit)
    assert 'name="credit_byline"' in page.content.decode() and ">Jane" in page.content.decode()
    form = {"f_title": "Credited", "_rev": page.context["rev"], "credits_shown": "1"}
    form |= {"credit_byline": [sam.id, jane.id, ""], "credit_role": ["Photos", "", ""]}
    assert client.post(edit, form).status_code == 302
    credits = rows_credits("posts", [selectors.entry_get(actor=SYSTEM, collection="posts", id=entry.id).row])
    assert credits is not None
    assert [(c["byline"]["slug"], c["roleLabel"]) for c in credits[0]["bylines"]] == [("sam", "Photos"), ("jane", None)]
    shown = client.get(edit).content.decode()
    assert f'<option value="{sam.id}" data-name="Sam" selected>' in shown


def test_the_schema_builder_makes_a_references_field(posts, as_role):
    from content.models import Field

    admin, _ = as_role("admin")
    form = {"slug": "related", "label": "Related", "type": "references", "targets": ["posts"], "max_items": "3"}
    assert admin.post("/_emdash/admin/schema/posts/", form).status_code == 302
    field = Field.objects.get(collection__slug="posts", slug="related")
    assert field.options == {"collections": ["posts"]} and field.validation == {"max": 3}
    missing = admin.post("/_emdash/admin/schema/posts/", {**form, "slug": "other", "targets": []})
    assert missing.status_code == 400 and "target collections" in missing.content.decode()


def test_a_maximum_that_is_not_plain_digits_is_left_unset_not_a_500(posts, as_role):
    from content.models import Field

    admin, _ = as_role("admin")
    form = {"slug": "related", "label": "Related", "type": "references", "targets": ["posts"], "max_items": "\u00b2"}
    assert admin.post("/_emdash/admin/schema/posts/", form).status_code == 302  # "²".isdigit() is true; int() fails
    assert Field.objects.get(collection__slug="posts", slug="related").validation == {}


def test_the_references_widget_lists_targets_and_searches_the_fields_collections(posts, as_role):
    from content.schema import services as schema_services

    schema_services.field_create(
        actor=SYSTEM, collection="posts", slug="related", label="Related", type="references",
        options={"collections": ["posts"]},
    )  # fmt: skip
    target = make_entry(data={"title": "Linked post"})
    entry = make_entry(data={"title": "Host", "related": [target.id]})
    client, _ = as_role("editor")
    page = client.get(f"/_emdash/admin/content/posts/{entry.id}/").content.decode()
    assert "data-refs-picker" in page and f'data-id="{target.id}"' in page and "Linked post" in page
    found = client.get("/_emdash/admin/entry-search/", {"collections": "posts", "q": "linked"}).json()
    assert [r["id"] for r in found["results"]] == [target.id]
    rev = client.get(f"/_emdash/admin/content/posts/{entry.id}/").context["rev"]
    saved = client.post(f"/_emdash/admin/content/posts/{entry.id}/", {"f_title": "Host", "f_related": "", "_rev": rev})
    assert saved.status_code == 302
    assert selectors.entry_get(actor=SYSTEM, collection="posts", id=entry.id).to_dict()["data"]["related"] is None
