"""The admin: a slug edit of a published item shown as pending, SEO fields, the publication date, Redirects screen."""

from __future__ import annotations

from content.entries import selectors, services
from content.models import Redirect
from content.redirects import services as redirects
from tests.factories import SYSTEM, make_entry

URL = "/_emdash/admin/redirects/"


def _item(entry_id: str) -> dict:
    return selectors.entry_get(actor=SYSTEM, collection="posts", id=entry_id).to_dict()


def _published(title: str) -> str:
    entry = make_entry(data={"title": title})
    services.entry_publish(actor=SYSTEM, collection="posts", id=entry.id)
    return entry.id


def test_a_new_slug_waits_for_publish_then_redirects(posts, as_role):
    client, _ = as_role("editor")
    entry_id = _published("Admin post")
    edit = f"/_emdash/admin/content/posts/{entry_id}/"
    rev = client.get(edit).context["rev"]
    assert client.post(edit, {"f_title": "Admin post", "slug": "admin-moved", "_rev": rev}).status_code == 302
    page = client.get(edit).content.decode()
    assert 'value="admin-moved"' in page and "the live address stays /posts/admin-post/" in page
    assert 'href="/posts/admin-post/"' in page  # "View on site" still points at the live URL
    compare = client.get(f"{edit}compare/").content.decode()
    assert "Slug" in compare and "admin-moved" in compare
    assert client.get("/posts/admin-post/").status_code == 200
    client.post(f"{edit}publish/")
    assert _item(entry_id)["slug"] == "admin-moved"
    assert client.get("/posts/admin-post/")["Location"] == "/posts/admin-moved/"
    assert "/posts/admin-post/" in client.get(URL).content.decode()


def test_seo_fields_save_clear_and_refuse_bad_values(posts, as_role):
    client, _ = as_role("editor")
    created = client.post(
        "/_emdash/admin/content/posts/new/",
        {"f_title": "With SEO", "seo_form": "1", "seo_title": "Search me", "seo_noindex": "on"},
    )
    assert created.status_code == 302
    entry_id = created["Location"].rstrip("/").split("/")[-1]
    assert _item(entry_id)["seo"] == {"title": "Search me", "noindex": True}
    edit = f"/_emdash/admin/content/posts/{entry_id}/"
    rev = client.get(edit).context["rev"]
    form = {"f_title": "With SEO", "slug": "with-seo", "_rev": rev, "seo_form": "1", "seo_title": "Search me"}
    bad = client.post(edit, {**form, "seo_canonical": "javascript:alert(1)"})
    assert bad.status_code == 400 and "canonical" in bad.content.decode()
    assert _item(entry_id)["seo"] == {"title": "Search me", "noindex": True}
    saved = client.post(edit, {**form, "seo_title": "", "seo_description": "Described"})
    assert saved.status_code == 302
    assert _item(entry_id)["seo"] == {"description": "Described"}  # emptied title and unticked noindex cleared


def test_publish_with_a_publication_date(posts, as_role):
    client, _ = as_role("editor")
    entry = make_entry(data={"title": "Old one"})
    base = f"/_emdash/admin/content/posts/{entry.id}"
    client.post(f"{base}/publish/", {"published_at": "not a date"})
    assert _item(entry.id)["status"] == "draft"
    client.post(f"{base}/publish/", {"published_at": "2018-02-03T04:05"})
    item = _item(entry.id)
    assert item["status"] == "published" and item["publishedAt"].startswith("2018-02-0")


def test_redirects_screen_for_editors_only(posts, as_role):
    editor, _ = as_role("editor")
    author, _ = as_role("author")
    assert "Redirects" in editor.get("/_emdash/admin/").content.decode()
    assert "Redirects" not in author.get("/_emdash/admin/").content.decode()
    assert author.get(URL).status_code == 403
    assert author.post(URL, {"source": "/a/", "target": "/b/"}).status_code == 403
    bad = editor.post(URL, {"source": "//evil.example/", "target": "/b/"})
    assert bad.status_code == 400 and "no //host" in bad.content.decode() and not Redirect.objects.exists()
    assert editor.post(URL, {"source": "/old-page/", "target": "/posts/"}).status_code == 302
    page = editor.get(URL).content.decode()
    assert "/old-page/" in page and "added by hand" in page
    redirect_id = Redirect.objects.get().id
    assert author.post(f"{URL}{redirect_id}/delete/").status_code == 403
    assert editor.post(f"{URL}{redirect_id}/delete/").status_code == 302 and not Redirect.objects.exists()
    redirects.redirect_create(actor=SYSTEM, source="/x/", target="/y/")
    assert editor.get(f"{URL}?cursor=garbage").status_code == 200


def test_the_social_image_is_picked_from_the_media_library(posts, as_role):
    from media import services as media_services
    from tests.admin.test_admin_widgets import _png, _wrap

    client, _ = as_role("editor")
    image = media_services.media_upload(actor=SYSTEM, file=_wrap(_png(), "card.png"), filename="card.png")
    entry_id = make_entry(data={"title": "Card"}).id
    edit = f"/_emdash/admin/content/posts/{entry_id}/"
    page = client.get(edit)
    assert f'<option value="{image.id}"' in page.content.decode()  # a picker, not an id to type
    form = {"f_title": "Card", "slug": "card", "_rev": page.context["rev"], "seo_form": "1", "seo_image": image.id}
    assert client.post(edit, form).status_code == 302
    assert _item(entry_id)["seo"]["image"]["id"] == image.id
    assert f'<option value="{image.id}" data-preview="' in client.get(edit).content.decode()
