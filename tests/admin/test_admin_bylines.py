"""The admin's Bylines screens (SPEC 10): list with search, add, edit, delete; editors only."""

from __future__ import annotations

from bylines.models import Byline

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
