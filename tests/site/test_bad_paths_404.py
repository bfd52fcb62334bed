"""A path nothing answers is looked up among the redirects (public_site/middleware.py) after its 404, and the
input guard sees only paths that name a view: a NUL in an unmatched path reached the redirect
query, which PostgreSQL refuses (a 500 on /.well-known/oauth-protected-resource/%00, /zz%00/ and the like). No
redirect source can hold one, so such a path is a plain 404 on both databases."""

from __future__ import annotations

import pytest
from django.test import Client

from content.redirects.services import redirect_create
from emdash.actor import Actor

PATHS = [
    "/zz\x00/",
    "/.well-known/oauth-protected-resource/\x00",
    "/no-such-page\x00",
    "/a/b/c\x00/",
]


@pytest.mark.parametrize("path", PATHS)
def test_an_unmatched_path_with_bad_characters_is_a_plain_404(cms: None, path: str) -> None:
    redirect_create(actor=Actor.system(), source="/old/", target="/new/")
    response = Client().get(path)
    assert response.status_code in (400, 404), (path, response.status_code)


@pytest.mark.parametrize("query", ["p=\x00", "\x00=1", "p=1&q=%00"])
def test_a_query_with_bad_characters_finds_no_query_redirect(cms: None, query: str) -> None:
    redirect_create(actor=Actor.system(), source="/?p=1", target="/new/")
    response = Client().get("/?" + query)
    assert response.status_code in (200, 301, 400, 404), (query, response.status_code)
    assert Client().get("/?p=1").status_code == 301
