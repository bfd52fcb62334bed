"""Field value validation on create and update: every type, every rule, every problem reported at once."""

from __future__ import annotations

import time
from typing import Any

import pytest

from content.entries import selectors, services
from content.field_types import FIELD_TYPES
from content.models import Revision
from content.schema import specs as schema
from emdash.errors import EmDashError
from tests.factories import SYSTEM, make_collection, without_media_details
from tests.media.helpers import media_rows

MEDIA_IDS = ("01ARZ3NDEKTSV4RRFFQ69G5FAV", "01ARZ3NDEKTSV4RRFFQ69G5FAW")  # image and file fields must name media

OPTIONS = ["red", "green", "blue"]

# One optional field of every type (slug = "f_" + a lowercase version of the type name).
ALL_TYPE_FIELDS: list[dict[str, Any]] = [
    {"slug": "title", "label": "Title", "type": "string"},
    {"slug": "t_string", "label": "String", "type": "string"},
    {"slug": "t_text", "label": "Text", "type": "text"},
    {"slug": "t_number", "label": "Number", "type": "number"},
    {"slug": "t_integer", "label": "Integer", "type": "integer"},
    {"slug": "t_boolean", "label": "Boolean", "type": "boolean"},
    {"slug": "t_datetime", "label": "Datetime", "type": "datetime"},
    {"slug": "t_select", "label": "Select", "type": "select", "validation": {"options": OPTIONS}},
    {"slug": "t_multiselect", "label": "Multi", "type": "multiSelect", "validation": {"options": OPTIONS}},
    {"slug": "t_portabletext", "label": "PT", "type": "portableText"},
    {"slug": "t_image", "label": "Image", "type": "image"},
    {"slug": "t_file", "label": "File", "type": "file"},
    {"slug": "t_reference", "label": "Ref", "type": "reference", "options": {"collection": "targets"}},
    {"slug": "t_references", "label": "Refs", "type": "references", "options": {"collections": ["targets"]}},
    {"slug": "t_json", "label": "JSON", "type": "json"},
    {"slug": "t_slug", "label": "Slug", "type": "slug"},
]


def slug_for(type_name: str) -> str:
    return "t_" + type_name.lower()


VALID: dict[str, list[Any]] = {
    "string": ["hello", "ünïcödé ✓", "x" * 5000],
    "text": ["Line one\nLine two"],
    "number": [0, -1.5, 3, 1e300],
    "integer": [0, -5, 2**62, -(2**62)],
    "boolean": [True, False],
    "datetime": ["2026-03-01T10:00:00Z"],
    "select": ["red", "blue"],
    "multiSelect": [["red"], ["green", "blue"]],
    "portableText": [
        [
            {
                "_type": "block",
                "_key": "b1",
                "style": "normal",
                "markDefs": [],
                "children": [{"_type": "span", "_key": "s1", "text": "Hi", "marks": ["em"]}],
            },
            {"_type": "callout", "_key": "c1", "tone": "info"},  # custom block types are allowed
        ]
    ],
    "image": [{"id": "01ARZ3NDEKTSV4RRFFQ69G5FAV", "alt": "A cat"}],
    "file": [{"id": "01ARZ3NDEKTSV4RRFFQ69G5FAW"}],
    "json": [{"a": [1, 2, {"b": None}]}, [1, "two"], "plain", 42, True, {}, []],
    "slug": ["my-slug", "a", "a_b-c1"],
    # reference: checked separately (needs a target item)
}

_CYCLE: list[Any] = []
_CYCLE.append(_CYCLE)
_DEEP: list[Any] = []
for _ in range(500):
    _DEEP = [_DEEP]

