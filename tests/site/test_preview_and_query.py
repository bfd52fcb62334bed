"""Signed preview links for editors, and the query API / template tags that templates use."""

from __future__ import annotations

from django.core import signing
from django.template import Context, Template
from django.test import Client

from content.entries import preview, services
from emdash.actor import Actor
from public_site import query
from tests.api.helpers import body, call, client_for, session_client
from tests.factories import make_user
from tests.site.conftest import SYSTEM


def _link(site, user) -> str:
    services.entry_update(actor=SYSTEM, collection="posts", id=site["hello"].id, data={"title": "Hello draft v2"})
    return preview.preview_link(actor=Actor.for_user(user), collection="posts", id=site["hello"].id).path


def test_preview_link_shows_the_draft_to_a_signed_in_editor_only(site) -> None:
    editor = make_user("editor")
    path = _link(site, editor)
    response = session_client(editor).get(path)
    html = response.content.decode()
    assert response.status_code == 200 and "Hello draft v2" in html and "Preview of an unpublished draft" in html
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    assert "Hello draft v2" not in Client().get("/posts/hello-world/").content.decode()
    anonymous = Client().get(path)
    assert anonymous.status_code == 403 and "Hello draft v2" not in anonymous.content.decode()
    subscriber = session_client(make_user("subscriber")).get(path)
    assert subscriber.status_code == 403 and "Hello draft v2" not in subscriber.content.decode()


def test_forged_or_expired_preview_links_are_refused(site, settings) -> None:
    editor = make_user("editor")
    path = _link(site, editor)
    token = path.rstrip("/").rsplit("/", 1)[1]
    forged = signing.dumps({"c": "posts", "i": site["draft"].id}, salt="another-salt", compress=True)
    assert session_client(editor).get(f"/_emdash/preview/{forged}/").status_code == 404
    assert session_client(editor).get(f"/_emdash/preview/{token[:-2]}xx/").status_code == 404
    settings.EMDASH = {**settings.EMDASH, "PREVIEW_MAX_AGE": -1}
    assert session_client(editor).get(path).status_code == 404


def test_preview_url_over_rest(site) -> None:
    response = call(
        client_for("contributor", "content:read"), "GET", f"/_emdash/api/content/posts/{site['draft'].id}/preview-url"
    )
    assert response.status_code == 200
    link = body(response)
    assert link["url"].startswith("http://testserver/_emdash/preview/") and link["expiresAt"]
    denied = call(
        client_for("subscriber", "content:read"), "GET", f"/_emdash/api/content/posts/{site['draft'].id}/preview-url"
    )
    assert denied.status_code == 403


def test_query_api_reads_published_content_only(site) -> None:
    assert [i["data"]["title"] for i in query.entries("posts", per_page=10).items] == ["Second post", "Hello world"]
    assert query.entry("posts", "secret-plans") is None
    assert query.entry("posts", "hello-world")["url"] == "/posts/hello-world/"
    assert [i["slug"] for i in query.term_entries("category", "news").items] == ["hello-world"]
    listed = query.entry_list("posts", order_by="title", order="asc", limit=1)
    assert [i["slug"] for i in listed["items"]] == ["hello-world"] and listed["nextCursor"]
    assert [n["label"] for n in query.menu("primary")["items"]] == ["Home", "News", "About"]
    assert query.menu("nope") is None
    assert [t["slug"] for t in query.terms("category")] == ["news"]
    assert query.site_settings()["title"] == "Marmalade Times"
    assert [r["slug"] for r in query.search("secret")] == []


def test_template_tags(site) -> None:
    template = Template(
        "{% load emdash_site %}"
        '{% get_entries "posts" limit=5 as posts %}{% for p in posts %}[{{ p.data.title }}]{% endfor %}'
        '{% get_entry "pages" "about-us" as page %}{% portable_text page.data.body %}'
        '{% get_menu "primary" as menu %}{% for i in menu.items %}<{{ i.url }}>{% endfor %}'
        '{% get_terms "category" as cats %}{{ cats.0.label }}'
        "{% get_site_settings as s %}{{ s.tagline }}"
        '{% search_results "marmalade" as results %}{{ results|length }}'
        '{% get_entries "nope" as none %}{{ none|length }}'
    )
    out = template.render(Context({}))
    assert out == (
        "[Second post][Hello world]<p>We make marmalade.</p></></category/news/></pages/about-us/>NewsAll about jam20"
    )
