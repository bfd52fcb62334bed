"""Outputs are typed once: the content, taxonomy, media and search output schemas are generated from the
TypedDicts their presenters return (emdash/operations/typed.py). The generated schemas must equal, byte for
byte, the shapes that were written by hand before (tools/list is budgeted and compared), and what the tools
answer must fit them exactly: a key the presenter adds or renames without the type fails here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from content.entries import outputs
from content.search import outputs as search_outputs
from emdash.operations.shapes import full, page_of
from media import outputs as media_outputs
from taxonomy import definitions
from taxonomy import outputs as taxonomy_outputs
from tests.content.test_values import MEDIA_IDS, VALID, kitchen, slug_for  # noqa: F401 (kitchen: a fixture)
from tests.factories import SYSTEM
from tests.mcp.conftest import make_mcp, mcp  # noqa: F401 (fixtures)

HAND_WRITTEN = Path(__file__).with_name("hand_written_output_schemas.json")


def test_generated_schemas_equal_the_hand_written_ones_byte_for_byte():
    expected = json.loads(HAND_WRITTEN.read_text())
    modules = {
        "content.entries.outputs": outputs,
        "taxonomy.outputs": taxonomy_outputs,
        "media.outputs": media_outputs,
        "content.search.outputs": search_outputs,
    }
    for dotted, schema in expected.items():
        module, name = dotted.rsplit(".", 1)
        generated = json.loads(json.dumps(getattr(modules[module], name)))  # the markers' tuples as lists
        assert json.dumps(generated) == json.dumps(schema), dotted


def strict(schema: Any) -> Any:
    """``schema`` in full, where every object with listed properties refuses any other key."""
    if isinstance(schema, list):
        return [strict(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: strict(value) for key, value in full(schema).items()}
    if "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    return out


def fits(payload: Any, schema: dict[str, Any]) -> None:
    jsonschema.validate(payload, strict(schema))


def test_a_strict_schema_refuses_a_key_the_type_does_not_declare():
    with pytest.raises(jsonschema.ValidationError):
        fits({"item": {"id": "x", "collection": "c", "slug": "s", "status": "draft", "locale": "en", "data": {},
                       "surprise": 1}}, outputs.ITEM_ONLY)  # fmt: skip


@pytest.fixture
def item(kitchen, mcp):  # noqa: F811 (fixtures)
    """An item of the collection with every field type: published, then edited (a pending draft with a new
    slug and SEO), with terms."""
    definitions.taxonomy_create(actor=SYSTEM, name="flavour", label="Flavours", collections=["kitchen"])
    mcp.ok("taxonomy_create_term", {"taxonomy": "flavour", "slug": "sweet", "label": "Sweet"})
    data = {slug_for(type_name): values[0] for type_name, values in VALID.items()}
    created = mcp.ok(
        "content_create",
        {
            "collection": "kitchen",
            "data": {"title": "Cake", **data},
            "status": "published",
            "seo": {"title": "Cake", "image": {"id": MEDIA_IDS[0], "alt": "A cake"}, "noindex": False},
            "terms": {"flavour": ["sweet"]},
        },
    )
    item_id = created["item"]["id"]
    mcp.ok(
        "content_update",
        {"collection": "kitchen", "id": item_id, "data": {"t_string": "changed"}, "slug": "new-cake",
         "seo": {"title": "Better cake", "canonical": "/cake"}},
    )  # fmt: skip
    return created


def test_every_content_output_fits_its_generated_schema(item, mcp):  # noqa: F811
    target = {"collection": "kitchen", "id": item["item"]["id"]}
    fits(item, outputs.ITEM_WITH_REV)
    got = mcp.ok("content_get", target)
    assert {"liveData", "liveSeo", "draftSlug", "terms", "seo", "hasDraft"} <= got["item"].keys()
    assert got["item"]["data"].keys() == {"title", *(slug_for(t) for t in VALID), "t_reference", "t_references"}
    fits(got, outputs.ITEM_WITH_REV)
    fits(mcp.ok("content_get", {**target, "markdown": True}), outputs.ITEM_WITH_REV)
    for markdown in (False, True):
        page = mcp.ok("content_list", {"collection": "kitchen", "markdown": markdown})
        assert page["items"]
        fits(page, page_of(outputs.SUMMARY))
    fits(mcp.ok("content_compare", target), outputs.COMPARE)
    fits(mcp.ok("content_translations", target), outputs.TRANSLATIONS)
    revisions = mcp.ok("revision_list", target)
    assert revisions["items"]
    fits(revisions, outputs.REVISIONS)
    fits(mcp.ok("revision_restore", {"revisionId": revisions["items"][-1]["id"]}), outputs.ITEM_WITH_REV)
    fits(mcp.ok("content_publish", target), outputs.ITEM_ONLY)
    mcp.ok("content_delete", target)
    trashed = mcp.ok("content_list_trashed", {"collection": "kitchen"})
    assert "deletedAt" in trashed["items"][0]
    fits(trashed, page_of(outputs.SUMMARY))
    fits(mcp.ok("content_restore", target), outputs.RESTORED)
