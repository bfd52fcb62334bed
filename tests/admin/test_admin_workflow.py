"""Issue 14, the rest of item 5 and 6: terms on the first save, the menu editor's content picker, a
translation's source column, datetime fields in the site's zone, and autosaves coalesced into one revision."""

from __future__ import annotations

import json

import pytest
from django.test import override_settings

from audit.models import AuditLog
from content.entries import selectors, services
from content.models import Revision
from menus import selectors as menu_selectors
from menus import services as menu_services
from settings_app import services as settings_services
from taxonomy import selectors as taxonomy_selectors
from taxonomy import services as taxonomy_services
from tests.factories import SYSTEM, make_entry

AUTOSAVE = {"HTTP_X_EMDASH_AUTOSAVE": "1"}


def _terms(id: str) -> dict[str, list[str]]:
    found = taxonomy_selectors.entry_terms(actor=SYSTEM, collection="posts", id=id)
    return {name: sorted(t["slug"] for t in terms) for name, terms in found.items() if terms}


# --- terms on the first save ------------------------------------------------------------------------------------


def test_the_create_form_shows_term_pickers_and_assigns_them_in_the_same_save(posts, as_role):
    news = taxonomy_services.term_create(actor=SYSTEM, taxonomy="category", slug="news", label="News")
    jam = taxonomy_services.term_create(actor=SYSTEM, taxonomy="tag", slug="jam", label="Jam")
    client, user = as_role("author")
    page = client.get("/_emdash/admin/content/posts/new/").content.decode()
    # Term ids, not slugs: a slug may name terms of several locales.
    assert f'name="terms_category" value="{news.id}"' in page and f'name="terms_tag" value="{jam.id}"' in page
    response = client.post(
        "/_emdash/admin/content/posts/new/",
        {"f_title": "Fresh", "terms_taxonomies": "category,tag", "terms_category": [news.id], "terms_tag": [jam.id]},
    )
    assert response.status_code == 302
    entry_id = response["Location"].rstrip("/").split("/")[-1]
    assert _terms(entry_id) == {"category": ["news"], "tag": ["jam"]}
    assert AuditLog.objects.filter(user=user, action="content_create", outcome="ok").count() == 1  # one write


def test_an_unknown_term_on_create_saves_nothing_and_keeps_the_ticks(posts, as_role):
    news = taxonomy_services.term_create(actor=SYSTEM, taxonomy="category", slug="news", label="News")
    client, _ = as_role("author")
    form = {"f_title": "Fresh", "terms_taxonomies": "category", "terms_category": [news.id, "ghost"]}
    response = client.post("/_emdash/admin/content/posts/new/", form)
    assert response.status_code == 400
    page = response.content.decode()
    assert f'value="{news.id}" checked' in page and 'value="Fresh"' in page
    assert selectors.entry_list(actor=SYSTEM, collection="posts").rows == []  # the item was not created either


def test_a_field_error_on_create_keeps_the_chosen_terms(posts, as_role):
    news = taxonomy_services.term_create(actor=SYSTEM, taxonomy="category", slug="news", label="News")
    client, _ = as_role("author")
    form = {"f_title": "", "terms_taxonomies": "category", "terms_category": ["news"]}  # a slug still ticks it
    response = client.post("/_emdash/admin/content/posts/new/", form)
    assert response.status_code == 400 and f'value="{news.id}" checked' in response.content.decode()


# --- the menu editor's content picker ---------------------------------------------------------------------------


def test_the_menu_picker_finds_drafts_and_published_items_by_title(posts, as_role):
    published = services.entry_publish(
        actor=SYSTEM, collection="posts", id=make_entry(data={"title": "Marmalade recipes"}).id
    )
    draft = make_entry(data={"title": "Marmalade plans"})
    make_entry(data={"title": "Unrelated"})
    client, _ = as_role("editor")
    answer = client.get("/_emdash/admin/menu-links/search/", {"q": "marmalade"}).json()
    found = {r["id"]: r for r in answer["results"]}
    assert set(found) == {published.id, draft.id}
    assert found[draft.id] == {
        "collection": "posts",
        "collectionLabel": "Posts",
        "id": draft.id,
        "title": "Marmalade plans",
        "slug": draft.row.slug,
        "status": "draft",
        "locale": "en",
    }
    assert client.get("/_emdash/admin/menu-links/search/", {"q": " "}).json()["results"] == []


def test_the_menu_picker_is_for_menu_managers_only(posts, as_role):
    make_entry(data={"title": "Secret draft"})
    client, _ = as_role("author")
    response = client.get("/_emdash/admin/menu-links/search/", {"q": "secret"})
    assert response.status_code == 403 and "Secret draft" not in response.content.decode()


