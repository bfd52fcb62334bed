"""Every field type's widget round-trips: stored value -> form -> stored value; bad input changes nothing."""

from __future__ import annotations

import io

import pytest
from django.http import QueryDict
from PIL import Image

from admin_ui import portable_text, widgets
from content import schema, selectors
from media import services as media_services
from tests.factories import SYSTEM, make_entry

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


def _normalised(blocks):
    """Blocks without random keys, link marks named by their href, for comparing content."""
    out = []
    for block in blocks:
        block = dict(block)
        hrefs = {d["_key"]: d["href"] for d in block.get("markDefs", [])}
        if block.get("_type") == "block":
            block["markDefs"] = sorted(hrefs.values())
            block["children"] = [(c["text"], sorted(hrefs.get(m, m) for m in c["marks"])) for c in block["children"]]
        block.pop("_key", None)
        out.append(block)
    return out


def test_portable_text_survives_the_editor_round_trip():
    text = portable_text.to_markdown(PT)
    assert "## Heading" in text and "**bold**" in text and "[link](https://example.com/)" in text
    assert "2 \\* 3 \\[x]" in text  # literal marks are escaped
    back = portable_text.from_markdown(text)
    assert _normalised(back) == _normalised(PT)
    assert back[-1] == PT[-1]  # a block the dialect cannot express comes back unchanged


def test_portable_text_parses_the_documented_markdown():
    blocks = portable_text.from_markdown("# Title\n\nOne *two* `three`\nsame para\n\n1. first\n> said")
    assert [b.get("style") for b in blocks] == ["h1", "normal", "normal", "blockquote"]
    assert blocks[1]["children"][1] == {**blocks[1]["children"][1], "text": "two", "marks": ["em"]}
    assert blocks[1]["children"][-1]["text"] == "\nsame para"
    assert blocks[2]["listItem"] == "number"


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
        "body": portable_text.from_markdown("Hello **world**"),
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
    assert _normalised(parsed.pop("body")) == _normalised(values.pop("body"))
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
    stored = selectors.entry_get(actor=SYSTEM, collection="things", id=entry_id).to_dict()["data"]
    assert _normalised(stored.pop("body")) == _normalised(values.pop("body"))
    assert stored == values
    page = client.get(response["Location"]).content.decode()
    assert "Hello **world**" in page and 'value="2027-01-02T03:04"' in page


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
    assert selectors.entry_list(actor=SYSTEM, collection="things").items == []
