"""A collection created by another process is found at once, even inside the schema check window."""

from __future__ import annotations

import pytest

from content.entries import selectors
from content.schema import specs as schema
from emdash.actor import Actor
from tests.factories import make_collection


@pytest.fixture
def window(settings):
    settings.EMDASH = {**settings.EMDASH, "SCHEMA_CHECK_SECONDS": 60.0}
    schema.invalidate()
    yield
    schema.invalidate()


def test_a_collection_created_elsewhere_is_found_inside_the_window(cms, window):
    make_collection("posts")
    before = schema.current()  # cached for 60 s
    # Another process creates a collection: the stamp moves, this process is told nothing.
    from content.models import SchemaState

    make_collection("fresh_elsewhere")
    import content.schema.specs as module

    module._snapshot, module._checked_at = before, module.time.monotonic()
    assert "fresh_elsewhere" not in schema.current().collections  # the window's snapshot is stale
    assert SchemaState.objects.get(pk=1).version > before.version
    assert schema.get_collection("fresh_elsewhere").slug == "fresh_elsewhere"
    page = selectors.entry_list(actor=Actor.system(), collection="fresh_elsewhere")
    assert list(page.items) == []
