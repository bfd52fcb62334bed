"""Each role sees exactly the screens the permission table allows: the nav and the pages agree with it."""

from __future__ import annotations

import pytest

from admin_ui.nav import SECTIONS, allowed
from emdash.actor import Actor
from emdash.roles import Role
from tests.factories import make_user

# Pages under one permission each (from the nav table), plus the content list.
PAGES = [(label, name, need) for label, name, key, need in SECTIONS]
URLS = {
    "admin_ui:review": "/_emdash/admin/review/",
    "admin_ui:media": "/_emdash/admin/media/",
    "admin_ui:taxonomies": "/_emdash/admin/taxonomies/",
    "admin_ui:menus": "/_emdash/admin/menus/",
    "admin_ui:bylines": "/_emdash/admin/bylines/",
    "admin_ui:redirects": "/_emdash/admin/redirects/",
    "admin_ui:schema": "/_emdash/admin/schema/",
    "admin_ui:settings": "/_emdash/admin/settings/",
    "admin_ui:users": "/_emdash/admin/users/",
    "admin_ui:tokens": "/_emdash/admin/tokens/",
    "admin_ui:audit": "/_emdash/admin/audit/",
    "admin_ui:webhooks": "/_emdash/admin/webhooks/",
    "admin_ui:tools": "/_emdash/admin/tools/",
    "admin_ui:oauth_apps": "/_emdash/admin/oauth-apps/",
    "oauth-device": "/_emdash/admin/device",
}


@pytest.mark.django_db
@pytest.mark.parametrize("role", list(Role))
def test_pages_and_nav_follow_the_permission_table(client, role):
    user = make_user(role)
    client.force_login(user)
    actor = Actor.for_user(user)
    dashboard = client.get("/_emdash/admin/").content.decode()
    for label, name, need in PAGES:
        url = URLS[name]
        expected = allowed(actor, need)
        assert (client.get(url).status_code == 200) is expected, (role, url)
        assert (f'href="{url}"' in dashboard) is expected, (role, label)


@pytest.mark.django_db
def test_an_author_cannot_reach_admin_only_screens_or_post_to_them(client):
    client.force_login(make_user("author"))
    for url in ("/_emdash/admin/users/", "/_emdash/admin/schema/", "/_emdash/admin/settings/", "/_emdash/admin/audit/"):
        assert client.get(url).status_code == 403
    response = client.post(
        "/_emdash/admin/users/", {"email": "x@example.com", "role": "50", "password": "long-enough-1"}
    )
    assert response.status_code == 403
    from accounts.models import User

    assert not User.objects.filter(email="x@example.com").exists()
