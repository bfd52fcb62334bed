"""The rich-text editor's page wiring, autosave through the edit view, and forms that keep input on errors."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from audit.models import AuditLog
from content.entries import selectors
from settings_app.selectors import site_settings
from tests.factories import SYSTEM, make_entry

ROOT = Path(__file__).resolve().parents[2]
AUTOSAVE = {"HTTP_X_EMDASH_AUTOSAVE": "1"}


def _body(text: str) -> str:
    span = {"_type": "span", "_key": "s0", "text": text, "marks": ["em"]}
    return json.dumps([{"_type": "block", "_key": "b0", "style": "h2", "markDefs": [], "children": [span]}])


def _data(entry_id: str) -> dict:
    return selectors.entry_get(actor=SYSTEM, collection="posts", id=entry_id).to_dict()["data"]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_browser_conversion_passes_its_own_tests():
    """admin_ui/editor/src/pt.js (Portable Text <-> editor document) under node's test runner."""
    result = subprocess.run(
        ["node", "--test", "admin_ui/editor/test/"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "# fail 0" in result.stdout


def test_the_committed_bundle_and_its_lock_file_are_there():
    bundle = (ROOT / "admin_ui/static/admin_ui/editor.js").read_text()
    assert len(bundle) > 100_000 and "ptObject" in bundle
    lock = json.loads((ROOT / "admin_ui/editor/package-lock.json").read_text())
    assert "node_modules/@tiptap/core" in lock["packages"]
    page = (ROOT / "templates/admin_ui/entries/_fields.html").read_text()
    assert "{% static 'admin_ui/editor.js' %}" in page and "//cdn" not in page  # served by us, never a CDN


def test_the_edit_page_mounts_the_editor_without_inline_script(posts, as_role):
    client, _ = as_role("editor")
    entry = make_entry(data={"title": "T", "body": json.loads(_body("Hi"))})
    page = client.get(f"/_emdash/admin/content/posts/{entry.id}/").content.decode()
    assert "data-pt-editor" in page and "/static/admin_ui/editor.js" in page and "/static/admin_ui/forms.js" in page
    assert 'data-upload-url="/_emdash/admin/media/upload/"' in page and "data-autosave" in page
    assert "&quot;text&quot;: &quot;Hi&quot;" in page  # the Portable Text the editor starts from
    scripts = [part.split(">", 1)[0] for part in page.split("<script")[1:]]
    assert all("src=" in tag or 'type="application/json"' in tag for tag in scripts), scripts
    assert " onclick=" not in page and " onchange=" not in page


def test_autosave_saves_through_the_form_and_answers_json(posts, as_role):
    client, user = as_role("editor")
    entry = make_entry(data={"title": "Before"})
    url = f"/_emdash/admin/content/posts/{entry.id}/"
    rev = client.get(url).context["rev"]
    form = {"f_title": "Typed", "f_body": _body("Draft text"), "slug": entry.row.slug, "_rev": rev}
    response = client.post(url, form, **AUTOSAVE)
    assert response.status_code == 200
    answer = response.json()
    assert answer["ok"] is True and answer["rev"] != rev and answer["updatedAt"]
    assert _data(entry.id)["title"] == "Typed"
    assert _data(entry.id)["body"][0]["children"][0]["text"] == "Draft text"
    assert AuditLog.objects.filter(source="admin", user=user, action="content_update").exists()
    # The flash message of the background save does not pop up on the next page.
    assert "Saved." not in client.get(url).content.decode()
    # The next autosave with the new _rev is accepted; the old one is a conflict.
    again = client.post(url, {**form, "f_title": "Typed more", "_rev": answer["rev"]}, **AUTOSAVE)
    assert again.json()["ok"] is True
    stale = client.post(url, {**form, "f_title": "Lost?", "_rev": rev}, **AUTOSAVE)
    assert stale.status_code == 409 and stale.json()["code"] == "CONFLICT"
    assert _data(entry.id)["title"] == "Typed more"


def test_autosave_reports_field_problems_and_saves_nothing(posts, as_role):
    client, _ = as_role("editor")
    entry = make_entry(data={"title": "Before"})
    url = f"/_emdash/admin/content/posts/{entry.id}/"
    rev = client.get(url).context["rev"]
    bad_link = json.dumps(
        [
            {
                "_type": "block",
                "markDefs": [{"_type": "link", "_key": "l", "href": "javascript:alert(1)"}],
                "children": [{"_type": "span", "text": "x", "marks": ["l"]}],
            }
        ]
    )
    response = client.post(url, {"f_title": "New", "f_body": bad_link, "_rev": rev, "slug": "s"}, **AUTOSAVE)
    assert response.status_code == 400
    answer = response.json()
    assert (
        answer["ok"] is False and answer["code"] == "VALIDATION_ERROR" and "not allowed" in answer["problems"]["body"]
    )
    assert _data(entry.id)["title"] == "Before"


def test_a_bad_rich_text_post_keeps_every_input(posts, as_role):
    client, _ = as_role("editor")
    response = client.post("/_emdash/admin/content/posts/new/", {"f_title": "Mine", "f_body": "[{"})
    assert response.status_code == 400
    page = response.content.decode()
    assert 'value="Mine"' in page and "not valid Portable Text JSON" in page and "[{</textarea>" in page


@pytest.mark.django_db
def test_settings_keep_every_input_when_one_is_wrong(as_role):
    admin, _ = as_role("admin")
    admin.post("/_emdash/admin/settings/", {"title": "My site", "tagline": "Old"})
    response = admin.post(
        "/_emdash/admin/settings/",
        {"title": "New title", "tagline": "New tagline", "timezone": "Mars/Base", "social.twitter": "@me"},
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert 'value="New title"' in page and 'value="New tagline"' in page and 'value="Mars/Base"' in page
    assert 'value="@me"' in page and 'aria-invalid="true" aria-describedby="s_timezone_e"' in page
    assert site_settings()["title"] == "My site" and site_settings().get("tagline") == "Old"


@pytest.mark.django_db
def test_schema_builder_keeps_checkboxes_and_choices_on_error(posts, as_role):
    admin, _ = as_role("admin")
    response = admin.post("/_emdash/admin/schema/", {"slug": "Bad Slug", "label": "Things", "supports": ["search"]})
    assert response.status_code == 400
    page = response.content.decode()
    assert 'value="search" checked' in page and 'value="drafts" checked' not in page
    response = admin.post(
        "/_emdash/admin/schema/posts/",
        {"slug": "title", "label": "Again", "type": "reference", "target": "posts", "required": "on", "unique": "on"},
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert 'name="required" checked' in page and 'name="unique" checked' in page
    assert 'name="translatable">' in page  # unticked on purpose stays unticked
    assert '<option value="posts" selected>' in page and '<option value="reference" selected>' in page


@pytest.mark.django_db
def test_token_and_user_forms_keep_choices_on_error(as_role):
    admin, _ = as_role("admin")
    response = admin.post("/_emdash/admin/tokens/", {"name": "", "scopes": ["content:read"], "expires_days": "5"})
    assert response.status_code == 400
    page = response.content.decode()
    assert 'value="content:read" checked' in page and 'value="5"' in page
    response = admin.post("/_emdash/admin/users/", {"email": "not-an-email", "name": "N", "role": "40"})
    assert response.status_code == 400
    page = response.content.decode()
    assert '<option value="40" selected>' in page and 'value="not-an-email"' in page