INVALID: dict[str, list[Any]] = {
    "string": [123, ["a"], {"a": 1}, True, 1.5],
    "text": [5, ["x"], False],
    "number": ["5", True, False, float("nan"), float("inf"), float("-inf"), 10**400, [1], {"n": 1}],
    "integer": [1.5, 2.0, True, False, "3", 2**63, -(2**63) - 1, 10**400, float("nan"), [1]],
    "boolean": ["true", 1, 0, "yes", [True]],
    "datetime": [
        "not a date",
        "2026-13-01T00:00:00Z",
        "2026-02-30T10:00:00Z",
        12345,
        ["2026-01-01"],
        "2026-01-01T00:00:00Z" + "0" * 100,
    ],
    "select": ["purple", "RED", 1, ["red"], True],
    "multiSelect": ["red", ["red", "purple"], ["red", "red"], [1], [["red"]], {"red": True}],
    "portableText": [
        "![foreign](https://elsewhere.example/cat.png)",  # Markdown: images must be this site's media
        [{"_type": "block", "text": "Hello"}],  # no children: would render an empty paragraph
        [{"_type": "block", "children": [{"_type": "span", "text": "x", "marks": ["shout"]}]}],
        [{"_type": "block", "style": "h9", "children": [{"text": "x"}]}],
        [{"_type": "block", "children": [{"_type": "span"}]}],
        [{"_type": "image"}],
        [{"_type": "code", "code": 5}],
        [{"no_type": 1}],
        [1],
        {"_type": "block"},
        [{"_type": ""}],
        [{"_type": 5}],
        [{"_type": "block"}, "x"],
        [{"_type": "block", "n": float("inf")}],
    ],
    "image": ["media-id", {"url": "x"}, {"id": 5}, {"id": ""}, ["x"], 7, {"id": "m", "w": float("nan")}],
    "file": ["file-id", {"name": "a.pdf"}, {"id": None}, [{"id": "x"}]],
    "reference": [
        123,
        "01ARZ3NDEKTSV4RRFFQ69G5FAV",
        "does-not-exist",
        ["01ARZ3NDEKTSV4RRFFQ69G5FAV"],
        {"id": "x"},
        "x" * 40,
    ],
    "references": [7, "01ARZ3NDEKTSV4RRFFQ69G5FAV", ["no-such-item"], [5], {"id": "x"}],
    "json": [
        float("nan"),
        {"a": float("inf")},
        [float("-inf")],
        {1, 2},
        b"bytes",
        object(),
        {"k": {1: 2}},
        {("a", "b"): 1},
        _CYCLE,
        _DEEP,
    ],
    "slug": ["Has Space", "UPPER", "-x", "x-", 5, "ünï", "a/b"],
}


def fails(code: str, fn: Any, *args: Any, **kwargs: Any) -> EmDashError:
    """Call ``fn`` and check it raises the EmDash error ``code``; other exceptions propagate."""
    try:
        fn(*args, **kwargs)
    except EmDashError as exc:
        assert exc.code == code, (args, kwargs, exc.as_dict())
        return exc
    raise AssertionError(f"expected {code} from {fn.__name__}{args} {kwargs}")


def model(collection: str) -> Any:
    return schema.get_collection(collection).model


def counts(collection: str) -> tuple[int, int]:
    return model(collection).objects.count(), Revision.objects.filter(collection=collection).count()


def create(collection: str, data: Any, **kwargs: Any) -> Any:
    return services.entry_create(actor=SYSTEM, collection=collection, data=data, **kwargs)


def update(collection: str, entry_id: str, data: Any, **kwargs: Any) -> Any:
    return services.entry_update(actor=SYSTEM, collection=collection, id=entry_id, data=data, **kwargs)


def stored(collection: str, entry_id: str) -> dict[str, Any]:
    """The item's values as written (reads add media details to image/file values: tests/media covers them)."""
    read = selectors.entry_get(actor=SYSTEM, collection=collection, id=entry_id).to_dict()["data"]
    return without_media_details(read)


