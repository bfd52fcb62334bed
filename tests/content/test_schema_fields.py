"""Schema registry: adding and dropping fields, each a real column of its collection's ``ec_<slug>`` table.

Every test that changes the schema uses the transactional ``cms``/``posts`` fixtures (see conftest).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction

from content.entries import selectors, services
from content.field_types import FIELD_TYPES, PATTERN_MAX_LENGTH
from content.models import Collection, Field, SchemaState
from content.schema import services as schema_services
from content.schema import specs as schema
from content.schema.dynamic import RESERVED_FIELD_SLUGS, field_attname
from content.schema.specs import FieldSpec
from emdash.errors import (
    CollectionNotFound,
    EmDashError,
    FieldExists,
    FieldNotFound,
    InvalidSlug,
    ReservedSlug,
    ValidationError,
)
from tests.factories import SYSTEM, make_collection, make_entry, without_media_details
from tests.media.helpers import media_rows

SPEC_RESERVED_FIELD_SLUGS = {
    "id",
    "slug",
    "status",
    "author_id",
    "created_at",
    "updated_at",
    "published_at",
    "scheduled_at",
    "deleted_at",
    "version",
    "live_revision_id",
    "draft_revision_id",
    "locale",
    "translation_group",
    "terms",
}


# --- helpers --------------------------------------------------------------------------------------------


def tables() -> set[str]:
    return set(connection.introspection.table_names())


def columns(table: str) -> set[str]:
    with connection.cursor() as cursor:
        return {col.name for col in connection.introspection.get_table_description(cursor, table)}


def stored_version() -> int:
    return SchemaState.objects.filter(pk=1).values_list("version", flat=True).first() or 0


def column_values(table: str, column: str) -> list[Any]:
    qn = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {qn(column)} FROM {qn(table)} ORDER BY id")
        return [row[0] for row in cursor.fetchall()]


def raises(code: str, error_class: type[EmDashError], fn: Callable[..., Any], **kwargs: Any) -> EmDashError:
    with pytest.raises(EmDashError) as info:
        fn(**kwargs)
    assert type(info.value) is error_class, f"{type(info.value).__name__}: {info.value}"
    assert info.value.code == code
    return info.value


def registry_state() -> tuple[Any, ...]:
    return (
        sorted(Collection.objects.values_list("slug", "updated_at")),
        sorted(Field.objects.values_list("collection__slug", "slug", "type", "position", "default_value")),
        {t: columns(t) for t in sorted(t for t in tables() if t.startswith("ec_"))},
        stored_version(),
    )


def add_field(
    collection: str = "posts", slug: Any = "subtitle", label: Any = "Subtitle", type: Any = "string", **kwargs: Any
) -> FieldSpec:
    return schema_services.field_create(
        actor=SYSTEM, collection=collection, slug=slug, label=label, type=type, **kwargs
    )


def read_data(collection: str, ident: str) -> dict[str, Any]:
    return selectors.entry_get(actor=SYSTEM, collection=collection, id=ident).to_dict()["data"]


def invalid_definition(expected: set[str], **kwargs: Any) -> ValidationError:
    """field_create on ``posts`` must fail with exactly these problem keys and change nothing."""
    before = registry_state()
    err = raises("VALIDATION_ERROR", ValidationError, add_field, **kwargs)
    assert set(err.details["fields"]) == expected, err.details
    assert registry_state() == before
    assert not Field.objects.filter(slug=kwargs.get("slug", "subtitle")).exists()
    return err


# --- one case per field type: definition, stored value, value read back ------------------------------------

TYPE_CASES: dict[str, tuple[dict[str, Any], Any, Any]] = {
    "string": ({}, "Hello", "Hello"),
    "text": ({}, "Line one\nLine two", "Line one\nLine two"),
    "number": ({}, 3.25, 3.25),
    "integer": ({}, 2**40 + 1, 2**40 + 1),
    "boolean": ({}, False, False),
    "datetime": ({}, "2026-06-01T09:00:00+02:00", "2026-06-01T07:00:00Z"),
    "select": ({"validation": {"options": ["red", "green"]}}, "green", "green"),
    "multiSelect": ({"validation": {"options": ["a", "b", "c"]}}, ["c", "a"], ["c", "a"]),
    "portableText": (
        {},
        [{"_type": "block", "_key": "b1", "children": [{"_type": "span", "_key": "s1", "text": "hi"}]}],
        # Stored normalised (SPEC 6.4c): style, markDefs and marks filled in.
        [
            {
                "_type": "block",
                "_key": "b1",
                "style": "normal",
                "markDefs": [],
                "children": [{"_type": "span", "_key": "s1", "text": "hi", "marks": []}],
            }
        ],
    ),
    "image": (
        {},
        {"id": "01ARZ3NDEKTSV4RRFFQ69G5FAV", "alt": "A cat"},
        {"id": "01ARZ3NDEKTSV4RRFFQ69G5FAV", "alt": "A cat"},
    ),
    "file": ({}, {"id": "01ARZ3NDEKTSV4RRFFQ69G5FAW"}, {"id": "01ARZ3NDEKTSV4RRFFQ69G5FAW"}),
    "reference": ({"options": {"collection": "posts"}}, "<post>", "<post>"),
    "references": ({"options": {"collections": ["posts"]}}, "<posts>", "<posts>"),
    "json": ({}, {"nested": [1, "two", None, {"x": True}]}, {"nested": [1, "two", None, {"x": True}]}),
    "slug": ({}, "hello-world_2", "hello-world_2"),
}


def test_type_cases_cover_every_field_type():
    assert set(TYPE_CASES) == set(FIELD_TYPES)


@pytest.mark.parametrize("field_type", sorted(FIELD_TYPES))
def test_field_create_adds_a_real_column_for_every_type(posts, field_type):
    definition, value, expected = TYPE_CASES[field_type]
    make_collection("things", fields=[], supports=["drafts", "revisions"])
    start = stored_version()
    assert "value" not in columns("ec_things")

    created = add_field("things", "value", "Value", field_type, **definition)

    assert created.slug == "value"
    assert created.type == field_type
    assert created.label == "Value"
    assert "value" in columns("ec_things")
    assert stored_version() == start + 1
    row = Field.objects.get(collection__slug="things", slug="value")
    assert (row.type, row.position) == (field_type, 1)
    assert row.validation == definition.get("validation", {})
    assert row.options == definition.get("options", {})
    spec = schema.current().get("things")
    assert spec.get_field("value") == created
    assert spec.model._meta.get_field(field_attname("value")).column == "value"

    if value == "<post>":
        value = expected = make_entry(data={"title": "Target"}).id
    if value == "<posts>":  # references: written as ids, read with each target's details
        linked = make_entry(data={"title": "Target"})
        value = [linked.id]
        expected = [{"id": linked.id, "collection": "posts", "slug": "target", "title": "Target", "status": "draft"}]
    if field_type in ("image", "file"):
        media_rows(value["id"])  # media references must name existing items
    entry = make_entry("things", data={"value": value})
    # Media references are read with their item's details (SPEC 11, tests/media/test_content_media.py).
    assert without_media_details(read_data("things", entry.id)) == {"value": expected}
    schema.invalidate()  # and again from a cold snapshot
    assert without_media_details(read_data("things", entry.id)) == {"value": expected}
    # An empty item stores NULL in the new column.
    empty = make_entry("things", data={})
    assert read_data("things", empty.id) == {"value": None}


@pytest.mark.parametrize("field_type", sorted(set(FIELD_TYPES) - {"json"}))  # json takes any JSON value
def test_every_type_rejects_a_value_of_the_wrong_kind(posts, field_type):
    definition = TYPE_CASES[field_type][0]
    add_field("posts", "value", "Value", field_type, **definition)
    wrong = {
        "string": 5,
        "text": ["x"],
        "number": "3",
        "integer": 1.5,
        "boolean": "true",
        "datetime": "tomorrow",
        "select": "blue",
        "multiSelect": ["z"],
        "portableText": [{"text": "no type"}],
        "image": "img1",
        "file": {"name": "x"},
        "reference": 7,
        "references": 7,
        "slug": "Not A Slug",
    }[field_type]
    err = raises(
        "VALIDATION_ERROR",
        ValidationError,
        services.entry_create,
        actor=SYSTEM,
        collection="posts",
        data={"title": "x", "value": wrong},
    )
    # Portable Text problems name the inner path (SPEC 6.4c), e.g. data.value[0]._type.
    assert {path.split("[")[0] for path in err.details["fields"]} == {"data.value"}
    assert posts.model.objects.count() == 0


def test_slug_type_rejects_a_trailing_newline(posts):
    add_field("posts", "handle", "Handle", "slug")
    err = raises(
        "VALIDATION_ERROR",
        ValidationError,
        services.entry_create,
        actor=SYSTEM,
        collection="posts",
        data={"title": "x", "handle": "hello\n"},
    )
    assert set(err.details["fields"]) == {"data.handle"}


def test_fields_get_increasing_positions_and_keep_their_order(posts):
    add_field(slug="subtitle")
    add_field(slug="rating", type="integer")
    rows = list(Field.objects.filter(collection__slug="posts").order_by("position").values_list("slug", "position"))
    assert rows == [("title", 1), ("excerpt", 2), ("body", 3), ("subtitle", 4), ("rating", 5)]
    schema.invalidate()
    assert [f.slug for f in schema.current().get("posts").fields] == ["title", "excerpt", "body", "subtitle", "rating"]
    assert [f["slug"] for f in schema_services.collection_get(actor=SYSTEM, slug="posts").as_dict()["fields"]] == [
        "title",
        "excerpt",
        "body",
        "subtitle",
        "rating",
    ]


def test_field_create_records_all_options(posts):
    created = add_field(
        slug="code",
        label=" Code ",
        required=True,
        unique=True,
        searchable=True,
        validation={"minLength": 2, "maxLength": 8, "pattern": "^[A-Z]+$"},
    )
    assert created.label == "Code"
    row = Field.objects.get(collection__slug="posts", slug="code")
    assert (row.label, row.required, row.unique, row.searchable, row.translatable) == ("Code", True, True, True, True)
    assert row.validation == {"minLength": 2, "maxLength": 8, "pattern": "^[A-Z]+$"}
    assert created == FieldSpec.from_row(row)
    shared = add_field(slug="sku", translatable=False)
    assert shared.translatable is False
    assert Field.objects.get(collection__slug="posts", slug="sku").translatable is False


def test_unique_fields_must_be_translatable(posts):
    """Translations share non-translatable values, so such a value could never be unique."""
    with pytest.raises(ValidationError) as err:
        add_field(slug="code", unique=True, translatable=False)
    assert err.value.details == {"fields": {"unique": "a unique field must be translatable"}}
    assert not Field.objects.filter(collection__slug="posts", slug="code").exists()


def test_field_create_defaults(posts):
    created = add_field(slug="subtitle")
    assert (created.required, created.unique, created.searchable, created.translatable) == (False, False, False, True)
    assert created.default_value is None
    assert created.as_dict() == {
        "slug": "subtitle",
        "label": "Subtitle",
        "type": "string",
        "required": False,
        "unique": False,
        "searchable": False,
        "translatable": True,
    }


def test_field_create_touches_the_collection_updated_at(posts):
    before = Collection.objects.get(slug="posts").updated_at
    add_field(slug="subtitle")
    assert Collection.objects.get(slug="posts").updated_at > before


def test_reference_may_point_at_its_own_collection(cms):
    make_collection("nodes", fields=[{"slug": "title", "label": "Title", "type": "string"}])
    add_field("nodes", "parent", "Parent", "reference", options={"collection": "nodes"})
    root = make_entry("nodes", data={"title": "Root"})
    child = make_entry("nodes", data={"title": "Child", "parent": root.id})
    assert read_data("nodes", child.id)["parent"] == root.id


def test_reference_values_must_exist_in_the_target(posts):
    make_collection(
        "comments",
        fields=[
            {"slug": "post", "label": "Post", "type": "reference", "options": {"collection": "posts"}},
        ],
    )
    err = raises(
        "VALIDATION_ERROR",
        ValidationError,
        services.entry_create,
        actor=SYSTEM,
        collection="comments",
        data={"post": "01ARZ3NDEKTSV4RRFFQ69G5FAV"},
    )
    assert set(err.details["fields"]) == {"data.post"}


def test_rows_option_and_options_of_a_text_field(posts):
    created = add_field(slug="summary", type="text", options={"rows": 4})
    assert created.options == {"rows": 4}
    assert Field.objects.get(slug="summary").options == {"rows": 4}


# --- slugs ----------------------------------------------------------------------------------------------


def test_spec_reserved_field_slugs_are_all_reserved():
    assert SPEC_RESERVED_FIELD_SLUGS <= RESERVED_FIELD_SLUGS


@pytest.mark.parametrize("slug", sorted(RESERVED_FIELD_SLUGS | SPEC_RESERVED_FIELD_SLUGS))
def test_reserved_field_slugs_are_rejected(posts, slug):
    before = registry_state()
    err = raises("RESERVED_SLUG", ReservedSlug, add_field, slug=slug)
    assert slug in err.message
    assert registry_state() == before


@pytest.mark.parametrize(
    "slug",
    [
        "Title",
        "subTitle",
        "1st",
        "_hidden",
        "sub-title",
        "sub title",
        "subtitle\n",
        "ünï",
        "",
        None,
        7,
        ["x"],
        "a" * 64,
    ],
)
def test_malformed_field_slugs_are_rejected(posts, slug):
    before = registry_state()
    raises("INVALID_SLUG", InvalidSlug, add_field, slug=slug)
    assert registry_state() == before


def test_field_slug_of_63_characters_is_accepted(posts):
    slug = "f" * 62 + "z"
    add_field(slug=slug)
    assert slug in columns("ec_posts")
    entry = make_entry(data={"title": "x", slug: "long"})
    assert read_data("posts", entry.id)[slug] == "long"


def test_duplicate_field_is_rejected(posts):
    before = registry_state()
    for field_type in ("string", "integer"):
        err = raises("FIELD_EXISTS", FieldExists, add_field, slug="title", type=field_type)
        assert "title" in err.message
    assert registry_state() == before
    assert Field.objects.get(collection__slug="posts", slug="title").type == "string"


def test_same_field_slug_in_another_collection_is_fine(posts):
    make_collection("pages", fields=[{"slug": "title", "label": "Title", "type": "integer"}])
    assert Field.objects.filter(slug="title").count() == 2
    assert Field.objects.get(collection__slug="pages", slug="title").type == "integer"


def test_field_create_on_unknown_collection(posts):
    before = registry_state()
    for collection in ("missing", None, 3):
        raises("COLLECTION_NOT_FOUND", CollectionNotFound, add_field, collection=collection)
    assert registry_state() == before


@pytest.mark.parametrize(
    "slug",
    [
        "save",
        "pk",
        "objects",
        "delete",
        "clean",
        "full_clean",
        "refresh_from_db",
        "f_title",
        "meta",
        "check",
        "from_db",
        "serializable_value",
    ],
)
def test_field_slugs_that_are_model_attribute_names_work(posts, slug):
    add_field(slug=slug)
    assert slug in columns("ec_posts")
    entry = make_entry(data={"title": "Hello", slug: "one"})
    assert read_data("posts", entry.id)[slug] == "one"
    assert read_data("posts", entry.id)["title"] == "Hello"
    services.entry_update(actor=SYSTEM, collection="posts", id=entry.id, data={slug: "two"})
    assert read_data("posts", entry.id)[slug] == "two"
    model = schema.current().get("posts").model
    assert model.objects.count() == 1  # the manager is still there
    row = model.objects.get()
    row.save()  # and the methods
    assert row.pk == entry.id


def test_model_attribute_slugs_together(posts):
    for slug in ("save", "pk", "objects", "delete"):
        add_field(slug=slug, type="integer")
    entry = make_entry(data={"title": "T", "save": 1, "pk": 2, "objects": 3, "delete": 4})
    assert read_data("posts", entry.id) == {
        "title": "T",
        "excerpt": None,
        "body": None,
        "save": 1,
        "pk": 2,
        "objects": 3,
        "delete": 4,
    }
    services.entry_trash(actor=SYSTEM, collection="posts", id=entry.id)
    assert schema.current().get("posts").model.objects.filter(deleted_at__isnull=False).count() == 1


def test_field_slugs_that_are_sql_keywords_work(posts):
    keywords = ["select", "from", "where", "order", "group", "user", "table", "limit", "default", "index"]
    for slug in keywords:
        add_field(slug=slug)
    assert set(keywords) <= columns("ec_posts")
    entry = make_entry(data={"title": "SQL", **{k: k.upper() for k in keywords}})
    data = read_data("posts", entry.id)
    assert {k: data[k] for k in keywords} == {k: k.upper() for k in keywords}
    page = selectors.entry_list(actor=SYSTEM, collection="posts", order_by="title").to_dict()
    assert [item["data"]["title"] for item in page["items"]] == ["SQL"]
    for slug in keywords[:3]:
        schema_services.field_delete(actor=SYSTEM, collection="posts", field_slug=slug)
    assert not set(keywords[:3]) & columns("ec_posts")
    assert read_data("posts", entry.id)["order"] == "ORDER"


# --- invalid definitions --------------------------------------------------------------------------------


@pytest.mark.parametrize("field_type", ["varchar", "String", "", None, 3, ["string"], "reference_list"])
def test_unknown_field_type(posts, field_type):
    err = invalid_definition({"type"}, type=field_type)
    assert "string" in err.details["fields"]["type"]  # lists the known types


@pytest.mark.parametrize(
    ("field_type", "validation", "expected"),
    [
        ("string", {"foo": 1}, {"validation.foo"}),
        ("string", {"minimum": 1, "maxLength": 3}, {"validation.minimum"}),
        # rules that do not apply to the type
        ("string", {"min": 1}, {"validation.min"}),
        ("string", {"options": ["a"]}, {"validation.options"}),
        ("integer", {"pattern": "^a$"}, {"validation.pattern"}),
        ("integer", {"maxLength": 3}, {"validation.maxLength"}),
        ("number", {"options": ["a"]}, {"validation.options"}),
        ("boolean", {"minLength": 1}, {"validation.minLength"}),
        ("datetime", {"min": 0}, {"validation.min"}),
        ("json", {"max": 3}, {"validation.max"}),
        ("reference", {"pattern": "x"}, {"validation.pattern", "options.collection"}),
        ("portableText", {"maxLength": 10}, {"validation.maxLength"}),
        ("image", {"min": 1}, {"validation.min"}),
        ("select", {"options": ["a"], "pattern": "a"}, {"validation.pattern"}),
        # min greater than max
        ("integer", {"min": 5, "max": 1}, {"validation.min"}),
        ("number", {"min": 0.5, "max": 0.25}, {"validation.min"}),
        ("string", {"minLength": 5, "maxLength": 2}, {"validation.minLength"}),
        ("multiSelect", {"options": ["a", "b"], "minLength": 2, "maxLength": 1}, {"validation.minLength"}),
        # malformed values
        ("integer", {"min": "1"}, {"validation.min"}),
        ("integer", {"max": True}, {"validation.max"}),
        ("integer", {"min": None}, {"validation.min"}),
        ("string", {"minLength": -1}, {"validation.minLength"}),
        ("string", {"maxLength": 1.5}, {"validation.maxLength"}),
        ("string", {"maxLength": False}, {"validation.maxLength"}),
        # patterns
        ("string", {"pattern": "(unclosed"}, {"validation.pattern"}),
        ("string", {"pattern": "[z-a]"}, {"validation.pattern"}),
        ("string", {"pattern": ""}, {"validation.pattern"}),
        ("string", {"pattern": 5}, {"validation.pattern"}),
        ("slug", {"pattern": "a" * (PATTERN_MAX_LENGTH + 1)}, {"validation.pattern"}),
        ("text", {"pattern": "x" * 5000}, {"validation.pattern"}),
        # select options
        ("select", None, {"validation.options"}),
        ("select", {}, {"validation.options"}),
        ("multiSelect", None, {"validation.options"}),
        ("select", {"options": []}, {"validation.options"}),
        ("select", {"options": "a,b"}, {"validation.options"}),
        ("select", {"options": ["a", "a"]}, {"validation.options"}),
        ("select", {"options": ["a", 1]}, {"validation.options"}),
        ("select", {"options": ["a", ""]}, {"validation.options"}),
        ("multiSelect", {"options": [f"o{i}" for i in range(501)]}, {"validation.options"}),
        # not an object at all
        ("string", "maxLength=3", {"validation"}),
        ("string", ["maxLength"], {"validation"}),
    ],
)
def test_invalid_validation_rules(posts, field_type, validation, expected):
    invalid_definition(expected, type=field_type, validation=validation)


def test_pattern_of_exactly_the_maximum_length_is_accepted(posts):
    pattern = "a" * PATTERN_MAX_LENGTH
    created = add_field(slug="code", validation={"pattern": pattern})
    assert created.validation == {"pattern": pattern}


def test_too_long_pattern_message_names_the_limit(posts):
    err = invalid_definition({"validation.pattern"}, validation={"pattern": "a" * (PATTERN_MAX_LENGTH + 1)})
    assert str(PATTERN_MAX_LENGTH) in err.details["fields"]["validation.pattern"]


def test_a_catastrophic_pattern_cannot_hang_a_write(posts):
    import time

    add_field(slug="code", validation={"pattern": "^(a+)+$"})
    started = time.monotonic()
    err = raises(
        "VALIDATION_ERROR",
        ValidationError,
        services.entry_create,
        actor=SYSTEM,
        collection="posts",
        data={"title": "x", "code": "a" * 5000 + "!"},
    )
    assert time.monotonic() - started < 5
    assert set(err.details["fields"]) == {"data.code"}
    assert posts.model.objects.count() == 0


def test_valid_rules_are_accepted_for_their_types(posts):
    add_field(slug="n", type="integer", validation={"min": 1, "max": 1})
    add_field(slug="f", type="number", validation={"min": -1.5, "max": 2})
    add_field(slug="s", type="string", validation={"minLength": 0, "maxLength": 3, "pattern": "^[a-z]*$"})
    add_field(slug="m", type="multiSelect", validation={"options": ["x", "y"], "minLength": 1, "maxLength": 2})
    add_field(slug="sl", type="slug", validation={"maxLength": 10})
    assert Field.objects.filter(collection__slug="posts").count() == 8
    err = raises(
        "VALIDATION_ERROR",
        ValidationError,
        services.entry_create,
        actor=SYSTEM,
        collection="posts",
        data={"title": "x", "n": 2, "f": -2, "s": "ABCD", "m": [], "sl": "a" * 11},
    )
    # m: [] is "empty" and m is not required, so only the other four are reported
    assert set(err.details["fields"]) == {"data.n", "data.f", "data.s", "data.sl"}


@pytest.mark.parametrize(
    ("field_type", "options", "expected"),
    [
        ("reference", None, {"options.collection"}),
        ("reference", {}, {"options.collection"}),
        ("reference", {"rows": 2}, {"options.collection"}),
        ("reference", {"collection": "nope"}, {"options.collection"}),
        ("reference", {"collection": "Posts"}, {"options.collection"}),
        ("reference", {"collection": 5}, {"options.collection"}),
        ("reference", {"collection": ["posts"]}, {"options.collection"}),
        ("string", {"collection": "posts"}, {"options.collection"}),
        ("string", {"bogus": 1}, {"options.bogus"}),
        ("text", {"rows": 0}, {"options.rows"}),
        ("text", {"rows": 101}, {"options.rows"}),
        ("text", {"rows": True}, {"options.rows"}),
        ("text", {"rows": "3"}, {"options.rows"}),
        ("string", "rows", {"options"}),
        ("string", [], {"options"}),
    ],
)
def test_invalid_options(posts, field_type, options, expected):
    invalid_definition(expected, type=field_type, options=options)


@pytest.mark.parametrize("flag", ["required", "unique", "searchable", "translatable"])
@pytest.mark.parametrize("value", ["yes", 1, 0, None, "false"])
def test_flags_must_be_booleans(posts, flag, value):
    invalid_definition({flag}, **{flag: value})


@pytest.mark.parametrize("label", ["", "  ", None, 3, "L" * 201])
def test_field_label_is_checked(posts, label):
    invalid_definition({"label"}, label=label)


def test_every_problem_of_a_definition_is_reported_at_once(posts):
    err = invalid_definition(
        {"label", "required", "validation.foo", "validation.min", "validation.pattern", "options.bogus"},
        label="",
        required="yes",
        validation={"foo": 1, "min": 1, "pattern": "("},
        options={"bogus": True},
    )
    assert err.message.startswith("Invalid field definition for 6 fields")


# --- defaultValue ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field_type", "definition", "default"),
    [
        ("integer", {}, "abc"),
        ("integer", {}, 1.5),
        ("integer", {"validation": {"max": 10}}, 11),
        ("number", {"validation": {"min": 0}}, -1),
        ("string", {}, 5),
        ("string", {"validation": {"maxLength": 3}}, "toolong"),
        ("string", {"validation": {"pattern": "^[a-z]+$"}}, "ABC"),
        ("boolean", {}, "false"),
        ("datetime", {}, "next tuesday"),
        ("select", {"validation": {"options": ["a", "b"]}}, "z"),
        ("multiSelect", {"validation": {"options": ["a", "b"]}}, ["a", "z"]),
        ("slug", {}, "Not a slug"),
        ("image", {}, "img1"),
        ("portableText", {}, [{"no": "type"}]),
    ],
)
def test_default_value_is_validated_against_the_field(posts, field_type, definition, default):
    make_entry(data={"title": "Existing"})
    err = invalid_definition({"defaultValue"}, slug="extra", type=field_type, default_value=default, **definition)
    assert "extra" not in columns("ec_posts")
    assert err.message.startswith("Invalid")


def test_reference_default_must_point_at_an_existing_item(posts):
    make_entry(data={"title": "Existing"})
    target = make_entry(data={"title": "Target"})
    services.entry_trash(actor=SYSTEM, collection="posts", id=target.id)
    for missing in ("01ARZ3NDEKTSV4RRFFQ69G5FAV", target.id):  # unknown, trashed
        err = invalid_definition(
            {"defaultValue"}, slug="related", type="reference", options={"collection": "posts"}, default_value=missing
        )
        assert missing in err.details["fields"]["defaultValue"]
    # Items could not be created without an explicit value if the default dangled; a live item is fine.
    live = make_entry(data={"title": "Live"})
    add_field(slug="related", type="reference", options={"collection": "posts"}, default_value=live.id)
    assert read_data("posts", make_entry(data={"title": "New"}).id)["related"] == live.id


def test_reference_default_in_another_collection(posts):
    post = make_entry(data={"title": "Post"})
    make_collection("comments", fields=[{"slug": "text", "label": "Text", "type": "string"}])
    old = make_entry("comments", data={"text": "old"})
    with pytest.raises(ValidationError) as info:
        add_field(
            "comments",
            "post",
            "Post",
            "reference",
            options={"collection": "posts"},
            default_value="01ARZ3NDEKTSV4RRFFQ69G5FAV",
        )
    assert set(info.value.details["fields"]) == {"defaultValue"}
    add_field("comments", "post", "Post", "reference", options={"collection": "posts"}, default_value=post.id.lower())
    assert read_data("comments", old.id)["post"] == post.id


def test_unique_field_cannot_have_a_default(posts):
    invalid_definition({"defaultValue"}, slug="code", unique=True, default_value="X")


@pytest.mark.parametrize(
    ("field_type", "definition", "default", "read_back", "stored"),
    [
        ("integer", {}, 3, 3, 3),
        ("integer", {}, 0, 0, 0),
        ("boolean", {}, False, False, False),
        ("string", {}, "n/a", "n/a", "n/a"),
        ("select", {"validation": {"options": ["draft", "final"]}}, "final", "final", "final"),
        ("datetime", {}, "2026-01-02T03:04:05+01:00", "2026-01-02T02:04:05Z", None),
        ("multiSelect", {"validation": {"options": ["a", "b"]}}, ["b"], ["b"], None),
        ("json", {}, {"k": [1]}, {"k": [1]}, None),
    ],
)
def test_default_value_is_back_filled_into_existing_rows(posts, field_type, definition, default, read_back, stored):
    ids = [make_entry(data={"title": f"Old {i}"}).id for i in range(3)]
    services.entry_trash(actor=SYSTEM, collection="posts", id=ids[2])
    start = stored_version()

    created = add_field(slug="extra", type=field_type, default_value=default, **definition)

    assert created.default_value == default
    assert created.as_dict()["defaultValue"] == default
    assert stored_version() == start + 1  # one change, even with the back-fill
    assert Field.objects.get(slug="extra").default_value == default
    values = column_values("ec_posts", "extra")
    assert len(values) == 3
    assert all(v is not None for v in values)
    if stored is not None:
        assert values == [stored] * 3
    for ident in ids[:2]:
        assert read_data("posts", ident)["extra"] == read_back
    trashed = schema.current().get("posts").model.objects.get(id=ids[2])
    assert getattr(trashed, field_attname("extra")) is not None
    # New items without a value get the default too; an explicit value wins.
    fresh = make_entry(data={"title": "New"})
    assert read_data("posts", fresh.id)["extra"] == read_back


def test_required_field_with_default_holds_for_existing_rows(posts):
    old = make_entry(data={"title": "Old"})
    add_field(slug="rating", type="integer", required=True, default_value=1)
    assert read_data("posts", old.id)["rating"] == 1
    # A partial update that does not touch the field is fine because the row has the default.
    services.entry_update(actor=SYSTEM, collection="posts", id=old.id, data={"title": "Renamed"})
    data = read_data("posts", old.id)
    assert (data["title"], data["rating"]) == ("Renamed", 1)
    err = raises(
        "VALIDATION_ERROR",
        ValidationError,
        services.entry_update,
        actor=SYSTEM,
        collection="posts",
        id=old.id,
        data={"rating": None},
    )
    assert set(err.details["fields"]) == {"data.rating"}


def test_default_value_is_back_filled_into_pending_drafts(posts):
    entry = make_entry(data={"title": "Live"}, status="published")
    services.entry_update(actor=SYSTEM, collection="posts", id=entry.id, data={"title": "Draft title"})
    add_field(slug="rating", type="integer", required=True, default_value=5)

    body = selectors.entry_get(actor=SYSTEM, collection="posts", id=entry.id).to_dict()
    assert body["hasDraft"] is True
    assert (body["data"]["title"], body["data"]["rating"]) == ("Draft title", 5)
    assert (body["liveData"]["title"], body["liveData"]["rating"]) == ("Live", 5)
    # Publishing the draft must not wipe the back-filled value of a required field.
    services.entry_publish(actor=SYSTEM, collection="posts", id=entry.id)
    assert column_values("ec_posts", "rating") == [5]
    assert read_data("posts", entry.id)["rating"] == 5


def test_datetime_default_in_pending_drafts_is_in_canonical_form(posts):
    entry = make_entry(data={"title": "Live"}, status="published")
    services.entry_update(actor=SYSTEM, collection="posts", id=entry.id, data={"title": "Draft"})
    add_field(slug="due", type="datetime", default_value="2026-01-02T03:04:05+01:00")
    body = selectors.entry_get(actor=SYSTEM, collection="posts", id=entry.id).to_dict()
    assert body["data"]["due"] == body["liveData"]["due"] == "2026-01-02T02:04:05Z"


def test_field_without_default_leaves_existing_rows_null(posts):
    make_entry(data={"title": "Old"})
    add_field(slug="extra", type="integer")
    assert column_values("ec_posts", "extra") == [None]


# --- unique ---------------------------------------------------------------------------------------------


def _unique_columns(table: str) -> list[list[str]]:
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, table)
    return [c["columns"] for c in constraints.values() if c["unique"] and not c["primary_key"]]


def test_unique_field_is_unique_in_the_database(posts):
    add_field(slug="code", unique=True)
    assert ["code"] in _unique_columns("ec_posts")
    a = make_entry(data={"title": "A", "code": "X1"})
    b = make_entry(data={"title": "B", "code": "X2"})
    model = schema.current().get("posts").model
    with pytest.raises(IntegrityError), transaction.atomic():
        model.objects.filter(id=b.id).update(**{field_attname("code"): "X1"})
    assert read_data("posts", a.id)["code"] == "X1"
    assert read_data("posts", b.id)["code"] == "X2"


def test_non_unique_field_has_no_unique_constraint(posts):
    add_field(slug="code")
    assert ["code"] not in _unique_columns("ec_posts")


def test_unique_field_gives_a_clean_validation_error_on_write(posts):
    add_field(slug="code", unique=True)
    a = make_entry(data={"title": "A", "code": "X1"})
    err = raises(
        "VALIDATION_ERROR",
        ValidationError,
        services.entry_create,
        actor=SYSTEM,
        collection="posts",
        data={"title": "B", "code": "X1"},
    )
    assert set(err.details["fields"]) == {"data.code"}
    assert "unique" in err.details["fields"]["data.code"]
    assert posts.model.objects.count() == 1

    b = make_entry(data={"title": "B", "code": "X2"})
    err = raises(
        "VALIDATION_ERROR",
        ValidationError,
        services.entry_update,
        actor=SYSTEM,
        collection="posts",
        id=b.id,
        data={"code": "X1"},
    )
    assert set(err.details["fields"]) == {"data.code"}
    assert read_data("posts", b.id)["code"] == "X2"
    # Saving an item with its own value again is not a clash.
    services.entry_update(actor=SYSTEM, collection="posts", id=a.id, data={"code": "X1", "title": "A2"})
    assert read_data("posts", a.id)["title"] == "A2"


def test_unique_field_allows_many_empty_values(posts):
    make_entry(data={"title": "Before"})
    make_entry(data={"title": "Before too"})
    add_field(slug="code", unique=True)  # existing rows get NULL, which does not clash
    make_entry(data={"title": "A"})
    make_entry(data={"title": "B", "code": None})
    assert column_values("ec_posts", "code") == [None] * 4


def test_unique_integer_field(posts):
    add_field(slug="number", type="integer", unique=True)
    make_entry(data={"title": "A", "number": 7})
    err = raises(
        "VALIDATION_ERROR",
        ValidationError,
        services.entry_create,
        actor=SYSTEM,
        collection="posts",
        data={"title": "B", "number": 7},
    )
    assert set(err.details["fields"]) == {"data.number"}


# --- field_delete ---------------------------------------------------------------------------------------


def test_field_delete_drops_the_column(posts):
    start = stored_version()
    schema_services.field_delete(actor=SYSTEM, collection="posts", field_slug="excerpt")
    assert "excerpt" not in columns("ec_posts")
    assert {"title", "body"} <= columns("ec_posts")
    assert not Field.objects.filter(collection__slug="posts", slug="excerpt").exists()
    assert stored_version() == start + 1
    spec = schema.current().get("posts")
    assert [f.slug for f in spec.fields] == ["title", "body"]
    assert spec.get_field("excerpt") is None


@pytest.mark.parametrize("field_slug", ["nope", "", None, 5, ["title"], "Title", "id"])
def test_field_delete_unknown(posts, field_slug):
    before = registry_state()
    err = raises(
        "FIELD_NOT_FOUND",
        FieldNotFound,
        schema_services.field_delete,
        actor=SYSTEM,
        collection="posts",
        field_slug=field_slug,
    )
    assert err.status == 404
    assert registry_state() == before


def test_field_delete_on_unknown_collection(posts):
    raises(
        "COLLECTION_NOT_FOUND",
        CollectionNotFound,
        schema_services.field_delete,
        actor=SYSTEM,
        collection="pages",
        field_slug="title",
    )


def test_field_delete_only_touches_its_collection(posts):
    make_collection("pages", fields=[{"slug": "excerpt", "label": "Excerpt", "type": "text"}])
    schema_services.field_delete(actor=SYSTEM, collection="pages", field_slug="excerpt")
    assert "excerpt" in columns("ec_posts")
    assert Field.objects.filter(collection__slug="posts", slug="excerpt").exists()


def test_entries_stay_readable_after_field_delete(posts):
    plain = make_entry(data={"title": "Plain", "excerpt": "short"})
    published = make_entry(data={"title": "Live", "excerpt": "live excerpt"}, status="published")
    # A pending draft whose data still names the field.
    services.entry_update(actor=SYSTEM, collection="posts", id=published.id, data={"excerpt": "draft excerpt"})
    trashed = make_entry(data={"title": "Binned", "excerpt": "gone"})
    services.entry_trash(actor=SYSTEM, collection="posts", id=trashed.id)

    schema_services.field_delete(actor=SYSTEM, collection="posts", field_slug="excerpt")

    assert read_data("posts", plain.id) == {"title": "Plain", "body": None}
    body = selectors.entry_get(actor=SYSTEM, collection="posts", id=published.id).to_dict()
    assert body["data"] == {"title": "Live", "body": None}
    assert body["liveData"] == {"title": "Live", "body": None}
    page = selectors.entry_list(actor=SYSTEM, collection="posts").to_dict()
    assert sorted(item["data"]["title"] for item in page["items"]) == ["Live", "Plain"]
    assert all("excerpt" not in item["data"] for item in page["items"])
    # Entries can still be written and published.
    services.entry_update(actor=SYSTEM, collection="posts", id=plain.id, data={"title": "Plain 2"})
    services.entry_publish(actor=SYSTEM, collection="posts", id=published.id)
    assert read_data("posts", plain.id)["title"] == "Plain 2"
    restored = services.entry_restore(actor=SYSTEM, collection="posts", id=trashed.id)
    assert restored.to_dict()["data"] == {"title": "Binned", "body": None}
    # Writing the removed field is now an unknown-field error.
    err = raises(
        "VALIDATION_ERROR",
        ValidationError,
        services.entry_update,
        actor=SYSTEM,
        collection="posts",
        id=plain.id,
        data={"excerpt": "again"},
    )
    assert set(err.details["fields"]) == {"data.excerpt"}


def test_field_delete_of_a_unique_field_keeps_other_data(posts):
    add_field(slug="code", unique=True)
    entry = make_entry(data={"title": "Keep", "excerpt": "this", "code": "C1"})
    schema_services.field_delete(actor=SYSTEM, collection="posts", field_slug="code")
    assert "code" not in columns("ec_posts")
    assert ["code"] not in _unique_columns("ec_posts")
    assert read_data("posts", entry.id) == {"title": "Keep", "excerpt": "this", "body": None}


def test_field_deleted_and_added_again_starts_empty(posts):
    entry = make_entry(data={"title": "T", "excerpt": "old value"})
    schema_services.field_delete(actor=SYSTEM, collection="posts", field_slug="excerpt")
    add_field(slug="excerpt", label="Excerpt", type="integer")
    assert read_data("posts", entry.id)["excerpt"] is None
    assert column_values("ec_posts", "excerpt") == [None]
    assert Field.objects.get(collection__slug="posts", slug="excerpt").position == 4
