"""The content list's filter bar (status, author, term, date range) and sortable headers, through the FilterSet."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.filter_data import Catalog, build_catalog

LIST = "/_emdash/admin/content/posts/"


@pytest.fixture
def catalog(cms) -> Catalog:
    return build_catalog()


@pytest.fixture
def editor(catalog) -> Client:
    client = Client()
    client.force_login(catalog.alice)
    return client


def _titles(html: str) -> list[str]:
    body = html.split('id="entry-rows">', 1)[1].split("</tbody>", 1)[0]
    return re.findall(r'<a href="[^"]+">([^<]+)</a>', body)


def test_the_bar_offers_authors_terms_and_dates(editor, catalog) -> None:
    page = editor.get(LIST).content.decode()
    assert 'name="author"' in page and catalog.alice.email in page and catalog.bob.email in page
    assert 'name="terms.category"' in page and ">News<" in page and ">Sport<" in page
    assert 'name="terms.tag"' in page and 'name="date"' in page and 'type="date"' in page
    assert 'aria-sort="descending"' in page  # the default sort: Updated, newest first


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"terms.category": "news"}, ["Alpha", "Gamma"]),
        ({"terms.category": "news", "status": "published", "terms.tag": "hot"}, ["Gamma"]),
        ({"date": "created", "from": "2026-02-01", "to": "2026-03-05"}, ["Beta", "Gamma"]),
        ({"date": "published", "to": "2026-01-31"}, ["Alpha"]),
        ({"status": "draft"}, ["Beta", "Delta"]),
    ],
)
def test_filters_narrow_the_list(editor, query, expected) -> None:
    assert sorted(_titles(editor.get(LIST, query).content.decode())) == expected


def test_author_filter_and_a_bad_value_is_explained_not_a_500(editor, catalog) -> None:
    mine = editor.get(LIST, {"author": catalog.alice.pk}).content.decode()
    assert sorted(_titles(mine)) == ["Alpha", "Gamma"]
    bad = editor.get(LIST, {"author": "nobody", "terms.genre": "x"})
    assert bad.status_code == 200
    text = bad.content.decode()
    assert "Author must be a user id" in text and "Genre: no taxonomy" in text and "filter." not in text
    assert sorted(_titles(text)) == ["Alpha", "Beta", "Delta", "Gamma"]


def test_sorting_by_a_header_keeps_the_filters_and_pages(editor) -> None:
    page = editor.get(LIST, {"terms.category": "news,sport", "sort": "title", "order": "asc"}).content.decode()
    assert _titles(page) == ["Alpha", "Beta", "Gamma"]
    link = re.search(r'aria-sort="ascending"><a class="sort" href="\?([^"]+)"', page)
    assert link, page
    flipped = editor.get(f"{LIST}?{link[1].replace('&amp;', '&')}").content.decode()
    assert _titles(flipped) == ["Gamma", "Beta", "Alpha"] and 'aria-sort="descending"' in flipped
    paged = editor.get(LIST, {"terms.category": "news,sport", "sort": "title", "order": "asc"})
    assert "terms.category=news%2Csport" in paged.content.decode()  # header links keep the filter


def test_the_next_page_link_keeps_the_filters(editor, catalog) -> None:
    from tests.factories import actor, make_entry

    for n in range(22):
        make_entry(by=actor(catalog.bob), data={"title": f"Extra {n:02d}", "kind": "news"}, terms={"tag": ["hot"]})
    first = editor.get(LIST, {"terms.tag": "hot", "sort": "title", "order": "asc"}).content.decode()
    next_href = re.search(r'<a class="button ghost" rel="next" href="\?([^"]+)"', first)
    assert next_href and "terms.tag=hot" in next_href[1]
    second = editor.get(f"{LIST}?{next_href[1].replace('&amp;', '&')}").content.decode()
    seen = _titles(first) + _titles(second)
    assert len(seen) == len(set(seen)) == 23 and "Alpha" not in seen


def test_a_filtered_list_page_costs_the_same_queries_for_few_rows_or_many(editor, catalog, settings) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.factories import actor, make_entry

    settings.EMDASH = {**settings.EMDASH, "SCHEMA_CHECK_SECONDS": 0}
    query = {"terms.category": "news", "author": catalog.alice.pk, "date": "created", "from": "2000-01-01"}
    with CaptureQueriesContext(connection) as few:
        assert sorted(_titles(editor.get(LIST, query).content.decode())) == ["Alpha", "Gamma"]
    for n in range(15):
        make_entry(by=actor(catalog.alice), data={"title": f"More {n}"}, terms={"category": ["news"]})
    with CaptureQueriesContext(connection) as many:
        assert len(_titles(editor.get(LIST, query).content.decode())) == 17
    assert len(few) == len(many) <= 21, [q["sql"][:120] for q in many.captured_queries]


def test_a_nul_in_a_filter_is_refused_cleanly(editor) -> None:
    response = editor.get(LIST, {"terms.category": "news\x00"})
    assert response.status_code == 400  # the input guard, before any query
