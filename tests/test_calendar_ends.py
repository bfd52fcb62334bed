"""Date-times at the calendar's two ends: 9999-12-31T23:00-05:00 is in year 10000 once in UTC, 0001-01-01 in Tokyo
is in year 0; Python's datetime holds neither. Such input is a VALIDATION_ERROR on every door, and a stored
instant near either end shows (in UTC) in a site zone that would push it past the end, never a 500."""

from __future__ import annotations

import orjson
import pytest
from django.test import Client

from accounts.tokens import token_create
from content.entries import services
from emdash.actor import Actor
from emdash.dates import parse_iso
from emdash.errors import ValidationError
from settings_app import localtime
from settings_app.services import settings_update
from tests.factories import make_collection, make_user

PAST_THE_ENDS = ["9999-12-31T23:59:59-05:00", "0001-01-01T00:00:00+05:00"]
FIELDS = [
    {"slug": "title", "label": "Title", "type": "string", "required": True},
    {"slug": "when", "label": "When", "type": "datetime"},
]


@pytest.mark.parametrize("text", PAST_THE_ENDS)
def test_parse_iso_refuses_an_instant_past_the_calendar(text: str) -> None:
    with pytest.raises(ValueError, match="years 1-9999"):
        parse_iso(text)
    assert parse_iso("9999-12-31T23:59:59Z").year == 9999 and parse_iso("0001-01-01T00:00:00Z").year == 1


@pytest.fixture
def site(cms: None) -> tuple[Client, str]:
    make_collection("events", fields=FIELDS)
    admin = make_user("admin")
    client = Client()
    client.force_login(admin)
    return client, token_create(user=admin, name="t", scopes="admin").raw


def _call(client: Client, token: str, name: str, arguments: dict) -> dict:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
    response = client.post(
        "/_emdash/api/mcp", orjson.dumps(body), content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
    )
    assert response.status_code == 200, response.content
    return response.json()["result"]


@pytest.mark.parametrize("text", PAST_THE_ENDS)
def test_every_door_refuses_it_cleanly(site: tuple[Client, str], text: str) -> None:
    client, token = site
    made = _call(client, token, "content_create", {"collection": "events", "data": {"title": "x", "when": text}})
    assert made["_meta"]["code"] == "VALIDATION_ERROR", made
    entry = services.entry_create(actor=Actor.system(), collection="events", data={"title": "y"})
    for name, extra in (
        ("content_schedule", {"scheduledAt": text}),
        ("content_publish", {"publishedAt": text}),
        ("content_list", {"filter": {"fields": {"when": {"gt": text}}}}),
    ):
        args = {"collection": "events", **({} if name == "content_list" else {"id": entry.id}), **extra}
        assert _call(client, token, name, args)["_meta"]["code"] == "VALIDATION_ERROR", name
    audit = client.get("/_emdash/api/audit", {"since": text}, HTTP_AUTHORIZATION=f"Bearer {token}")
    assert audit.status_code == 400, audit.content
    with pytest.raises(ValidationError):
        localtime.from_input(
            "0001-01-01T00:00" if "+" in text else "9999-12-31T23:59",
            localtime.site_time_from({"timezone": "Asia/Tokyo" if "+" in text else "America/New_York"}),
        )


@pytest.mark.parametrize(
    ("stored", "zone"), [("0001-01-01T00:00:00Z", "America/New_York"), ("9999-12-31T23:59:59Z", "Asia/Tokyo")]
)
def test_an_instant_at_either_end_shows_in_any_zone(site: tuple[Client, str], stored: str, zone: str) -> None:
    client, token = site
    settings_update(actor=Actor.system(), changes={"timezone": zone})
    entry = services.entry_create(actor=Actor.system(), collection="events", data={"title": "z", "when": stored})
    page = client.get(f"/_emdash/admin/content/events/{entry.id}/")
    assert page.status_code == 200 and stored[:10] in page.content.decode(), page.status_code
    listing = client.get("/_emdash/admin/content/events/")
    assert listing.status_code == 200
    got = _call(client, token, "content_get", {"collection": "events", "id": entry.id})
    assert orjson.loads(got["content"][0]["text"])["item"]["data"]["when"] == stored