@pytest.fixture
def kitchen(cms):
    """``targets`` (reference target) and ``kitchen`` with one optional field of every type."""
    make_collection("targets", fields=[{"slug": "title", "label": "Title", "type": "string"}])
    media_rows(*MEDIA_IDS)
    return make_collection("kitchen", fields=ALL_TYPE_FIELDS)


@pytest.fixture
def target(kitchen):
    return create("targets", {"title": "Target"})


def test_every_field_type_has_test_values():
    assert set(FIELD_TYPES) == set(INVALID), "add invalid values for new field types"
    assert set(FIELD_TYPES) - {"reference", "references"} == set(VALID)  # need a target item
    assert {f["type"] for f in ALL_TYPE_FIELDS} == set(FIELD_TYPES)


# One collection per test run is expensive (DDL), so each test loops over its cases and collects failures.


def test_invalid_values_are_rejected_for_every_type(kitchen, target):
    before = counts("kitchen")
    accepted = []
    for type_name, values in INVALID.items():
        key = f"data.{slug_for(type_name)}"
        for value in values:
            try:
                create("kitchen", {"title": "x", slug_for(type_name): value})
            except EmDashError as exc:
                assert exc.code == "VALIDATION_ERROR", (type_name, value, exc.as_dict())
                fields = set(exc.details["fields"])  # Portable Text problems name the path inside the value
                assert len(fields) == 1 and (fields == {key} or next(iter(fields)).startswith(key + "[")), (
                    type_name,
                    value,
                    exc.details,
                )
            else:
                accepted.append((type_name, value))
    assert accepted == []
    assert counts("kitchen") == before


def test_invalid_values_are_rejected_on_update_for_every_type(kitchen, target):
    entry = create("kitchen", {"title": "x"})
    row_before = model("kitchen").objects.filter(pk=entry.id).values().get()
    before = counts("kitchen")
    accepted = []
    for type_name, values in INVALID.items():
        for value in values:
            try:
                update("kitchen", entry.id, {slug_for(type_name): value})
            except EmDashError as exc:
                assert exc.code == "VALIDATION_ERROR", (type_name, value, exc.as_dict())
                key = f"data.{slug_for(type_name)}"
                fields = set(exc.details["fields"])
                assert len(fields) == 1 and (fields == {key} or next(iter(fields)).startswith(key + "["))
            else:
                accepted.append((type_name, value))
    assert accepted == []
    assert counts("kitchen") == before
    assert model("kitchen").objects.filter(pk=entry.id).values().get() == row_before


def test_valid_values_round_trip_for_every_type(kitchen, target):
    for type_name, values in VALID.items():
        for value in values:
            entry = create("kitchen", {"title": "x", slug_for(type_name): value})
            data = stored("kitchen", entry.id)
            assert data[slug_for(type_name)] == value, (type_name, value)
    entry = create("kitchen", {"title": "x", "t_reference": target.id})
    assert stored("kitchen", entry.id)["t_reference"] == target.id


def test_one_create_reports_every_bad_field(kitchen, target):
    before = counts("kitchen")
    bad = {slug_for(t): values[0] for t, values in INVALID.items()}
    bad["nonsense"] = 1
    bad["Another_Unknown"] = "x"
    err = fails("VALIDATION_ERROR", create, "kitchen", bad)
    expected = {f"data.{slug_for(t)}" for t in FIELD_TYPES} | {"data.nonsense", "data.Another_Unknown"}
    assert set(err.details["fields"]) == expected
    for key in expected:
        assert key in err.message
    assert counts("kitchen") == before


def test_one_update_reports_every_bad_field(kitchen, target):
    entry = create("kitchen", {"title": "x", "t_string": "keep"})
    bad = {slug_for(t): values[-1] for t, values in INVALID.items()}
    err = fails("VALIDATION_ERROR", update, "kitchen", entry.id, bad)
    assert set(err.details["fields"]) == {f"data.{slug_for(t)}" for t in FIELD_TYPES}
    assert stored("kitchen", entry.id)["t_string"] == "keep"


