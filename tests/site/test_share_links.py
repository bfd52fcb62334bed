"""Share links: an expiring, revocable draft preview for reviewers without an account; the editor's Preview button."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from content.entries import services
from content.entries import shares as preview
from content.models import PreviewShare
from emdash.actor import Actor
from emdash.errors import InsufficientPermissions, ValidationError
from tests.api.helpers import session_client
from tests.factories import make_user
from tests.site.conftest import SYSTEM


def _draft(site) -> str:
    services.entry_update(actor=SYSTEM, collection="posts", id=site["hello"].id, data={"title": "Hello draft v2"})
    return site["hello"].id


def _share(site, user, lifetime="1d") -> str:
    _, path = preview.share_create(actor=Actor.for_user(user), collection="posts", id=_draft(site), lifetime=lifetime)
    return path


def test_a_share_link_shows_the_draft_without_an_account(site) -> None:
    path = _share(site, make_user("editor"))
    response = Client().get(path)
    html = response.content.decode()
    assert response.status_code == 200 and "Hello draft v2" in html and "shared for review" in html
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    assert response["Cache-Control"] == "private, no-store"
    assert response["Referrer-Policy"] == "no-referrer"
    assert '<meta name="robots" content="noindex, nofollow">' in html
    assert "Hello draft v2" not in Client().get("/posts/hello-world/").content.decode()


def test_only_the_hash_of_the_link_is_stored(site) -> None:
    path = _share(site, make_user("editor"))
    secret = path.rstrip("/").rsplit("/", 1)[1]
    row = PreviewShare.objects.get()
    assert secret not in row.token_hash and len(row.token_hash) == 64


def test_a_revoked_link_is_gone(site) -> None:
    editor = make_user("editor")
    path = _share(site, editor)
    preview.share_revoke(actor=Actor.for_user(editor), share_id=PreviewShare.objects.get().pk)
    response = Client().get(path)
    assert response.status_code == 410 and "switched off" in response.content.decode()
    assert "Hello draft v2" not in response.content.decode()
    assert response["Cache-Control"] == "private, no-store"


def test_an_expired_link_is_gone(site) -> None:
    path = _share(site, make_user("editor"), lifetime="1h")
    PreviewShare.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    response = Client().get(path)
    assert response.status_code == 410 and "has expired" in response.content.decode()


def test_an_unknown_link_is_not_found(site) -> None:
    response = Client().get("/_emdash/share/not-a-real-link/")
    assert response.status_code == 404 and "does not exist" in response.content.decode()


def test_a_link_to_a_deleted_item_is_not_found(site) -> None:
    path = _share(site, make_user("editor"))
    services.entry_trash(actor=SYSTEM, collection="posts", id=site["hello"].id)
    assert Client().get(path).status_code == 404


def test_lifetimes_and_expiry(site) -> None:
    editor = make_user("editor")
    share, _ = preview.share_create(
        actor=Actor.for_user(editor), collection="posts", id=site["hello"].id, lifetime="7d"
    )
    assert timedelta(days=6, hours=23) < share.expires_at - timezone.now() <= timedelta(days=7)
    with pytest.raises(ValidationError):
        preview.share_create(actor=Actor.for_user(editor), collection="posts", id=site["hello"].id, lifetime="1y")
    assert PreviewShare.objects.count() == 1


def test_sharing_takes_the_right_to_edit_the_item(site) -> None:
    author = make_user("author")
    with pytest.raises(InsufficientPermissions):  # the SYSTEM-created post is not the author's own
        preview.share_create(actor=Actor.for_user(author), collection="posts", id=site["hello"].id, lifetime="1h")
    contributor = make_user("contributor")
    with pytest.raises(InsufficientPermissions):
        preview.share_create(actor=Actor.for_user(contributor), collection="posts", id=site["hello"].id, lifetime="1h")
    assert PreviewShare.objects.count() == 0


def test_admin_share_create_list_and_revoke(site) -> None:
    editor = make_user("editor")
    client = session_client(editor)
    id = _draft(site)
    edit = f"/_emdash/admin/content/posts/{id}/"
    created = client.post(f"{edit}share/", {"lifetime": "1h"})
    html = created.content.decode()
    assert created.status_code == 200 and "/_emdash/share/" in html and "for 1 hour" in html
    url = html.split("data-share-url", 1)[0].rsplit('value="', 1)[1].split('"', 1)[0]
    assert Client().get(url).status_code == 200
    page = client.get(edit).content.decode()
    assert "Active share links" in page and "Switch off" in page
    share = PreviewShare.objects.get()
    client.post(f"{edit}share/{share.pk}/revoke/")
    assert Client().get(url).status_code == 410
    assert "Active share links" not in client.get(edit).content.decode()


def test_admin_preview_button_redirects_to_a_signed_preview(site) -> None:
    editor = make_user("editor")
    id = _draft(site)
    response = session_client(editor).get(f"/_emdash/admin/content/posts/{id}/preview/")
    assert response.status_code == 302 and response["Location"].startswith("/_emdash/preview/")
    shown = session_client(editor).get(response["Location"])
    assert "Hello draft v2" in shown.content.decode()
