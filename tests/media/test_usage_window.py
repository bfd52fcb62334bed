"""A media edit in the instant between an entry's commit and its usage-index update (which runs after commit)
finds no user of the item and moves no stamp; the update that follows notices the edit and moves the stamps
itself, so a cached item or ETag built in that instant never keeps the old alt text. Every other entry write that
adds a use moves nothing more."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from content import stamps
from content.entries import item_cache, services
from media import services as media_services
from media import usage
from tests.api.helpers import body, client_for
from tests.factories import SYSTEM, make_collection
from tests.media.helpers import media_rows

IMG = "01ARZ3NDEKTSV4RRFFQ69G5FB1"


@pytest.fixture
def held_back(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Callable[[], None]]]:
    """Usage-index updates are held back (as if the after-commit hook had not run yet) until the test runs them."""
    pending: list[Callable[[], None]] = []
    original = usage.reindex_entry
    monkeypatch.setattr(usage, "reindex_entry", lambda c, e, **kw: pending.append(lambda: original(c, e, **kw)))
    yield pending


@pytest.fixture
def covers(cms: None, settings: Any) -> None:
    settings.EMDASH = {**settings.EMDASH, "ITEM_CACHE_ITEMS": 64}
    media_rows(IMG)
    title = {"slug": "title", "label": "Title", "type": "string"}
    make_collection("covers", fields=[title, {"slug": "cover", "label": "Cover", "type": "image"}], supports=[])


def test_an_alt_edit_before_the_index_knew_the_item_still_moves_its_validators(
    covers: None, held_back: list[Callable[[], None]]
) -> None:
    reader = client_for("editor")
    entry = services.entry_create(
        actor=SYSTEM, collection="covers", data={"title": "T", "cover": {"id": IMG}}, status="published"
    )
    path = f"/_emdash/api/content/covers/{entry.id}"
    first = reader.get(path)  # built and kept (item cache, ETag) with the old alt
    assert body(first)["item"]["data"]["cover"].get("alt") in (None, "")
    media_services.media_update(actor=SYSTEM, id=IMG, alt="A red square")  # the index has no use yet
    for update in held_back:
        update()
    again = reader.get(path, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200, "the ETag did not move"
    assert body(again)["item"]["data"]["cover"]["alt"] == "A red square"
    item_cache.clear()
    assert body(reader.get(path))["item"]["data"]["cover"]["alt"] == "A red square"


def test_adding_a_use_of_an_untouched_item_moves_no_further_stamp(
    covers: None, held_back: list[Callable[[], None]]
) -> None:
    entry = services.entry_create(
        actor=SYSTEM, collection="covers", data={"title": "T", "cover": {"id": IMG}}, status="published"
    )
    before = stamps.read()
    for update in held_back:
        update()
    after = stamps.read()
    assert after.token(stamps.public("covers"), stamps.MEDIA) == before.token(stamps.public("covers"), stamps.MEDIA)
    assert usage.usage_of(IMG) == [{"collection": "covers", "field": "cover", "id": entry.id, "title": "T"}]
