"""Every field type's widget round-trips: stored value -> form -> stored value; bad input changes nothing."""

from __future__ import annotations

import io

import pytest
from django.http import QueryDict
from PIL import Image

from admin_ui import widgets
from content.entries import selectors
from content.field_types import FIELD_TYPES
from content.schema import specs as schema
from media import services as media_services
from tests.factories import SYSTEM, make_entry, without_media_details

RICH = FIELD_TYPES["portableText"]  # the editor posts and reads its JSON through the type

PT = [
    {
        "_type": "block",
        "_key": "k1",
        "style": "h2",
        "markDefs": [],
        "children": [{"_type": "span", "_key": "s1", "text": "Heading", "marks": []}],
    },
    {
        "_type": "block",
        "_key": "k2",
        "style": "normal",
        "markDefs": [{"_type": "link", "_key": "l1", "href": "https://example.com/"}],
        "children": [
            {"_type": "span", "_key": "s2", "text": "Plain ", "marks": []},
            {"_type": "span", "_key": "s3", "text": "bold", "marks": ["strong"]},
            {"_type": "span", "_key": "s4", "text": " and a ", "marks": []},
            {"_type": "span", "_key": "s5", "text": "link", "marks": ["l1"]},
            {"_type": "span", "_key": "s6", "text": " 2 * 3 [x]", "marks": []},
        ],
    },
    {
        "_type": "block",
        "_key": "k3",
        "style": "normal",
        "listItem": "bullet",
        "level": 2,
        "markDefs": [],
        "children": [{"_type": "span", "_key": "s7", "text": "# not a heading", "marks": ["em"]}],
    },
    {"_type": "image", "_key": "k4", "asset": {"id": "01J0000000000000000000000M"}},
]


def test_portable_text_survives_the_form_round_trip():
    """The editor posts Portable Text as JSON: stored -> form -> stored gives the very same blocks and keys."""
    assert RICH.from_form(RICH.to_form(PT), None) == PT


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("Some **markdown**", "not valid Portable Text JSON"),
        ('{"_type": "block"}', "must be a Portable Text array"),
        ('[{"children": []}]', r"\[0\]._type: a block needs a string _type"),
        ('[{"_type": "block", "style": "h9", "children": []}]', "unknown style"),
        ('[{"_type": "block", "listItem": "star", "children": []}]', "listItem"),
        ('[{"_type": "block", "listItem": "bullet", "level": 0, "children": []}]', "level"),
        (
            '[{"_type": "block", "children": [{"text": "x", "marks": ["nope"]}]}]',
            "neither a markDefs key nor a decorator",
        ),
        ('[{"_type": "image", "asset": {}}]', "an image needs"),
        ('[{"_type": "block", "text": "Hello"}]', r"\[0\].children: a text block needs"),
        ('[{"_type": "code", "code": 3}]', "code"),
        (
            '[{"_type": "block", "markDefs": [{"_type": "link", "_key": "l", "href": "javascript:alert(1)"}],'
            ' "children": [{"text": "x", "marks": ["l"]}]}]',
            "is not allowed",
        ),
    ],
)
def test_bad_portable_text_is_refused_with_a_message(raw, message):
    with pytest.raises(ValueError, match=message):
        RICH.from_form(raw, None)


def test_portable_text_gets_missing_keys_and_defaults():
    blocks = RICH.from_form(
        '[{"_type": "block", "children": [{"text": "a"}, {"text": "b", "_key": "x"}]}, {"_type": "x"}]', None
    )
    assert blocks is not None
    first = blocks[0]
    assert first["style"] == "normal" and first["markDefs"] == [] and first["_key"]
    assert [c["_type"] for c in first["children"]] == ["span", "span"] and first["children"][1]["_key"] == "x"
    assert blocks[1] == {"_type": "x", "_key": blocks[1]["_key"]}  # unknown custom blocks are kept
    assert RICH.from_form("  ", None) is None and RICH.from_form("[]", None) is None