def test_menu_items_show_the_linked_titles_and_save_without_the_display_title(posts, as_role):
    entry = make_entry(data={"title": "About the jam"})
    menu_services.menu_create(actor=SYSTEM, name="main", label="Main")
    menu_services.menu_set_items(
        actor=SYSTEM,
        name="main",
        items=[{"label": "About", "type": "post", "referenceCollection": "posts", "referenceId": entry.id}],
    )
    client, _ = as_role("editor")
    items = json.loads(client.get("/_emdash/admin/menus/main/").context["items_json"])
    assert items[0]["title"] == "About the jam" and items[0]["referenceId"] == entry.id
    items.append(
        {
            "label": "Again",
            "type": "post",
            "referenceCollection": "posts",
            "referenceId": entry.id,
            "title": "About the jam",
            "depth": 0,
        }
    )
    response = client.post("/_emdash/admin/menus/main/", {"items_json": json.dumps(items)})
    assert response.status_code == 302
    saved = menu_selectors.menu_get(actor=SYSTEM, name="main")["items"]
    assert [i["label"] for i in saved] == ["About", "Again"] and saved[1]["referenceId"] == entry.id


# --- a translation's source column -------------------------------------------------------------------------------


@pytest.fixture
def bilingual(posts):
    with override_settings(EMDASH={"LOCALES": ["en", "fr"]}):
        yield


def test_a_translation_shows_the_source_values_read_only_beside_the_form(bilingual, as_role):
    source = make_entry(data={"title": "Orange marmalade", "excerpt": "Bitter and sweet"})
    translation = services.entry_create(
        actor=SYSTEM, collection="posts", data={"title": "Confiture d'orange"}, locale="fr", translation_of=source.id
    )
    client, _ = as_role("editor")
    page = client.get(f"/_emdash/admin/content/posts/{translation.id}/").content.decode()
    assert 'class="edit-layout has-source"' in page and "Source: en" in page
    column = page[page.index("data-translation-source") : page.index('id="entry-form"')]
    assert 'lang="en"' in column and "Bitter and sweet" in column and "Orange marmalade" in column
    assert "<input" not in column and "<textarea" not in column  # read-only
    original = client.get(f"/_emdash/admin/content/posts/{source.id}/").content.decode()
    assert "data-translation-source" not in original  # the source itself has no source column
    asked = client.get(f"/_emdash/admin/content/posts/{source.id}/", {"source": "fr"}).content.decode()
    assert "Source: fr" in asked and "Confiture d&#x27;orange" in asked  # unless a locale is asked for
    unrelated = client.get(f"/_emdash/admin/content/posts/{make_entry().id}/").content.decode()
    assert "data-translation-source" not in unrelated


def test_a_source_of_another_locale_can_be_chosen(posts, as_role):
    with override_settings(EMDASH={"LOCALES": ["en", "fr", "de"]}):
        source = make_entry(data={"title": "Lemon curd"})
        services.entry_create(
            actor=SYSTEM, collection="posts", data={"title": "Crème au citron"}, locale="fr", translation_of=source.id
        )
        de = services.entry_create(
            actor=SYSTEM, collection="posts", data={"title": "Zitronencreme"}, locale="de", translation_of=source.id
        )
        client, _ = as_role("editor")
        page = client.get(f"/_emdash/admin/content/posts/{de.id}/", {"source": "fr"}).content.decode()
        assert "Source: fr" in page and "Crème au citron" in page
        fallback = client.get(f"/_emdash/admin/content/posts/{de.id}/", {"source": "xx"}).content.decode()
        assert "Source: en" in fallback


# --- datetime fields in the site's zone ---------------------------------------------------------------------------


def _event_at(id: str) -> str:
    return selectors.entry_get(actor=SYSTEM, collection="things", id=id).to_dict()["data"]["event_at"]


@pytest.fixture
def paris(kitchen_sink):
    settings_services.settings_update(actor=SYSTEM, changes={"timezone": "Europe/Paris"})


def test_datetime_fields_are_typed_and_shown_in_the_sites_zone_across_dst(paris, as_role):
    client, _ = as_role("editor")
    page = client.get("/_emdash/admin/content/things/new/").content.decode()
    assert "(Europe/Paris time)" in page and "(UTC)" not in page
    response = client.post(
        "/_emdash/admin/content/things/new/", {"f_title": "Summer", "f_event_at": "2026-07-01T09:00"}
    )
    summer = response["Location"].rstrip("/").split("/")[-1]
    assert _event_at(summer) == "2026-07-01T07:00:00Z"  # CEST, UTC+2
    response = client.post(
        "/_emdash/admin/content/things/new/", {"f_title": "Winter", "f_event_at": "2026-01-15T09:00"}
    )
    winter = response["Location"].rstrip("/").split("/")[-1]
    assert _event_at(winter) == "2026-01-15T08:00:00Z"  # CET, UTC+1
    edit = client.get(f"/_emdash/admin/content/things/{summer}/").content.decode()
    assert 'name="f_event_at" type="datetime-local" value="2026-07-01T09:00"' in edit


