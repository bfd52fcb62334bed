"""Editing taxonomy terms in the admin: rename (label, slug, description) and move (change parent)."""

from __future__ import annotations

import pytest

from audit.models import AuditLog
from taxonomy import hierarchy, services
from taxonomy.models import Term
from tests.factories import SYSTEM

BASE = "/_emdash/admin/taxonomies/"


@pytest.fixture
def tree(db):
    """category: news > local > village; sport (a second root). tag: flat."""
    news = services.term_create(actor=SYSTEM, taxonomy="category", slug="news", label="News")
    local = services.term_create(actor=SYSTEM, taxonomy="category", slug="local", label="Local", parent_id=news.id)
    village = services.term_create(
        actor=SYSTEM, taxonomy="category", slug="village", label="Village", parent_id=local.id
    )
    sport = services.term_create(actor=SYSTEM, taxonomy="category", slug="sport", label="Sport")
    return {"news": news, "local": local, "village": village, "sport": sport}


def _post(client, term: str, /, **data: str):
    current = Term.objects.get(taxonomy__name="category", slug=term)
    form = {"label": current.label, "slug": current.slug, "description": current.description,
            "parent": current.parent_id or "", **data}  # fmt: skip
    return client.post(f"{BASE}category/{term}/", form)


def test_the_term_list_links_to_each_terms_edit_page(tree, as_role):
    client, _ = as_role("editor")
    html = client.get(f"{BASE}category/").content.decode()
    assert f'href="{BASE}category/{tree["local"].id}/"' in html  # by id: a slug may name several locales' terms


def test_the_edit_form_shows_the_term_and_its_current_parent(tree, as_role):
    client, _ = as_role("editor")
    page = client.get(f"{BASE}category/local/")
    html = page.content.decode()
    assert page.status_code == 200 and 'value="Local"' in html and 'value="local"' in html
    assert f'<option value="{tree["news"].id}" selected>' in html
    assert f'<option value="{tree["local"].id}"' not in html  # a term is not offered as its own parent


def test_rename_changes_label_slug_and_description_and_is_audited(tree, as_role):
    client, user = as_role("editor")
    response = _post(client, "local", label="Local news", slug="local-news", description="Around town")
    assert response.status_code == 302 and response["Location"] == f"{BASE}category/"
    term = Term.objects.get(pk=tree["local"].pk)
    assert (term.label, term.slug, term.description) == ("Local news", "local-news", "Around town")
    assert term.parent_id == tree["news"].id  # untouched
    assert AuditLog.objects.filter(user=user, action="taxonomy_update_term", outcome="ok").exists()


def test_move_under_another_parent_and_to_the_top_level(tree, as_role):
    client, _ = as_role("editor")
    assert _post(client, "local", parent=tree["sport"].id).status_code == 302
    assert Term.objects.get(slug="local").parent_id == tree["sport"].id
    assert Term.objects.get(slug="village").parent_id == tree["local"].id  # the subtree moves along
    assert _post(client, "local", parent="").status_code == 302
    assert Term.objects.get(slug="local").parent_id is None


def test_a_move_below_its_own_descendant_is_refused_with_a_form_message(tree, as_role):
    client, _ = as_role("editor")
    response = _post(client, "news", parent=tree["village"].id, label="Renamed too")
    html = response.content.decode()
    assert response.status_code == 400
    assert "the move would create a cycle" in html and 'aria-invalid="true"' in html
    assert f'<option value="{tree["village"].id}" selected>' in html  # the choice is kept for correction
    news = Term.objects.get(pk=tree["news"].pk)
    assert news.parent_id is None and news.label == "News"  # nothing changed


def test_a_move_that_would_be_too_deep_is_refused_with_a_form_message(tree, as_role, monkeypatch):
    monkeypatch.setattr(hierarchy, "MAX_DEPTH", 2)
    client, _ = as_role("editor")
    response = _post(client, "sport", parent=tree["village"].id)
    assert response.status_code == 400 and "too deep" in response.content.decode()
    assert Term.objects.get(slug="sport").parent_id is None


def test_a_taken_slug_or_an_empty_label_changes_nothing(tree, as_role):
    client, _ = as_role("editor")
    taken = _post(client, "local", slug="sport", label="Changed")
    assert taken.status_code == 400 and "already used" in taken.content.decode()
    empty = _post(client, "local", label="  ")
    assert empty.status_code == 400 and "non-empty" in empty.content.decode()
    bad_slug = _post(client, "local", slug="Not A Slug!")
    assert bad_slug.status_code == 400
    term = Term.objects.get(pk=tree["local"].pk)
    assert (term.slug, term.label) == ("local", "Local")


def test_flat_taxonomies_edit_without_a_parent_field(db, as_role):
    services.term_create(actor=SYSTEM, taxonomy="tag", slug="python", label="Python")
    client, _ = as_role("editor")
    page = client.get(f"{BASE}tag/python/").content.decode()
    assert 'name="parent"' not in page
    response = client.post(f"{BASE}tag/python/", {"label": "Python 3", "slug": "python3", "description": ""})
    assert response.status_code == 302 and Term.objects.get(taxonomy__name="tag").slug == "python3"


def test_unknown_terms_are_404_and_authors_cannot_edit_terms(tree, as_role):
    editor, _ = as_role("editor")
    assert editor.get(f"{BASE}category/nope/").status_code == 404
    author, _ = as_role("author")
    assert author.get(f"{BASE}category/local/").status_code == 403
    assert _post(author, "local", label="Hacked").status_code == 403
    assert Term.objects.get(slug="local").label == "Local"
