"""The anonymous GET of a public read answered without DRF's dispatch (api/operations.py ``_lean_get``): the same
status, body and headers as DRF's path, and DRF's path for everything the lean one does not decide."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from api.base import ApiView
from content.entries import services
from tests.api.helpers import session_client, token_client
from tests.factories import SYSTEM, make_user

API = "/_emdash/api/content/posts"
VARYING = {"X-Trace-Id"}  # one per request


@pytest.fixture
def published(posts):
    entry = services.entry_create(actor=SYSTEM, collection="posts", data={"title": "Hello"})
    services.entry_publish(actor=SYSTEM, collection="posts", id=entry.id)
    return entry


@pytest.fixture
def drf_calls(monkeypatch) -> list[str]:
    """The requests that went through DRF's ``initial`` (negotiation, authentication, permissions)."""
    seen: list[str] = []
    initial = ApiView.initial

    def recording(self: ApiView, request: Any, *args: Any, **kwargs: Any) -> None:
        seen.append(request.method)
        initial(self, request, *args, **kwargs)

    monkeypatch.setattr(ApiView, "initial", recording)
    return seen


def _headers(response: Any) -> list[tuple[str, str]]:
    found = [(k, v) for k, v in response.items() if k not in VARYING]
    # The CSP header's directives come in set order, which may differ between two responses of one process.
    return [(k, "; ".join(sorted(v.split("; "))) if k == "Content-Security-Policy" else v) for k, v in found]


def _drf(client: Client, method: str, path: str) -> Any:
    """The same request through DRF's path: an Accept header the lean path leaves to DRF's negotiation."""
    return getattr(client, method)(path, HTTP_ACCEPT="application/json, */*;q=0.5")


@pytest.mark.parametrize(
    "path",
    [
        f"{API}/hello",
        f"{API}/hello?locale=en",
        API,
        f"{API}?limit=1&fields=title",
        "/_emdash/api/taxonomies",
        "/_emdash/api/menus",
    ],
)
@pytest.mark.parametrize("method", ["get", "head"])
def test_the_lean_answer_is_drfs_answer(published, drf_calls, method, path) -> None:
    client = Client()
    lean = getattr(client, method)(path)
    assert drf_calls == []  # answered without DRF's dispatch
    full = _drf(client, method, path)
    assert drf_calls == [method.upper()]
    assert (lean.status_code, lean.content) == (full.status_code, full.content)
    assert _headers(lean) == _headers(full)


@pytest.mark.parametrize(
    "path",
    [f"{API}/missing", f"{API}?limit=0", f"{API}?filter[nope]=1", "/_emdash/api/content/zz_missing/x"],
)
def test_an_error_is_answered_by_drfs_path(published, drf_calls, path) -> None:
    client = Client()
    lean = client.get(path)
    assert drf_calls == ["GET"]  # the lean attempt gave way; DRF's handler wrote the error
    full = _drf(client, "get", path)
    assert lean.status_code >= 400 and lean.json()["error"]["code"]
    assert (lean.status_code, lean.content) == (full.status_code, full.content)
    assert _headers(lean) == _headers(full)


def test_credentials_take_drfs_path(published, drf_calls) -> None:
    user = make_user("editor")
    assert token_client(user).get(f"{API}/hello").status_code == 200
    assert session_client(user).get(f"{API}/hello").status_code == 200
    assert Client(HTTP_AUTHORIZATION="Bearer ec_pat_nonsense").get(f"{API}/hello").status_code == 401
    assert drf_calls == ["GET", "GET", "GET"]


@pytest.mark.parametrize(
    "headers",
    [{"HTTP_IF_NONE_MATCH": '"nope"'}, {"HTTP_IF_MATCH": '"nope"'}, {"HTTP_ACCEPT": "application/json; indent=2"}],
)
def test_preconditions_and_other_accepts_take_drfs_path(published, drf_calls, headers) -> None:
    response = Client().get(f"{API}/hello", **headers)
    assert response.status_code in (200, 412)
    assert drf_calls == ["GET"]


def test_a_read_that_is_not_public_takes_drfs_path(published, drf_calls) -> None:
    response = Client().get(f"{API}/hello/revisions")
    assert response.status_code == 401 and response.json()["error"]["code"]
    assert drf_calls == ["GET"]
