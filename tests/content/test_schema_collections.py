"""Schema registry: creating, reading and deleting collections, each with its real ``ec_<slug>`` table.

Every test that changes the schema uses the transactional ``cms``/``posts`` fixtures (see conftest).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from content.entries import selectors, services
from content.models import Collection, Field, Revision, SchemaState
from content.schema import checks as schema_checks
from content.schema import services as schema_services
from content.schema import specs as schema
from content.schema.dynamic import SYSTEM_COLUMNS, table_name_for
from content.schema.specs import CollectionSpec
from emdash.actor import Actor
from emdash.errors import (
    CollectionExists,
    CollectionHasContent,
    CollectionNotFound,
    Conflict,
    EmDashError,
    InsufficientPermissions,
    InsufficientScope,
    InvalidSlug,
    ReservedSlug,
    ValidationError,
)
from emdash.roles import Role
from tests.factories import SYSTEM, actor, make_collection, make_entry, make_user

SPEC_RESERVED_COLLECTION_SLUGS = ["content", "media", "users", "revisions", "taxonomies", "options", "audit_logs"]


# --- helpers --------------------------------------------------------------------------------------------


def tables() -> set[str]:
    return set(connection.introspection.table_names())


def entry_tables() -> set[str]:
    return {t for t in tables() if t.startswith("ec_")}


def columns(table: str) -> set[str]:
    with connection.cursor() as cursor:
        return {col.name for col in connection.introspection.get_table_description(cursor, table)}


def stored_version() -> int:
    return SchemaState.objects.filter(pk=1).values_list("version", flat=True).first() or 0


def raises(code: str, error_class: type[EmDashError], fn: Callable[..., Any], **kwargs: Any) -> EmDashError:
    with pytest.raises(EmDashError) as info:
        fn(**kwargs)
    assert type(info.value) is error_class, f"{type(info.value).__name__}: {info.value}"
    assert info.value.code == code
    return info.value


def registry_state() -> tuple[Any, ...]:
    """Everything a schema change could touch: registry rows, entry tables with their columns, the stamp."""
    return (
        sorted(Collection.objects.values_list("slug", "label", "label_singular", "supports", "table_name")),
        sorted(Field.objects.values_list("collection__slug", "slug", "type", "position")),
        {t: columns(t) for t in sorted(entry_tables())},
        stored_version(),
    )


def create(slug: str = "articles", label: Any = "Articles", **kwargs: Any) -> CollectionSpec:
    return schema_services.collection_create(actor=SYSTEM, slug=slug, label=label, **kwargs)


# --- collection_create ----------------------------------------------------------------------------------


def test_create_makes_a_real_table_with_the_system_columns(cms):
    assert "ec_articles" not in tables()
    spec = create("articles", "Articles", label_singular="Article", description="Long reads", icon="book")

    assert "ec_articles" in tables()
    assert columns("ec_articles") == set(SYSTEM_COLUMNS)
    row = Collection.objects.get(slug="articles")
    assert row.table_name == "ec_articles"
    assert (row.label, row.label_singular, row.description, row.icon) == ("Articles", "Article", "Long reads", "book")
    assert spec.slug == "articles"
    assert spec.table_name == "ec_articles"
    assert spec.fields == ()
    assert spec.model._meta.db_table == "ec_articles"
    assert spec.model.objects.count() == 0
    assert schema.current().get("articles") == spec


def test_created_collection_accepts_entries(cms):
    create("notes", "Notes", supports=[])
    schema_services.field_create(actor=SYSTEM, collection="notes", slug="title", label="Title", type="string")
    entry = make_entry("notes", data={"title": "First"})
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {connection.ops.quote_name('title')}, slug, status FROM ec_notes")
        assert cursor.fetchall() == [("First", "first", "draft")]  # a draft even without drafts support
    assert entry.to_dict()["data"] == {"title": "First"}


def test_label_singular_defaults_to_label_and_labels_are_trimmed(cms):
    spec = create("pages", "  Pages  ")
    assert spec.label == "Pages"
    assert spec.label_singular == "Pages"
    assert spec.description == ""
    assert spec.icon == ""


@pytest.mark.parametrize(
    "slug",
    [
        "Posts",  # uppercase
        "pOsts",
        "1posts",  # leading digit
        "_posts",  # leading underscore
        "my-posts",  # hyphen
        "my posts",
        " posts",
        "posts ",
        "posts\n",  # `$` alone would accept a trailing newline
        "pöst",
        "",
        None,
        5,
        ["posts"],
        {"slug": "posts"},
        "a" * 64,
    ],
)
def test_malformed_collection_slugs_are_rejected(cms, slug):
    before = registry_state()
    err = raises("INVALID_SLUG", InvalidSlug, create, slug=slug)
    assert "lowercase" in err.message
    assert registry_state() == before
    assert not Collection.objects.exists()
    assert entry_tables() == set()


@pytest.mark.parametrize("slug", SPEC_RESERVED_COLLECTION_SLUGS)
def test_reserved_collection_slugs_are_rejected(cms, slug):
    before = registry_state()
    err = raises("RESERVED_SLUG", ReservedSlug, create, slug=slug)
    assert slug in err.message
    assert registry_state() == before
    assert f"ec_{slug}" not in tables()


def test_every_spec_reserved_slug_is_in_the_reserved_set():
    assert set(SPEC_RESERVED_COLLECTION_SLUGS) <= schema_checks.RESERVED_COLLECTION_SLUGS


def test_slug_of_63_characters_is_accepted(cms):
    slug = "a" * 62 + "z"
    spec = create(slug, "Long")
    assert spec.slug == slug
    assert Collection.objects.filter(slug=slug).exists()
    assert spec.table_name == table_name_for(slug)
    assert spec.table_name in tables()
    if connection.ops.max_name_length():
        assert len(spec.table_name) <= connection.ops.max_name_length()
    # The table is usable: a field can be added and an entry stored and read back.
    schema_services.field_create(actor=SYSTEM, collection=slug, slug="title", label="Title", type="string")
    entry = make_entry(slug, data={"title": "Hi"})
    got = selectors.entry_get(actor=SYSTEM, collection=slug, id=entry.id)
    assert got.to_dict()["data"] == {"title": "Hi"}


def test_two_long_slugs_sharing_a_prefix_get_distinct_tables(cms):
    a = create("a" * 60 + "one", "One")
    b = create("a" * 60 + "two", "Two")
    assert a.table_name != b.table_name
    assert {a.table_name, b.table_name} <= tables()


def test_duplicate_collection_is_rejected_and_the_original_is_untouched(cms):
    create("articles", "Articles", supports=["drafts"])
    before = registry_state()
    err = raises("COLLECTION_EXISTS", CollectionExists, create, slug="articles", label="Other", supports=[])
    assert "articles" in err.message
    assert registry_state() == before
    row = Collection.objects.get(slug="articles")
    assert (row.label, row.supports) == ("Articles", ["drafts"])


def test_supports_defaults_to_drafts_and_revisions(cms):
    spec = create("articles", "Articles")
    assert spec.supports == ("drafts", "revisions")
    assert Collection.objects.get(slug="articles").supports == ["drafts", "revisions"]
    assert spec.as_dict()["supports"] == ["drafts", "revisions"]


def test_explicit_empty_supports_is_kept(cms):
    spec = create("articles", "Articles", supports=[])
    assert spec.supports == ()
    assert Collection.objects.get(slug="articles").supports == []
    schema.invalidate()  # and it survives a reload from the registry
    reloaded = schema_services.collection_get(actor=SYSTEM, slug="articles")
    assert reloaded.supports == ()
    assert reloaded.as_dict()["supports"] == []
    assert not reloaded.supports_feature("drafts")


def test_supports_are_stored_in_canonical_order_without_repeats(cms):
    spec = create("articles", "Articles", supports=["search", "drafts", "search", "preview", "scheduling"])
    assert spec.supports == ("drafts", "preview", "scheduling", "search")
    assert Collection.objects.get(slug="articles").supports == ["drafts", "preview", "scheduling", "search"]


def test_every_supports_value_is_accepted(cms):
    spec = create("articles", "Articles", supports=list(schema.SUPPORTS))
    assert spec.supports == ("drafts", "revisions", "preview", "scheduling", "search")


@pytest.mark.parametrize("supports", [["drafts", "comments"], ["Drafts"], "drafts", {"drafts": True}, [1], [None]])
def test_unknown_or_malformed_supports_is_a_validation_error(cms, supports):
    before = registry_state()
    err = raises("VALIDATION_ERROR", ValidationError, create, slug="articles", supports=supports)
    assert set(err.details["fields"]) == {"supports"}
    assert registry_state() == before
    assert "ec_articles" not in tables()


def test_unknown_supports_value_is_named(cms):
    err = raises("VALIDATION_ERROR", ValidationError, create, slug="articles", supports=["drafts", "comments"])
    assert "comments" in err.details["fields"]["supports"]


@pytest.mark.parametrize("label", ["", "   ", None, 5, ["Articles"], "x" * 201])
def test_bad_label_is_a_validation_error(cms, label):
    before = registry_state()
    err = raises("VALIDATION_ERROR", ValidationError, create, slug="articles", label=label)
    assert set(err.details["fields"]) == {"label"}
    assert "label" in err.message
    assert registry_state() == before


def test_every_bad_collection_field_is_named_in_one_error(cms):
    before = registry_state()
    err = raises(
        "VALIDATION_ERROR",
        ValidationError,
        create,
        slug="articles",
        label="",
        label_singular=7,
        description=["not", "a", "string"],
        icon="i" * 201,
        supports=["drafts", "nope"],
    )
    assert set(err.details["fields"]) == {"label", "labelSingular", "description", "icon", "supports"}
    for name in ("label", "labelSingular", "description", "icon", "supports"):
        assert name in err.message
    assert registry_state() == before


def test_description_longer_than_2000_characters_is_rejected(cms):
    err = raises("VALIDATION_ERROR", ValidationError, create, slug="articles", description="d" * 2001)
    assert set(err.details["fields"]) == {"description"}
    assert create("articles", description="d" * 2000).description == "d" * 2000


# --- collection_delete ----------------------------------------------------------------------------------


def test_delete_empty_collection_drops_table_and_registry_rows(posts):
    assert "ec_posts" in tables()
    assert Field.objects.filter(collection__slug="posts").count() == 3
    schema_services.collection_delete(actor=SYSTEM, slug="posts")
    assert "ec_posts" not in tables()
    assert not Collection.objects.filter(slug="posts").exists()
    assert not Field.objects.exists()
    assert "posts" not in schema.current().collections
    raises("COLLECTION_NOT_FOUND", CollectionNotFound, schema_services.collection_get, actor=SYSTEM, slug="posts")


def test_delete_with_content_and_no_force_is_refused(posts):
    make_entry(data={"title": "Keep me"})
    before = registry_state()
    for force in (False, None, "yes", 1):
        err = raises(
            "COLLECTION_HAS_CONTENT",
            CollectionHasContent,
            schema_services.collection_delete,
            actor=SYSTEM,
            slug="posts",
            force=force,
        )
        assert "force" in err.message
        assert "1 item" in err.message
    assert registry_state() == before
    assert posts.model.objects.count() == 1
    assert Revision.objects.filter(collection="posts").exists()


def test_trashed_items_count_as_content(posts):
    entry = make_entry(data={"title": "Binned"})
    services.entry_trash(actor=SYSTEM, collection="posts", id=entry.id)
    raises(
        "COLLECTION_HAS_CONTENT", CollectionHasContent, schema_services.collection_delete, actor=SYSTEM, slug="posts"
    )
    assert "ec_posts" in tables()


def test_force_delete_drops_table_rows_and_revisions(posts):
    make_collection("pages", fields=[{"slug": "title", "label": "Title", "type": "string"}])
    for i in range(3):
        make_entry(data={"title": f"Post {i}"})
    page = make_entry("pages", data={"title": "About"})
    assert Revision.objects.filter(collection="posts").count() == 3
    page_revisions = set(Revision.objects.filter(collection="pages").values_list("id", flat=True))
    assert page_revisions

    schema_services.collection_delete(actor=SYSTEM, slug="posts", force=True)

    assert "ec_posts" not in tables()
    assert not Collection.objects.filter(slug="posts").exists()
    assert not Field.objects.filter(collection__slug="posts").exists()
    assert not Revision.objects.filter(collection="posts").exists()
    # The other collection is untouched.
    assert "ec_pages" in tables()
    assert set(Revision.objects.filter(collection="pages").values_list("id", flat=True)) == page_revisions
    assert selectors.entry_get(actor=SYSTEM, collection="pages", id=page.id).to_dict()["data"] == {"title": "About"}
    assert list(schema.current().collections) == ["pages"]


def test_deleted_slug_can_be_created_again_with_a_fresh_table(posts):
    make_entry(data={"title": "Old"})
    schema_services.collection_delete(actor=SYSTEM, slug="posts", force=True)
    spec = create("posts", "Posts again")
    assert spec.fields == ()
    assert columns("ec_posts") == set(SYSTEM_COLUMNS)
    assert spec.model.objects.count() == 0


def test_delete_collection_referenced_by_another_is_a_conflict(posts):
    make_collection(
        "comments",
        fields=[
            {"slug": "post", "label": "Post", "type": "reference", "options": {"collection": "posts"}},
        ],
    )
    before = registry_state()
    for force in (False, True):
        err = raises("CONFLICT", Conflict, schema_services.collection_delete, actor=SYSTEM, slug="posts", force=force)
        assert "comments.post" in err.message
    assert registry_state() == before
    assert "ec_posts" in tables()

    # Once the referencing field is gone, the delete goes through.
    schema_services.field_delete(actor=SYSTEM, collection="comments", field_slug="post")
    schema_services.collection_delete(actor=SYSTEM, slug="posts")
    assert "ec_posts" not in tables()


def test_referenced_collection_with_content_reports_the_reference_when_forced(posts):
    make_entry(data={"title": "x"})
    make_collection(
        "comments",
        fields=[
            {"slug": "post", "label": "Post", "type": "reference", "options": {"collection": "posts"}},
        ],
    )
    before = registry_state()
    raises("CONFLICT", Conflict, schema_services.collection_delete, actor=SYSTEM, slug="posts", force=True)
    assert registry_state() == before
    assert posts.model.objects.count() == 1


def test_self_reference_does_not_block_delete(cms):
    make_collection(
        "nodes",
        fields=[
            {"slug": "title", "label": "Title", "type": "string"},
            {"slug": "parent", "label": "Parent", "type": "reference", "options": {"collection": "nodes"}},
        ],
    )
    schema_services.collection_delete(actor=SYSTEM, slug="nodes")
    assert "ec_nodes" not in tables()
    assert not Field.objects.exists()


@pytest.mark.parametrize("slug", ["nope", "", None, 5, ["posts"]])
def test_delete_unknown_collection(posts, slug):
    before = registry_state()
    raises("COLLECTION_NOT_FOUND", CollectionNotFound, schema_services.collection_delete, actor=SYSTEM, slug=slug)
    assert registry_state() == before


# --- selectors ------------------------------------------------------------------------------------------


def test_collection_list_is_sorted_by_slug(cms):
    assert schema_services.collection_list(actor=SYSTEM) == []
    for slug in ("zebras", "apples", "mangos", "apple_pies"):
        create(slug, slug.title())
    listed = schema_services.collection_list(actor=SYSTEM)
    assert [c.slug for c in listed] == ["apple_pies", "apples", "mangos", "zebras"]
    assert all(isinstance(c, CollectionSpec) for c in listed)


def test_collection_get_as_dict_shape(cms):
    make_collection(
        "articles",
        label="Articles",
        label_singular="Article",
        description="Long reads",
        icon="book",
        supports=["drafts", "search"],
        fields=[
            {"slug": "title", "label": "Title", "type": "string", "required": True, "validation": {"maxLength": 120}},
            {
                "slug": "kind",
                "label": "Kind",
                "type": "select",
                "defaultValue": "news",
                "validation": {"options": ["news", "opinion"]},
            },
            {
                "slug": "author",
                "label": "Author",
                "type": "reference",
                "options": {"collection": "articles"},
                "searchable": True,
                "translatable": False,
            },
            {"slug": "code", "label": "Code", "type": "string", "unique": True},
        ],
    )
    body = schema_services.collection_get(actor=SYSTEM, slug="articles").as_dict()
    assert set(body) == {
        "slug",
        "label",
        "labelSingular",
        "description",
        "icon",
        "supports",
        "createdAt",
        "updatedAt",
        "fields",
    }
    assert body["slug"] == "articles"
    assert body["label"] == "Articles"
    assert body["labelSingular"] == "Article"
    assert body["description"] == "Long reads"
    assert body["icon"] == "book"
    assert body["supports"] == ["drafts", "search"]
    for stamp in ("createdAt", "updatedAt"):
        assert isinstance(body[stamp], str) and body[stamp].endswith("Z")
    assert body["updatedAt"] >= body["createdAt"]
    assert body["fields"] == [
        {
            "slug": "title",
            "label": "Title",
            "type": "string",
            "required": True,
            "unique": False,
            "searchable": False,
            "translatable": True,
            "validation": {"maxLength": 120},
        },
        {
            "slug": "kind",
            "label": "Kind",
            "type": "select",
            "required": False,
            "unique": False,
            "searchable": False,
            "translatable": True,
            "defaultValue": "news",
            "validation": {"options": ["news", "opinion"]},
        },
        {
            "slug": "author",
            "label": "Author",
            "type": "reference",
            "required": False,
            "unique": False,
            "searchable": True,
            "translatable": False,
            "options": {"collection": "articles"},
        },
        {
            "slug": "code",
            "label": "Code",
            "type": "string",
            "required": False,
            "unique": True,
            "searchable": False,
            "translatable": True,
        },
    ]
    assert "fields" not in schema_services.collection_get(actor=SYSTEM, slug="articles").as_dict(with_fields=False)


def test_collection_get_reads_the_registry_after_reload(posts):
    schema.invalidate()
    spec = schema_services.collection_get(actor=SYSTEM, slug="posts")
    assert [f.slug for f in spec.fields] == ["title", "excerpt", "body"]
    assert spec.supports == ("drafts", "revisions", "scheduling", "search")
    assert spec.get_field("title").required is True


@pytest.mark.parametrize("slug", ["missing", "", None, 3, ["posts"], {"a": 1}])
def test_collection_get_unknown(posts, slug):
    err = raises("COLLECTION_NOT_FOUND", CollectionNotFound, schema_services.collection_get, actor=SYSTEM, slug=slug)
    assert err.status == 404


# --- permissions ----------------------------------------------------------------------------------------

READERS_ALLOWED = [
    ("editor", None),
    ("admin", None),
    ("editor", ["schema:read"]),
    ("admin", ["schema:read"]),
    ("editor", ["admin"]),
]
READERS_DENIED = [
    ("author", None, "INSUFFICIENT_PERMISSIONS"),
    ("contributor", None, "INSUFFICIENT_PERMISSIONS"),
    ("subscriber", None, "INSUFFICIENT_PERMISSIONS"),
    ("author", ["schema:read"], "INSUFFICIENT_PERMISSIONS"),
    ("author", ["admin"], "INSUFFICIENT_PERMISSIONS"),
    ("editor", ["schema:write"], "INSUFFICIENT_SCOPE"),  # no implication from write to read
    ("editor", ["content:read", "content:write"], "INSUFFICIENT_SCOPE"),
    ("admin", [], "INSUFFICIENT_SCOPE"),
]
WRITERS_ALLOWED = [("admin", None), ("admin", ["schema:write"]), ("admin", ["admin"])]
WRITERS_DENIED = [
    ("editor", None, "INSUFFICIENT_PERMISSIONS"),
    ("editor", ["schema:write"], "INSUFFICIENT_PERMISSIONS"),
    ("editor", ["admin"], "INSUFFICIENT_PERMISSIONS"),
    ("author", None, "INSUFFICIENT_PERMISSIONS"),
    ("subscriber", ["schema:write"], "INSUFFICIENT_PERMISSIONS"),
    ("admin", ["schema:read"], "INSUFFICIENT_SCOPE"),
    ("admin", ["content:write"], "INSUFFICIENT_SCOPE"),
    ("admin", [], "INSUFFICIENT_SCOPE"),
]
ERROR_CLASSES = {"INSUFFICIENT_PERMISSIONS": InsufficientPermissions, "INSUFFICIENT_SCOPE": InsufficientScope}


@pytest.mark.parametrize(("role", "scopes"), READERS_ALLOWED)
def test_schema_read_allowed(posts, role, scopes):
    who = actor(role=role, scopes=scopes)
    assert [c.slug for c in schema_services.collection_list(actor=who)] == ["posts"]
    assert schema_services.collection_get(actor=who, slug="posts").slug == "posts"


@pytest.mark.parametrize(("role", "scopes", "code"), READERS_DENIED)
def test_schema_read_denied(posts, role, scopes, code):
    who = actor(role=role, scopes=scopes)
    raises(code, ERROR_CLASSES[code], schema_services.collection_list, actor=who)
    raises(code, ERROR_CLASSES[code], schema_services.collection_get, actor=who, slug="posts")
    # No hint whether a collection exists.
    raises(code, ERROR_CLASSES[code], schema_services.collection_get, actor=who, slug="missing")


def test_schema_read_denied_to_anonymous_and_inactive_users(posts):
    raises(
        "INSUFFICIENT_PERMISSIONS", InsufficientPermissions, schema_services.collection_list, actor=Actor.anonymous()
    )
    inactive = make_user(Role.ADMIN)
    inactive.is_active = False
    inactive.save()
    for who in (Actor.for_user(inactive), Actor.for_user(inactive, ["admin"])):
        raises(
            "INSUFFICIENT_PERMISSIONS", InsufficientPermissions, schema_services.collection_get, actor=who, slug="posts"
        )


def _writes(who: Actor) -> list[tuple[str, Callable[[], Any]]]:
    """Every schema write, each on something that exists so only the permission check can stop it."""
    return [
        ("collection_create", lambda: schema_services.collection_create(actor=who, slug="fresh", label="Fresh")),
        ("collection_delete", lambda: schema_services.collection_delete(actor=who, slug="pages")),
        (
            "field_create",
            lambda: schema_services.field_create(
                actor=who, collection="posts", slug="subtitle", label="Subtitle", type="string"
            ),
        ),
        ("field_delete", lambda: schema_services.field_delete(actor=who, collection="posts", field_slug="excerpt")),
    ]


@pytest.mark.parametrize(("role", "scopes", "code"), WRITERS_DENIED)
def test_schema_write_denied_changes_nothing(posts, role, scopes, code):
    make_collection("pages", fields=[])
    who = actor(role=role, scopes=scopes)
    before = registry_state()
    for name, call in _writes(who):
        with pytest.raises(EmDashError) as info:
            call()
        assert info.value.code == code, name
        assert type(info.value) is ERROR_CLASSES[code], name
        assert registry_state() == before, name
    # Unknown targets give the permission error, not a not-found.
    for call in (
        lambda: schema_services.collection_delete(actor=who, slug="missing"),
        lambda: schema_services.field_create(actor=who, collection="missing", slug="a", label="A", type="string"),
        lambda: schema_services.field_delete(actor=who, collection="missing", field_slug="a"),
    ):
        with pytest.raises(EmDashError) as info:
            call()
        assert info.value.code == code


def test_schema_write_denied_to_anonymous(posts):
    before = registry_state()
    for name, call in _writes(Actor.anonymous()):
        with pytest.raises(EmDashError) as info:
            call()
        assert info.value.code == "INSUFFICIENT_PERMISSIONS", name
    assert registry_state() == before


@pytest.mark.parametrize(("role", "scopes"), WRITERS_ALLOWED)
def test_schema_write_allowed(posts, role, scopes):
    make_collection("pages", fields=[])
    who = actor(role=role, scopes=scopes)
    start = stored_version()
    for _name, call in _writes(who):
        call()
    assert stored_version() == start + 4
    assert "ec_fresh" in tables()
    assert "ec_pages" not in tables()
    assert "subtitle" in columns("ec_posts")
    assert "excerpt" not in columns("ec_posts")
    assert sorted(Collection.objects.values_list("slug", flat=True)) == ["fresh", "posts"]
