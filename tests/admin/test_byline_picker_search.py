"""The entry form's bylines picker on a site with more bylines than its list holds (100): a search, asked as the
editor types (JSON) or, without JavaScript, by posting the form back with "Find" (nothing saved, what was typed
kept); a chosen byline past the first hundred stays in its row's list."""

from __future__ import annotations

import re
from typing import Any

import pytest

from admin_ui.credits import MAX_CHOICES
from bylines.models import Byline
from content.entries import selectors
from content.hooks import rows_credits
from tests.factories import SYSTEM, make_entry


@pytest.fixture
def many(posts: Any) -> Byline:
    """MAX_CHOICES + 5 bylines named "Aa 000".. and one, "Zed Zimmer", that sorts after all of them."""
    Byline.objects.bulk_create(_byline(f"01JBYL{i:020d}", f"aa-{i:03d}", f"Aa {i:03d}") for i in range(MAX_CHOICES + 5))
    zed = _byline("01JBYLZ0000000000000000000", "zed", "Zed Zimmer")
    zed.save()
    return zed


def _byline(byline_id: str, slug: str, name: str) -> Byline:
    return Byline(id=byline_id, slug=slug, display_name=name, translation_group=byline_id)


def _credited(entry_id: str) -> list[str]:
    row = selectors.entry_get(actor=SYSTEM, collection="posts", id=entry_id).row
    credits = rows_credits("posts", [row])
    return [c["byline"]["slug"] for c in credits[0]["bylines"] if c.get("source") == "explicit"] if credits else []


def test_without_javascript_find_shows_the_matches_keeps_the_form_and_saves_nothing(many, as_role):
    client, _ = as_role("editor")
    entry = make_entry(data={"title": "Field notes"})
    edit = f"/_emdash/admin/content/posts/{entry.id}/"
    page = client.get(edit)
    html = page.content.decode()
    assert 'name="byline_q"' in html and 'name="byline_find"' in html  # more than the list holds: a search
    assert html.count('data-name="Aa ') == MAX_CHOICES * 2 and many.id not in html  # two empty rows, 100 each
    rev = page.context["rev"]
    form = {"f_title": "Typed, not saved", "_rev": rev, "credits_shown": "1", "byline_q": "zimm", "byline_find": "1"}
    form |= {"credit_byline": ["", ""], "credit_role": ["", ""]}
    found = client.post(edit, form)
    html = found.content.decode()
    assert found.status_code == 200
    assert f'<option value="{many.id}" data-name="Zed Zimmer">' in html and 'data-name="Aa ' not in html
    assert "1 byline match “zimm”." in html and 'value="Typed, not saved"' in html
    assert found.context["rev"] == rev  # the form posts back the version it was opened at
    assert (
        selectors.entry_get(actor=SYSTEM, collection="posts", id=entry.id).to_dict()["data"]["title"] == "Field notes"
    )
    form = {"f_title": "Typed, then saved", "_rev": rev, "credits_shown": "1", "byline_q": "zimm"}
    form |= {"credit_byline": [many.id, ""], "credit_role": ["Photos", ""]}
    assert client.post(edit, form).status_code == 302
    assert _credited(entry.id) == ["zed"]
    shown = client.get(edit).content.decode()  # past the first hundred, yet listed (and chosen) in its row
    assert f'<option value="{many.id}" data-name="Zed Zimmer" selected>' in shown


def test_find_on_the_new_item_form_creates_nothing(many, as_role):
    client, _ = as_role("editor")
    new = "/_emdash/admin/content/posts/new/"
    form = {"f_title": "Not yet", "credits_shown": "1", "byline_q": "zed", "byline_find": "1"}
    found = client.post(new, form)
    assert found.status_code == 200 and "Zed Zimmer" in found.content.decode()
    assert selectors.entry_list(actor=SYSTEM, collection="posts").present().items == []


def test_the_search_answers_json_for_the_script(many, as_role):
    client, _ = as_role("editor")
    answer = client.get("/_emdash/admin/byline-search/", {"q": "Zed"}).json()
    assert [(b["id"], b["displayName"]) for b in answer["results"]] == [(many.id, "Zed Zimmer")]
    assert set(answer["results"][0]) == {"id", "displayName", "isGuest", "locale"}
    assert answer["more"] is False
    first = client.get("/_emdash/admin/byline-search/").json()
    assert len(first["results"]) == MAX_CHOICES and first["more"] is True


def test_searches_are_trimmed_once_whichever_door_asks(many, as_role):
    """Spaces around what was typed are not part of the search: the script's JSON and the form's "Find" alike."""
    client, _ = as_role("editor")
    answer = client.get("/_emdash/admin/byline-search/", {"q": "  zimm  "}).json()
    assert answer["query"] == "zimm" and [b["id"] for b in answer["results"]] == [many.id]
    entry = make_entry(data={"title": "Field notes"})
    edit = f"/_emdash/admin/content/posts/{entry.id}/"
    rev = client.get(edit).context["rev"]
    form = {"f_title": "T", "_rev": rev, "credits_shown": "1", "byline_q": "  zimm ", "byline_find": "1"}
    html = client.post(edit, form | {"credit_byline": [""], "credit_role": [""]}).content.decode()
    assert "1 byline match “zimm”." in html and 'value="zimm"' in html
    blank = client.post(edit, form | {"byline_q": "   ", "credit_byline": [""], "credit_role": [""]})
    assert "the first" in blank.content.decode() and "match “" not in blank.content.decode()


@pytest.mark.parametrize("page", ["edit", "new"])
def test_the_forms_default_button_saves_rather_than_finds(many, as_role, page):
    """Enter in a field submits the form with its default button, the first submit button in tree order: it must
    be the save one, not the picker's "Find" (without JavaScript, which makes "Find" a plain button)."""
    client, _ = as_role("editor")
    entry = make_entry(data={"title": "Field notes"})
    url = f"/_emdash/admin/content/posts/{entry.id}/" if page == "edit" else "/_emdash/admin/content/posts/new/"
    html = client.get(url).content.decode()
    form = re.search(r'<form method="post" class="card form".*?</form>', html, re.S)
    assert form is not None
    buttons = re.findall(r"<button[^>]*>", form.group(0))
    submits = [b for b in buttons if 'type="button"' not in b]
    assert 'name="byline_find"' in form.group(0)
    assert "byline_find" not in submits[0] and "name=" not in submits[0], submits


def test_a_site_with_few_bylines_gets_no_search(posts, as_role):
    client, _ = as_role("editor")
    _byline("01JBYLA0000000000000000000", "ann", "Ann").save()
    html = client.get("/_emdash/admin/content/posts/new/").content.decode()
    assert 'data-name="Ann"' in html and 'name="byline_q"' not in html