def test_unknown_keys_are_rejected_naming_the_key(cms):
    make_collection("posts")
    err = fails("VALIDATION_ERROR", create, "posts", {"title": "Hi", "subtitle": "x"})
    assert set(err.details["fields"]) == {"data.subtitle"}
    assert "subtitle" in err.message
    assert "unknown" in err.details["fields"]["data.subtitle"]
    # System columns are not writable through data either.
    for key in ("id", "slug", "status", "author_id", "published_at", "version", "f_title"):
        err = fails("VALIDATION_ERROR", create, "posts", {"title": "Hi", key: "x"})
        assert f"data.{key}" in err.details["fields"]
    assert counts("posts") == (0, 0)


def test_required_fields(cms):
    make_collection(
        "req",
        fields=[
            {"slug": "title", "label": "Title", "type": "string", "required": True},
            {
                "slug": "tags",
                "label": "Tags",
                "type": "multiSelect",
                "required": True,
                "validation": {"options": OPTIONS},
            },
            {"slug": "count", "label": "Count", "type": "integer", "required": True},
            {"slug": "flag", "label": "Flag", "type": "boolean", "required": True},
            {"slug": "pic", "label": "Pic", "type": "image", "required": True},
            {"slug": "note", "label": "Note", "type": "text"},
        ],
    )
    all_required = {"data.title", "data.tags", "data.count", "data.flag", "data.pic"}
    err = fails("VALIDATION_ERROR", create, "req", {})
    assert set(err.details["fields"]) == all_required
    err = fails("VALIDATION_ERROR", create, "req", {"title": "", "tags": [], "count": None, "flag": None, "pic": {}})
    assert set(err.details["fields"]) == all_required
    err = fails("VALIDATION_ERROR", create, "req", {"note": "only optional"})
    assert set(err.details["fields"]) == all_required
    assert counts("req") == (0, 0)
    media_rows(MEDIA_IDS[0])
    good = {"title": "T", "tags": ["red"], "count": 0, "flag": False, "pic": {"id": MEDIA_IDS[0]}}
    entry = create("req", good)
    assert stored("req", entry.id) == {**good, "note": None}
    # Updates are partial: omitting a required field is fine, emptying it is not.
    update("req", entry.id, {"note": "n"})
    for key, empty in (("title", ""), ("title", None), ("tags", []), ("count", None), ("pic", {})):
        err = fails("VALIDATION_ERROR", update, "req", entry.id, {key: empty})
        assert set(err.details["fields"]) == {f"data.{key}"}
    assert stored("req", entry.id) == {**good, "note": "n"}


def test_select_and_multiselect_options(kitchen):
    entry = create("kitchen", {"t_select": "green", "t_multiselect": ["blue", "red"]})
    assert stored("kitchen", entry.id)["t_select"] == "green"
    assert stored("kitchen", entry.id)["t_multiselect"] == ["blue", "red"]
    err = fails("VALIDATION_ERROR", update, "kitchen", entry.id, {"t_select": "yellow"})
    assert "red" in err.details["fields"]["data.t_select"]  # names the allowed values
    err = fails("VALIDATION_ERROR", update, "kitchen", entry.id, {"t_multiselect": ["red", "yellow"]})
    assert "yellow" in err.details["fields"]["data.t_multiselect"]
    assert stored("kitchen", entry.id)["t_multiselect"] == ["blue", "red"]


