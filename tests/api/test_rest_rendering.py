"""The REST door's JSON: orjson's bytes where they equal DRF's renderer's, DRF's own otherwise, and DRF's content
negotiation for anything but the plain Accept headers (api/renderers.py, api/negotiation.py)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from django.test import Client
from rest_framework.renderers import JSONRenderer

from api.renderers import FastJSONRenderer
from content.entries import services
from tests.factories import SYSTEM

API = "/_emdash/api/content/posts"


@pytest.mark.parametrize(
    "data",
    [
        {"items": [{"id": "01", "title": "Ünïcode ✓", "n": 3, "f": 1.5, "none": None, "ok": True}]},
        {"text": "line\u2028separator\u2029paragraph"},  # escaped as DRF does: the output stays valid JavaScript
        {1: "an integer key", "nested": {"list": [1, 2, {"deep": "x"}]}},
        {"when": datetime(2026, 11, 27, 4, 0, 0, 123456, tzinfo=UTC), "price": Decimal("9.90")},  # DRF's forms
        {"big": 2**70},  # beyond orjson's integers: DRF renders it
    ],
)
def test_the_fast_renderer_writes_what_drfs_renderer_writes(data) -> None:
    assert FastJSONRenderer().render(data) == JSONRenderer().render(data)


def test_indented_output_is_drfs() -> None:
    data = {"a": [1, 2]}
    accepted = "application/json; indent=4"
    assert FastJSONRenderer().render(data, accepted) == JSONRenderer().render(data, accepted)
    assert b"\n    " in FastJSONRenderer().render(data, accepted)


@pytest.fixture
def published(posts):
    entry = services.entry_create(actor=SYSTEM, collection="posts", data={"title": "Hello"})
    services.entry_publish(actor=SYSTEM, collection="posts", id=entry.id)
    return entry


@pytest.mark.parametrize("accept", ["", "*/*", "application/json", "application/json; indent=2", "text/*, */*;q=0.1"])
def test_json_is_served_for_every_accept_that_allows_it(published, accept) -> None:
    response = Client().get(f"{API}/hello", **({"HTTP_ACCEPT": accept} if accept else {}))
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert json.loads(response.content)["item"]["data"]["title"] == "Hello"


def test_an_accept_json_cannot_satisfy_is_still_refused(published) -> None:
    assert Client().get(f"{API}/hello", HTTP_ACCEPT="text/html").status_code == 406
    assert Client().get(f"{API}/hello?format=xml").status_code == 404  # DRF's answer to an unknown format