def test_a_datetime_the_clocks_skip_is_refused_and_nothing_changes(paris, as_role):
    client, _ = as_role("editor")
    entry = make_entry("things", data={"title": "Gap", "event_at": "2026-01-01T00:00:00Z"})
    url = f"/_emdash/admin/content/things/{entry.id}/"
    rev = client.get(url).context["rev"]
    response = client.post(
        url, {"f_title": "Gap", "f_event_at": "2026-03-29T02:30", "slug": entry.row.slug, "_rev": rev}
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "02:30 on 2026-03-29 does not exist in Europe/Paris" in page and 'value="2026-03-29T02:30"' in page
    assert _event_at(entry.id) == "2026-01-01T00:00:00Z"
    garbage = client.post(url, {"f_title": "Gap", "f_event_at": "next tuesday", "slug": entry.row.slug, "_rev": rev})
    assert garbage.status_code == 400 and "Enter a date and time" in garbage.content.decode()
    assert _event_at(entry.id) == "2026-01-01T00:00:00Z"


# --- autosave coalescing ------------------------------------------------------------------------------------------


def _revisions(id: str) -> list[tuple[str, str]]:
    rows = Revision.objects.filter(collection="posts", entry_id=id).order_by("created_at", "id")
    return [(r.kind, r.data.get("title")) for r in rows]


@pytest.mark.parametrize("live", [False, True], ids=["draft", "published"])
def test_an_editing_sessions_autosaves_make_one_revision(posts, as_role, live):
    client, _ = as_role("editor")
    entry = make_entry(data={"title": "Start"})
    if live:
        services.entry_publish(actor=SYSTEM, collection="posts", id=entry.id)
    before = _revisions(entry.id)
    url = f"/_emdash/admin/content/posts/{entry.id}/"
    rev = client.get(url).context["rev"]
    for title in ("T", "Ty", "Typed"):
        answer = client.post(url, {"f_title": title, "slug": entry.row.slug, "_rev": rev}, **AUTOSAVE).json()
        assert answer["ok"] is True
        rev = answer["rev"]
    assert _revisions(entry.id) == [*before, ("autosave", "Typed")]
    # A stale _rev is still refused (and changes nothing).
    stale = client.post(url, {"f_title": "Lost", "slug": entry.row.slug, "_rev": "stale"}, **AUTOSAVE)
    assert stale.status_code == 409 and _revisions(entry.id) == [*before, ("autosave", "Typed")]
    # The explicit save ends the session: the same revision becomes a plain draft revision.
    assert client.post(url, {"f_title": "Typed", "slug": entry.row.slug, "_rev": rev}).status_code == 302
    assert _revisions(entry.id) == [*before, ("draft", "Typed")]
    rev = client.get(url).context["rev"]
    client.post(url, {"f_title": "Next session", "slug": entry.row.slug, "_rev": rev}, **AUTOSAVE)
    assert _revisions(entry.id) == [*before, ("draft", "Typed"), ("autosave", "Next session")]
    current = selectors.entry_get(actor=SYSTEM, collection="posts", id=entry.id).to_dict()["data"]["title"]
    assert current == "Next session"


def test_another_users_autosave_does_not_overwrite_my_session(posts, as_role):
    first, _ = as_role("editor")
    second, _ = as_role("editor")
    entry = make_entry(data={"title": "Shared"})
    url = f"/_emdash/admin/content/posts/{entry.id}/"
    before = _revisions(entry.id)
    first.post(url, {"f_title": "Mine", "slug": entry.row.slug}, **AUTOSAVE)
    second.post(url, {"f_title": "Theirs", "slug": entry.row.slug}, **AUTOSAVE)
    assert _revisions(entry.id) == [*before, ("autosave", "Mine"), ("autosave", "Theirs")]


def test_explicit_saves_still_add_a_revision_each(posts, as_role):
    client, _ = as_role("editor")
    entry = make_entry(data={"title": "One"})
    url = f"/_emdash/admin/content/posts/{entry.id}/"
    before = _revisions(entry.id)
    for title in ("Two", "Three"):
        rev = client.get(url).context["rev"]
        client.post(url, {"f_title": title, "slug": entry.row.slug, "_rev": rev})
    assert _revisions(entry.id) == [*before, ("draft", "Two"), ("draft", "Three")]