def test_numeric_and_length_limits(cms):
    make_collection(
        "limits",
        fields=[
            {"slug": "num", "label": "Num", "type": "number", "validation": {"min": -1.5, "max": 10}},
            {"slug": "int", "label": "Int", "type": "integer", "validation": {"min": 1, "max": 5}},
            {"slug": "name", "label": "Name", "type": "string", "validation": {"minLength": 2, "maxLength": 4}},
            {"slug": "body", "label": "Body", "type": "text", "validation": {"maxLength": 3}},
            {"slug": "code", "label": "Code", "type": "slug", "validation": {"minLength": 3}},
            {
                "slug": "tags",
                "label": "Tags",
                "type": "multiSelect",
                "validation": {"options": OPTIONS, "minLength": 1, "maxLength": 2},
            },
        ],
    )
    ok = [
        {"num": -1.5},
        {"num": 10},
        {"num": 0.25},
        {"int": 1},
        {"int": 5},
        {"name": "ab"},
        {"name": "abcd"},
        {"name": "ÿÿÿÿ"},
        {"body": "abc"},
        {"code": "abc"},
        {"tags": ["red"]},
        {"tags": ["red", "blue"]},
    ]
    bad = [
        {"num": -1.51},
        {"num": 10.01},
        {"int": 0},
        {"int": 6},
        {"name": "a"},
        {"name": "abcde"},
        {"body": "abcd"},
        {"code": "ab"},
        {"tags": ["red", "blue", "green"]},
    ]
    for data in ok:
        create("limits", dict(data))
    created = model("limits").objects.count()
    assert created == len(ok)
    for data in bad:
        err = fails("VALIDATION_ERROR", create, "limits", dict(data))
        assert set(err.details["fields"]) == {f"data.{next(iter(data))}"}, data
    assert model("limits").objects.count() == created
    err = fails("VALIDATION_ERROR", create, "limits", {b: v for d in bad for b, v in d.items()})
    assert set(err.details["fields"]) == {"data.num", "data.int", "data.name", "data.body", "data.code", "data.tags"}


def test_regex_pattern(cms):
    make_collection(
        "codes",
        fields=[
            {"slug": "code", "label": "Code", "type": "string", "validation": {"pattern": r"^[A-Z]{3}-\d+$"}},
        ],
    )
    entry = create("codes", {"code": "ABC-123"})
    assert stored("codes", entry.id)["code"] == "ABC-123"
    for value in ("abc-123", "ABC-", "xABC-1", "ABC-1\nx"):
        err = fails("VALIDATION_ERROR", create, "codes", {"code": value})
        assert set(err.details["fields"]) == {"data.code"}
    assert model("codes").objects.count() == 1


EVIL_PATTERNS = [r"^(a+)+$", r"^(a|aa)+$", r"^(a|a?)+$", r"(x+x+)+y"]


def test_catastrophic_patterns_return_promptly(cms):
    make_collection(
        "evil",
        fields=[
            {"slug": f"v{i}", "label": f"V{i}", "type": "string", "validation": {"pattern": pattern}}
            for i, pattern in enumerate(EVIL_PATTERNS)
        ],
    )
    for value in ("a" * 50 + "b", "x" * 5000, "a" * 30 + "!" + "a" * 30):
        for i in range(len(EVIL_PATTERNS)):
            started = time.monotonic()
            err = fails("VALIDATION_ERROR", create, "evil", {f"v{i}": value})
            assert time.monotonic() - started < 3, (EVIL_PATTERNS[i], value)
            assert set(err.details["fields"]) == {f"data.v{i}"}
        # All at once: every field is reported, still promptly.
        started = time.monotonic()
        err = fails("VALIDATION_ERROR", create, "evil", {f"v{i}": value for i in range(len(EVIL_PATTERNS))})
        assert time.monotonic() - started < 5
        assert len(err.details["fields"]) == len(EVIL_PATTERNS)
    assert counts("evil") == (0, 0)


