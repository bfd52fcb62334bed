"""Term assignments: set with content writes (same transaction), read back, removed with their entries."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from content import hooks
from content.entries import rows, services
from content.schema import services as schema_services
from content.schema import specs as schema
from emdash.actor import Actor
from emdash.errors import EmDashError
from emdash.roles import Role
from taxonomy import selectors
from taxonomy import services as taxonomy_services
from taxonomy.models import TaxonomyDefinition, TermAssignment
from tests.factories import SYSTEM, actor, make_collection, make_entry
from tests.mcp.conftest import MCP

pytestmark = pytest.mark.usefixtures("posts")


def fails(code: str, fn: Any, *args: Any, **kwargs: Any) -> EmDashError:
    try:
        fn(*args, **kwargs)
    except EmDashError as exc:
        assert exc.code == code, exc.as_dict()
        return exc
    raise AssertionError(f"expected {code}")


@pytest.fixture
def some_terms(posts: Any) -> None:
    for taxonomy, slug in (("category", "news"), ("category", "guides"), ("tag", "python"), ("tag", "django")):
        taxonomy_services.term_create(actor=SYSTEM, taxonomy=taxonomy, slug=slug, label=slug.title())


def slugs_of(entry_id: str, collection: str = "posts") -> dict[str, list[str]]:
    found = selectors.assigned_terms(collection=collection, entry_id=entry_id)
    return {taxonomy: [t["slug"] for t in items] for taxonomy, items in found.items()}


def row_count() -> int:
    return schema.get_collection("posts").model.objects.count()


# --------------------------------------------------------------------------------------------- services


@pytest.mark.usefixtures("some_terms")
def test_create_with_terms_assigns_them_in_order() -> None:
    entry = make_entry(terms={"tag": ["python", "django"], "category": ["news"]})
    assert slugs_of(entry.id) == {"category": ["news"], "tag": ["python", "django"]}
    got = selectors.entry_terms(actor=SYSTEM, collection="posts", id=entry.row.slug)
    assert got["category"][0].keys() == {"id", "slug", "label"}


@pytest.mark.usefixtures("some_terms")
def test_terms_may_be_named_by_id_and_duplicates_collapse() -> None:
    news = taxonomy_services.get_term(taxonomy_services.get_definition("category"), "news")
    entry = make_entry(terms={"category": [news.id, "news", news.id.lower()]})
    assert slugs_of(entry.id) == {"category": ["news"]}


@pytest.mark.usefixtures("some_terms")
@pytest.mark.parametrize(
    ("terms", "key", "problem"),
    [
        ({"genre": ["x"]}, "terms.genre", "unknown taxonomy"),
        ({"category": ["news", "nope", "nada"]}, "terms.category", "nope, nada"),
        ({"tag": "python"}, "terms.tag", "list"),
        ({"tag": [5]}, "terms.tag", "list"),
        (["python"], "terms", "object"),
    ],
)
def test_bad_terms_on_create_write_nothing(terms: Any, key: str, problem: str) -> None:
    exc = fails("VALIDATION_ERROR", make_entry, terms=terms)
    assert problem in exc.details["fields"][key]
    assert row_count() == 0
    assert not TermAssignment.objects.exists()


@pytest.mark.usefixtures("some_terms")
def test_every_terms_problem_is_reported_at_once() -> None:
    exc = fails("VALIDATION_ERROR", make_entry, terms={"genre": [], "tag": ["ghost"], "category": ["news"]})
    assert set(exc.details["fields"]) == {"terms.genre", "terms.tag"}


@pytest.mark.usefixtures("some_terms")
def test_taxonomies_apply_only_to_their_collections() -> None:
    make_collection("pages", supports=["drafts"])
    exc = fails("VALIDATION_ERROR", make_entry, "pages", terms={"category": ["news"]})
    assert "does not apply to collection 'pages'" in exc.details["fields"]["terms.category"]
    assert schema.get_collection("pages").model.objects.count() == 0
    TaxonomyDefinition.objects.filter(name="category").update(collections=["posts", "pages"])
    page = make_entry("pages", terms={"category": ["news"]})
    assert slugs_of(page.id, "pages") == {"category": ["news"]}


@pytest.mark.usefixtures("some_terms")
def test_update_replaces_only_the_taxonomies_it_names() -> None:
    entry = make_entry(terms={"tag": ["python"], "category": ["news"]})
    services.entry_update(actor=SYSTEM, collection="posts", id=entry.id, terms={"tag": ["django", "python"]})
    assert slugs_of(entry.id) == {"category": ["news"], "tag": ["django", "python"]}
    services.entry_update(actor=SYSTEM, collection="posts", id=entry.id, terms={"category": []})
    assert slugs_of(entry.id) == {"tag": ["django", "python"]}
    services.entry_update(actor=SYSTEM, collection="posts", id=entry.id, data={"title": "Kept"})
    assert slugs_of(entry.id) == {"tag": ["django", "python"]}


@pytest.mark.usefixtures("some_terms")
def test_a_bad_terms_update_rolls_back_the_data_edit_too() -> None:
    entry = make_entry(data={"title": "Before"}, terms={"tag": ["python"]})
    version = entry.row.version
    fails(
        "VALIDATION_ERROR",
        services.entry_update,
        actor=SYSTEM,
        collection="posts",
        id=entry.id,
        data={"title": "After"},
        terms={"tag": ["django", "ghost"]},
    )
    spec = schema.get_collection("posts")
    row = spec.model.objects.get(pk=entry.id)
    assert (rows.row_values(spec, row)["title"], row.version) == ("Before", version)
    assert slugs_of(entry.id) == {"tag": ["python"]}


@pytest.mark.usefixtures("some_terms")
def test_trash_keeps_assignments_and_permanent_delete_removes_them() -> None:
    entry = make_entry(terms={"tag": ["python"]})
    other = make_entry(terms={"tag": ["python"]})
    services.entry_trash(actor=SYSTEM, collection="posts", id=entry.id)
    assert slugs_of(entry.id) == {"tag": ["python"]}
    services.entry_delete_permanently(actor=SYSTEM, collection="posts", id=entry.id)
    assert not TermAssignment.objects.filter(entry_id=entry.id).exists()
    assert slugs_of(other.id) == {"tag": ["python"]}


@pytest.mark.usefixtures("some_terms")
def test_deleting_a_collection_removes_its_assignments() -> None:
    make_collection("pages", supports=["drafts"])
    TaxonomyDefinition.objects.filter(name="tag").update(collections=["posts", "pages"])
    page = make_entry("pages", terms={"tag": ["python"]})
    post = make_entry(terms={"tag": ["python"]})
    schema_services.collection_delete(actor=SYSTEM, slug="pages", force=True)
    assert not TermAssignment.objects.filter(entry_id=page.id).exists()
    assert slugs_of(post.id) == {"tag": ["python"]}


@pytest.mark.usefixtures("some_terms")
def test_entry_terms_follow_the_entry_visibility() -> None:
    draft = make_entry(terms={"tag": ["python"]})
    published = make_entry(status="published", terms={"tag": ["django"]})
    subscriber = actor(role=Role.SUBSCRIBER)
    fails("NOT_FOUND", selectors.entry_terms, actor=subscriber, collection="posts", id=draft.id)
    fails("NOT_FOUND", selectors.entry_terms, actor=Actor.anonymous(), collection="posts", id=draft.id)
    assert selectors.entry_terms(actor=subscriber, collection="posts", id=published.id)["tag"][0]["slug"] == "django"
    contributor = actor(role=Role.CONTRIBUTOR)
    assert selectors.entry_terms(actor=contributor, collection="posts", id=draft.id)["tag"][0]["slug"] == "python"


@pytest.mark.usefixtures("some_terms")
def test_setting_one_taxonomy_needs_the_right_to_edit_the_entry() -> None:
    author = actor(role=Role.AUTHOR)
    own = make_entry(by=author)
    theirs = make_entry()
    taxonomy_services.entry_terms_set(actor=author, collection="posts", id=own.id, taxonomy="tag", terms=["python"])
    assert slugs_of(own.id) == {"tag": ["python"]}
    fails(
        "INSUFFICIENT_PERMISSIONS",
        taxonomy_services.entry_terms_set,
        actor=author,
        collection="posts",
        id=theirs.id,
        taxonomy="tag",
        terms=["python"],
    )
    fails(
        "VALIDATION_ERROR",
        taxonomy_services.entry_terms_set,
        actor=author,
        collection="posts",
        id=own.id,
        taxonomy="genre",
        terms=[],
    )


@pytest.mark.usefixtures("some_terms")
def test_assigned_terms_take_one_query() -> None:
    entry = make_entry(terms={"tag": ["python", "django"], "category": ["news", "guides"]})
    with CaptureQueriesContext(connection) as queries:
        found = selectors.assigned_terms(collection="posts", entry_id=entry.id)
    assert len(queries) == 1
    assert sum(len(v) for v in found.values()) == 4


@pytest.mark.usefixtures("some_terms")
def test_an_entry_read_brings_its_terms_in_its_own_query_in_assignment_order() -> None:
    """content_get reads the row, its live SEO and its terms in one statement (rows.find(for_read=True)); the
    terms column presents exactly what the separate terms query does, in the order they were assigned."""
    entry = make_entry(terms={"tag": ["python", "django"], "category": ["guides", "news"]})
    spec = schema.get_collection("posts")
    rows.find(spec, entry.id, for_read=True)  # compiled once per process: not part of the count
    with CaptureQueriesContext(connection) as queries:
        row = rows.find(spec, entry.id, for_read=True)
        found = hooks.row_terms("posts", row)
    assert len(queries) == 1
    assert found == selectors.assigned_terms(collection="posts", entry_id=entry.id)
    assert list(found) == ["category", "tag"]
    assert {k: [t["slug"] for t in v] for k, v in found.items()} == {
        "category": ["guides", "news"],
        "tag": ["python", "django"],
    }
    bare = make_entry()
    assert hooks.row_terms("posts", rows.find(spec, bare.id, for_read=True)) == {}


# --------------------------------------------------------------------------------------------- MCP


@pytest.mark.usefixtures("some_terms")
def test_content_create_and_update_take_terms_over_mcp(mcp: MCP) -> None:
    created = mcp.ok(
        "content_create",
        {"collection": "posts", "data": {"title": "Tagged"}, "terms": {"tag": ["python"], "category": ["news"]}},
    )
    item = created["item"]
    assert {k: [t["slug"] for t in v] for k, v in item["terms"].items()} == {"category": ["news"], "tag": ["python"]}
    updated = mcp.ok("content_update", {"collection": "posts", "id": item["id"], "terms": {"tag": ["django"]}})
    assert [t["slug"] for t in updated["item"]["terms"]["tag"]] == ["django"]
    got = mcp.ok("content_get", {"collection": "posts", "id": item["id"]})
    assert got["item"]["terms"]["category"][0]["slug"] == "news"
    assert got["item"]["terms"]["tag"] == [
        {"id": updated["item"]["terms"]["tag"][0]["id"], "slug": "django", "label": "Django"}
    ]


@pytest.mark.usefixtures("some_terms")
def test_content_get_shows_no_terms_as_an_empty_object(mcp: MCP) -> None:
    entry = make_entry()
    assert mcp.ok("content_get", {"collection": "posts", "id": entry.id})["item"]["terms"] == {}
    plain = mcp.ok("content_update", {"collection": "posts", "id": entry.id, "data": {"title": "x"}})
    assert "terms" not in plain["item"]


@pytest.mark.usefixtures("some_terms")
def test_unknown_terms_over_mcp_are_validation_errors_and_write_nothing(mcp: MCP) -> None:
    result = mcp.fails("content_create", {"collection": "posts", "data": {"title": "X"}, "terms": {"tag": ["ghost"]}})
    assert result["_meta"]["code"] == "VALIDATION_ERROR"
    assert "ghost" in result["_meta"]["details"]["fields"]["terms.tag"]
    result = mcp.fails("content_create", {"collection": "posts", "data": {"title": "X"}, "terms": {"nope": []}})
    assert "terms.nope" in result["_meta"]["details"]["fields"]
    result = mcp.fails("content_create", {"collection": "posts", "data": {"title": "X"}, "terms": {"tag": "python"}})
    assert result["_meta"]["code"] == "VALIDATION_ERROR"
    assert row_count() == 0
    entry = make_entry(terms={"tag": ["python"]})
    result = mcp.fails("content_update", {"collection": "posts", "id": entry.id, "terms": {"category": ["ghost"]}})
    assert result["_meta"]["code"] == "VALIDATION_ERROR"
    assert slugs_of(entry.id) == {"tag": ["python"]}


@pytest.mark.usefixtures("some_terms")
def test_content_permanent_delete_over_mcp_drops_assignments(mcp: MCP) -> None:
    item = mcp.ok("content_create", {"collection": "posts", "data": {"title": "Doomed"}, "terms": {"tag": ["python"]}})
    target = {"collection": "posts", "id": item["item"]["id"]}
    mcp.ok("content_delete", target)
    assert TermAssignment.objects.filter(entry_id=target["id"]).count() == 1
    mcp.ok("content_permanent_delete", target)
    assert not TermAssignment.objects.filter(entry_id=target["id"]).exists()


@pytest.mark.usefixtures("some_terms")
def test_authors_with_a_write_only_token_assign_terms(make_mcp: Any) -> None:
    author = make_mcp(Role.AUTHOR, "content:write")
    created = author.ok(
        "content_create", {"collection": "posts", "data": {"title": "Mine"}, "terms": {"tag": ["python"]}}
    )
    assert [t["slug"] for t in created["item"]["terms"]["tag"]] == ["python"]
    updated = author.ok("content_update", {"collection": "posts", "id": created["item"]["id"], "terms": {"tag": []}})
    assert updated["item"]["terms"] == {}
