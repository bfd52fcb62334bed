"""SPEC 13 "Starting a real site": ``manage.py emdash_setup --starter blog|pages|empty`` and the empty
dashboard's same choice (admin only, POST with CSRF)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from audit.models import AuditLog
from content.schema import specs as schema
from menus.models import Menu
from starters.models import StarterChoice
from taxonomy.models import TaxonomyDefinition
from tests.admin.conftest import login


def setup(starter: str) -> str:
    out = StringIO()
    call_command("emdash_setup", starter=starter, stdout=out)
    return out.getvalue()


def _snapshot() -> dict[str, object]:
    """Everything a starter may touch, to prove a second run changes nothing."""
    current = schema.current(fresh=True)
    return {
        "collections": {s: [f.slug for f in spec.fields] for s, spec in current.collections.items()},
        "taxonomies": {t.name: sorted(t.collections) for t in TaxonomyDefinition.objects.all()},
        "menus": {m.name: [(i.label, i.custom_url) for i in m.items.order_by("position")] for m in Menu.objects.all()},
        "choices": sorted(StarterChoice.objects.values_list("name", flat=True)),
    }


def test_blog_creates_posts_and_pages_with_taxonomies_and_a_home_link(cms):
    out = setup("blog")
    current = schema.current(fresh=True)
    assert set(current.collections) == {"posts", "pages"}
    assert [f.slug for f in current.get("posts").fields] == ["title", "excerpt", "body", "cover"]
    for name in ("category", "tag"):
        assert "posts" in TaxonomyDefinition.objects.get(name=name).collections
    menu = Menu.objects.get(name="primary")
    assert [(i.label, i.custom_url) for i in menu.items.all()] == [("Home", "/")]
    assert current.get("posts").model.objects.count() == 0  # no demo content
    assert "created collection posts" in out and "Starter 'blog' applied." in out


def test_running_a_starter_again_changes_nothing(cms):
    setup("blog")
    before = _snapshot()
    out = setup("blog")
    assert _snapshot() == before
    assert "already applied: nothing to change" in out


def test_pages_creates_pages_and_the_primary_menu_only(cms):
    setup("pages")
    assert set(schema.current(fresh=True).collections) == {"pages"}
    assert Menu.objects.filter(name="primary").exists()


def test_empty_creates_nothing_but_stops_the_offer(cms):
    setup("empty")
    assert schema.current(fresh=True).collections == {}
    assert not Menu.objects.exists()
    assert list(StarterChoice.objects.values_list("name", flat=True)) == ["empty"]


def test_an_unknown_starter_is_refused_with_the_choices(cms):
    with pytest.raises(CommandError) as refused:
        setup("shop")
    assert "Unknown starter 'shop'" in str(refused.value)
    assert "blog, pages, empty" in str(refused.value)
    assert _snapshot() == {
        "collections": {},
        "taxonomies": {"category": ["posts"], "tag": ["posts"]},
        "menus": {},
        "choices": [],
    }


def test_the_command_exits_non_zero_on_an_unknown_starter(cms):
    from django.core.management import ManagementUtility

    with pytest.raises(SystemExit) as exited:
        ManagementUtility(["manage.py", "emdash_setup", "--starter", "shop"]).execute()
    assert exited.value.code != 0


def test_help_names_every_starter():
    out = StringIO()
    from django.core.management import load_command_class

    load_command_class("starters", "emdash_setup").create_parser("manage.py", "emdash_setup").print_help(out)
    for name in ("blog", "pages", "empty"):
        assert name in out.getvalue()


def test_the_empty_dashboard_offers_starters_to_admins_only(cms):
    admin, _ = login("admin")
    editor, _ = login("editor")
    assert b"Start your site" in admin.get("/_emdash/admin/").content
    assert b"Start your site" not in editor.get("/_emdash/admin/").content
    assert editor.post("/_emdash/admin/setup/", {"starter": "blog"}).status_code == 403
    assert schema.current(fresh=True).collections == {}


def test_choosing_a_starter_on_the_dashboard_applies_it_once_and_audits_it(cms):
    admin, _ = login("admin")
    response = admin.post("/_emdash/admin/setup/", {"starter": "blog"}, follow=True)
    assert b"Blog starter applied." in response.content
    assert b"Start your site" not in response.content
    assert set(schema.current(fresh=True).collections) == {"posts", "pages"}
    assert AuditLog.objects.filter(action="starter_apply", outcome="ok", target="blog").count() == 1


def test_the_dashboard_choice_needs_csrf(cms):
    from tests.factories import make_user

    client = Client(enforce_csrf_checks=True)
    client.force_login(make_user("admin"))
    assert client.post("/_emdash/admin/setup/", {"starter": "blog"}).status_code == 403
    assert schema.current(fresh=True).collections == {}


def test_an_unknown_starter_on_the_dashboard_changes_nothing(cms):
    admin, _ = login("admin")
    response = admin.post("/_emdash/admin/setup/", {"starter": "shop"}, follow=True)
    assert b"must be one of: blog, pages, empty" in response.content
    assert not StarterChoice.objects.exists()