def test_reference_must_point_to_a_live_item_of_the_target_collection(cms):
    make_collection("authors", fields=[{"slug": "name", "label": "Name", "type": "string"}])
    make_collection(
        "books",
        fields=[
            {"slug": "title", "label": "Title", "type": "string"},
            {"slug": "author", "label": "Author", "type": "reference", "options": {"collection": "authors"}},
        ],
    )
    ada = create("authors", {"name": "Ada"})
    book = create("books", {"title": "Other"})
    entry = create("books", {"title": "Notes", "author": ada.id})
    assert stored("books", entry.id)["author"] == ada.id
    lower = create("books", {"title": "Lower", "author": ada.id.lower()})
    assert stored("books", lower.id)["author"] == ada.id  # normalised
    # An item of another collection, a slug, and an unknown id are all rejected.
    for bad in (book.id, "ada", "01ARZ3NDEKTSV4RRFFQ69G5FAV"):
        err = fails("VALIDATION_ERROR", create, "books", {"title": "x", "author": bad})
        assert set(err.details["fields"]) == {"data.author"}
    # A trashed target is rejected, a restored one accepted again.
    services.entry_trash(actor=SYSTEM, collection="authors", id=ada.id)
    before = counts("books")
    err = fails("VALIDATION_ERROR", create, "books", {"title": "x", "author": ada.id})
    assert set(err.details["fields"]) == {"data.author"}
    fails("VALIDATION_ERROR", update, "books", book.id, {"author": ada.id, "title": "Renamed"})
    assert counts("books") == before
    assert stored("books", book.id)["title"] == "Other"
    # An item that already held the trashed target may write it back: the dead link is dropped (SPEC 10).
    update("books", entry.id, {"author": ada.id})
    assert stored("books", entry.id) == {"title": "Notes", "author": None}
    services.entry_restore(actor=SYSTEM, collection="authors", id=ada.id)
    update("books", entry.id, {"author": ada.id, "title": "Renamed"})
    assert stored("books", entry.id) == {"title": "Renamed", "author": ada.id}


def test_self_reference(cms):
    make_collection(
        "pages",
        fields=[
            {"slug": "title", "label": "Title", "type": "string"},
            {"slug": "parent", "label": "Parent", "type": "reference", "options": {"collection": "pages"}},
        ],
    )
    root = create("pages", {"title": "Root"})
    child = create("pages", {"title": "Child", "parent": root.id})
    assert stored("pages", child.id)["parent"] == root.id


def test_integer_and_number_edge_values(kitchen):
    entry = create("kitchen", {"t_integer": 2**63 - 1, "t_number": 5})
    assert stored("kitchen", entry.id)["t_integer"] == 2**63 - 1
    assert stored("kitchen", entry.id)["t_number"] == 5
    for bad in (True, 1.0, 1.5):
        err = fails("VALIDATION_ERROR", create, "kitchen", {"t_integer": bad})
        assert "integer" in err.details["fields"]["data.t_integer"]
    for bad in (float("nan"), float("inf"), float("-inf")):
        err = fails("VALIDATION_ERROR", create, "kitchen", {"t_number": bad})
        assert set(err.details["fields"]) == {"data.t_number"}


DATETIMES = [
    ("2026-03-01T10:00:00+02:00", "2026-03-01T08:00:00Z"),
    ("2026-03-01T10:00:00-05:30", "2026-03-01T15:30:00Z"),
    ("2026-03-01T10:00:00Z", "2026-03-01T10:00:00Z"),
    ("2026-03-01T10:00:00+00:00", "2026-03-01T10:00:00Z"),
    ("2026-03-01T10:00:00", "2026-03-01T10:00:00Z"),
    ("2026-03-01T23:30:00.250000-01:00", "2026-03-02T00:30:00.250000Z"),
]


