"""Query-aware redirects (SPEC 12): a source may carry a ?query (old WordPress links such as /?p=12); it is
stored with its parameters sorted and matched before the page that answers the path (the home page)."""

from __future__ import annotations

import pytest

from content.redirects import services as redirects
from emdash.errors import ValidationError
from tests.factories import SYSTEM


@pytest.mark.django_db
def test_a_query_source_redirects_even_where_the_path_answers(client) -> None:
    made = redirects.redirect_create(actor=SYSTEM, source="/?b=2&a=1", target="/posts/x/")
    assert made["source"] == "/?a=1&b=2"
    response = client.get("/?a=1&b=2")
    assert response.status_code == 301 and response["Location"] == "/posts/x/"
    assert client.get("/?b=2&a=1")["Location"] == "/posts/x/"
    assert client.get("/?a=1").status_code != 301  # not the whole source, and no one-parameter source


@pytest.mark.django_db
def test_one_parameter_of_a_longer_query_is_enough(client) -> None:
    redirects.redirect_create(actor=SYSTEM, source="/?p=12", target="/posts/hello/")
    assert client.get("/?p=12&utm_campaign=old")["Location"] == "/posts/hello/"
    assert client.head("/?p=12")["Location"] == "/posts/hello/"
    assert client.post("/?p=12").status_code != 301


@pytest.mark.django_db
def test_fragments_and_two_queries_are_refused() -> None:
    for source in ("/?p=1#top", "/?p=1?q=2"):
        with pytest.raises(ValidationError):
            redirects.redirect_create(actor=SYSTEM, source=source, target="/")