def test_portable_text_readable_for_comparisons():
    text = RICH.display(PT)
    assert "## Heading" in text and "link <https://example.com/>" in text and "  - # not a heading" in text
    assert "[image 01J0000000000000000000000M]" in text


def _png() -> io.BytesIO:
    buffer = io.BytesIO()
    Image.new("RGB", (4, 3), "red").save(buffer, "PNG")
    buffer.seek(0)
    return buffer


def _sample_values():
    related = make_entry("posts", data={"title": "Target"})
    image = media_services.media_upload(actor=SYSTEM, file=_wrap(_png(), "a.png"), filename="a.png")
    return {
        "title": "Everything",
        "summary": "Line one\nline two",
        "rating": 4.5,
        "count": 12,
        "featured": True,
        "event_at": "2027-01-02T03:04:00Z",
        "color": "green",
        "tags": ["a", "c"],
        "body": PT[:3],
        "cover": {"id": image.id, "alt": "kept"},
        "attachment": {"id": image.id},
        "related": related.id,
        "meta": {"nested": [1, 2, {"x": None}]},
        "handle": "every-thing",
    }


def _wrap(buffer, name):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, buffer.read(), content_type="image/png")


def _as_post(spec, values) -> QueryDict:
    post = QueryDict(mutable=True)
    for slug, value in widgets.initial(spec, values).items():
        name = widgets.PREFIX + slug
        if isinstance(value, list):
            post.setlist(name, value)
        elif isinstance(value, bool):
            if value:
                post[name] = "1"
        else:
            post[name] = str(value)
    return post


def test_every_field_type_round_trips_through_its_widget(kitchen_sink):
    spec = schema.get_collection("things")
    values = _sample_values()
    parsed, problems = widgets.parse(spec, _as_post(spec, values), values)
    assert problems == {}
    assert parsed == values
    kinds = {w.spec.type: w.kind for w in widgets.bind(spec, widgets.initial(spec, values), SYSTEM, {})}
    assert kinds["portableText"] == "portable_text" and kinds["image"] == "media" and kinds["reference"] == "select"
    assert kinds["multiSelect"] == "checkboxes" and kinds["boolean"] == "checkbox" and kinds["json"] == "json"


def test_every_field_type_is_saved_through_the_create_form(kitchen_sink, as_role):
    client, _ = as_role("editor")
    spec = schema.get_collection("things")
    values = _sample_values()
    values["cover"] = {"id": values["cover"]["id"]}  # a new item has no earlier reference whose extras to keep
    post = _as_post(spec, values)
    response = client.post("/_emdash/admin/content/things/new/", {k: post.getlist(k) for k in post})
    assert response.status_code == 302, response.content.decode()[:2000]
    entry_id = response["Location"].rstrip("/").rsplit("/", 1)[-1]
    read = selectors.entry_get(actor=SYSTEM, collection="things", id=entry_id).to_dict()["data"]
    stored = without_media_details(read)
    assert stored == values  # rich text included: the very blocks, keys and marks that were posted
    page = client.get(response["Location"]).content.decode()
    assert "&quot;text&quot;: &quot;Heading&quot;" in page and 'value="2027-01-02T03:04"' in page


@pytest.mark.parametrize(
    ("field", "raw", "message"),
    [
        ("rating", "lots", "must be a number"),
        ("count", "1.5", "must be a whole number"),
        ("meta", "{broken", "is not valid JSON"),
        ("color", "purple", "must be one of"),
        ("related", "01J0000000000000000000000X", "no item"),
        ("handle", "Not A Slug", "must be a slug"),
    ],
)
def test_bad_input_is_reported_on_the_field_and_creates_nothing(kitchen_sink, as_role, field, raw, message):
    client, _ = as_role("editor")
    response = client.post("/_emdash/admin/content/things/new/", {"f_title": "Bad", f"f_{field}": raw})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert selectors.entry_list(actor=SYSTEM, collection="things").rows == []