def test_datetime_is_normalised_to_utc(cms):
    make_collection(
        "events",
        fields=[
            {"slug": "title", "label": "Title", "type": "string"},
            {"slug": "starts", "label": "Starts", "type": "datetime"},
        ],
        supports=["drafts", "revisions"],
    )
    for given, expected in DATETIMES:
        entry = create("events", {"title": "E", "starts": given})
        assert entry.to_dict()["data"]["starts"] == expected, given
        assert stored("events", entry.id)["starts"] == expected, given
        row = model("events").objects.get(pk=entry.id)
        assert row.f_starts.utcoffset().total_seconds() == 0
        # The revision snapshot holds the normalised value too.
        revision = Revision.objects.get(collection="events", entry_id=entry.id)
        assert revision.data["starts"] == expected
        # A draft on a published item is normalised the same way.
        services.entry_publish(actor=SYSTEM, collection="events", id=entry.id)
        update("events", entry.id, {"starts": given.replace("2026", "2027", 1)})
        assert stored("events", entry.id)["starts"] == expected.replace("2026", "2027", 1), given


def test_nul_characters_are_rejected(kitchen, target):
    """PostgreSQL cannot store U+0000 in text or jsonb: reject it cleanly on every database."""
    before = counts("kitchen")
    cases = [
        {"t_string": "a\x00b"},
        {"t_text": "\x00"},
        {"t_json": {"k": "a\x00b"}},
        {"t_json": {"k\x00": 1}},
        {"t_json": ["\x00"]},
        {"t_portabletext": [{"_type": "block", "children": [{"_type": "span", "text": "\x00"}]}]},
        {"t_portabletext": "Markdown with a \x00"},
        {"t_image": {"id": "m\x00"}},
        {"t_file": {"id": "m", "name": "a\x00"}},
        {"t_reference": target.id + "\x00"},
    ]
    for data in cases:
        err = fails("VALIDATION_ERROR", create, "kitchen", data)
        assert set(err.details["fields"]) == {f"data.{next(iter(data))}"}, data
    assert counts("kitchen") == before


def test_failed_create_writes_nothing(kitchen, target):
    create("kitchen", {"title": "existing"})
    before = counts("kitchen")
    for data in ({"t_integer": "x"}, {"nope": 1}, {"t_reference": "01ARZ3NDEKTSV4RRFFQ69G5FAV"}, "not a dict"):
        fails("VALIDATION_ERROR", create, "kitchen", data, status="published")
    assert counts("kitchen") == before
    assert model("kitchen").objects.filter(status="published").count() == 0


def test_failed_update_writes_nothing_on_draft_and_published_items(kitchen):
    draft = create("kitchen", {"title": "draft", "t_integer": 1})
    live = create("kitchen", {"title": "live", "t_integer": 1}, status="published")
    update("kitchen", live.id, {"t_integer": 2})  # a pending draft
    snapshot = list(model("kitchen").objects.order_by("pk").values())
    revisions = sorted(Revision.objects.filter(collection="kitchen").values_list("id", flat=True))
    for entry in (draft, live):
        for data in ({"t_integer": 1.5}, {"title": "ok", "unknown": 1}, {"t_select": "nope", "t_integer": 9}):
            fails("VALIDATION_ERROR", update, "kitchen", entry.id, data)
            fails("VALIDATION_ERROR", update, "kitchen", entry.id, data, status="published")
    assert list(model("kitchen").objects.order_by("pk").values()) == snapshot
    assert sorted(Revision.objects.filter(collection="kitchen").values_list("id", flat=True)) == revisions
    assert stored("kitchen", live.id)["t_integer"] == 2


def test_unique_values(cms):
    make_collection(
        "products",
        fields=[
            {"slug": "title", "label": "Title", "type": "string"},
            {"slug": "sku", "label": "SKU", "type": "string", "unique": True},
        ],
    )
    first = create("products", {"title": "A", "sku": "X-1"})
    err = fails("VALIDATION_ERROR", create, "products", {"title": "B", "sku": "X-1"})
    assert set(err.details["fields"]) == {"data.sku"}
    second = create("products", {"title": "B", "sku": "X-2"})
    fails("VALIDATION_ERROR", update, "products", second.id, {"sku": "X-1"})
    update("products", first.id, {"sku": "X-1", "title": "A2"})  # its own value is fine
    assert stored("products", second.id)["sku"] == "X-2"
    assert counts("products")[0] == 2
