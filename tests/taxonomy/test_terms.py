"""SPEC 6.5: taxonomy definitions and terms (slugs, hierarchy rules, deletion), through the services."""

from __future__ import annotations

from typing import Any

import pytest

from emdash.actor import Actor
from emdash.errors import EmDashError
from emdash.roles import Role
from taxonomy import selectors, services
from taxonomy.models import TaxonomyDefinition, Term, TermAssignment
from tests.factories import SYSTEM, actor

pytestmark = pytest.mark.django_db


def fails(code: str, fn: Any, *args: Any, **kwargs: Any) -> EmDashError:
    try:
        fn(*args, **kwargs)
    except EmDashError as exc:
        assert exc.code == code, exc.as_dict()
        return exc
    raise AssertionError(f"expected {code}")


def create(slug: str, taxonomy: str = "category", **kwargs: Any) -> Term:
    if "label" not in kwargs:
        kwargs["label"] = slug.replace("-", " ").title()
    return services.term_create(actor=SYSTEM, taxonomy=taxonomy, slug=slug, **kwargs)


def update(term: str, taxonomy: str = "category", **kwargs: Any) -> Term:
    return services.term_update(actor=SYSTEM, taxonomy=taxonomy, term=term, **kwargs)


def chain(length: int, prefix: str = "level") -> list[Term]:
    """``length`` terms, each the child of the one before."""
    terms: list[Term] = []
    for i in range(length):
        terms.append(create(f"{prefix}-{i}", parent_id=terms[-1].id if terms else None))
    return terms


# --------------------------------------------------------------------------------------------- definitions


@pytest.mark.usefixtures("posts")
def test_a_fresh_install_has_category_and_tag_for_posts() -> None:
    listed = selectors.taxonomy_list(actor=Actor.anonymous())
    assert listed == [
        {
            "name": "category",
            "label": "Categories",
            "labelSingular": "Category",
            "hierarchical": True,
            "collections": ["posts"],
        },
        {"name": "tag", "label": "Tags", "labelSingular": "Tag", "hierarchical": False, "collections": ["posts"]},
    ]


def test_taxonomy_list_names_only_collections_that_exist() -> None:
    # Issue 13 item 5: without a posts collection the defaults are attached to nothing that exists.
    listed = selectors.taxonomy_list(actor=Actor.anonymous())
    assert [d["collections"] for d in listed] == [[], []]


def test_defaults_come_back_after_a_flush_but_not_while_other_taxonomies_exist() -> None:
    from django.apps import apps

    from taxonomy.defaults import seed_when_empty

    config = apps.get_app_config("taxonomy")
    TaxonomyDefinition.objects.filter(name="tag").delete()
    seed_when_empty(config, apps=apps)
    assert list(TaxonomyDefinition.objects.values_list("name", flat=True)) == ["category"]
    TaxonomyDefinition.objects.all().delete()
    seed_when_empty(config, apps=apps)
    assert list(TaxonomyDefinition.objects.values_list("name", flat=True)) == ["category", "tag"]


def test_unknown_taxonomy_is_not_found() -> None:
    fails("NOT_FOUND", create, "x", taxonomy="genre")
    fails("NOT_FOUND", selectors.term_list, actor=SYSTEM, taxonomy="genre")
    fails("NOT_FOUND", selectors.term_list, actor=SYSTEM, taxonomy=None)


# --------------------------------------------------------------------------------------------- create


def test_create_returns_the_term_with_a_string_id() -> None:
    term = create("news", label="News", description="Fresh")
    got = selectors.term_get(actor=SYSTEM, taxonomy="category", term="news")
    assert got == {
        "id": term.id,
        "taxonomy": "category",
        "slug": "news",
        "label": "News",
        "parentId": None,
        "description": "Fresh",
        "locale": "en",
        "translationGroup": term.id,
    }
    assert isinstance(term.id, str) and len(term.id) == 26


@pytest.mark.parametrize("slug", ["", "News", "with space", "-lead", "trail-", "a/b", "x" * 201, 5, "é"])
def test_bad_slugs_are_refused(slug: Any) -> None:
    fails("INVALID_SLUG", create, slug, label="Label")
    assert not Term.objects.exists()


def test_label_is_required_and_problems_are_reported_together() -> None:
    exc = fails("VALIDATION_ERROR", create, "x", label="  ", description=7)
    assert set(exc.details["fields"]) == {"label", "description"}


def test_duplicate_slug_in_the_same_taxonomy_conflicts_but_not_across_taxonomies() -> None:
    create("python")
    fails("SLUG_CONFLICT", create, "python", label="Again")
    create("python", taxonomy="tag")
    assert Term.objects.filter(slug="python").count() == 2


def test_parent_must_exist_in_the_same_taxonomy() -> None:
    tag = create("loose", taxonomy="tag")
    exc = fails("VALIDATION_ERROR", create, "child", parent_id=tag.id)
    assert "taxonomy 'category'" in exc.details["fields"]["parentId"]
    exc = fails("VALIDATION_ERROR", create, "child", parent_id="01ARZ3NDEKTSV4RRFFQ69G5FAV")
    assert "no term" in exc.details["fields"]["parentId"]
    assert Term.objects.count() == 1


def test_flat_taxonomies_take_no_parent() -> None:
    first = create("one", taxonomy="tag")
    exc = fails("VALIDATION_ERROR", create, "two", taxonomy="tag", parent_id=first.id)
    assert "flat" in exc.details["fields"]["parentId"]
    fails("VALIDATION_ERROR", update, "one", taxonomy="tag", parent_id=first.id)


def test_parent_can_be_given_by_slug_too() -> None:
    parent = create("parent")
    assert create("kid", parent_id="parent").parent_id == parent.id


# --------------------------------------------------------------------------------------------- depth


def test_a_term_may_have_100_ancestors_but_not_101() -> None:
    terms = chain(101)  # level-0 (root) ... level-100, which has 100 ancestors
    assert terms[-1].parent_id == terms[-2].id
    exc = fails("VALIDATION_ERROR", create, "too-deep", parent_id=terms[-1].id)
    assert "at most 100 ancestors" in exc.details["fields"]["parentId"]
    assert not Term.objects.filter(slug="too-deep").exists()


def test_moving_a_subtree_may_not_push_its_leaves_past_the_depth_limit() -> None:
    terms = chain(99)  # level-98 has 98 ancestors
    branch = create("branch")
    create("leaf", parent_id=branch.id)
    # branch under level-98: branch gets 99 ancestors, leaf 100: allowed
    update("branch", parent_id=terms[-1].id)
    update("branch", parent_id=None)
    twig = create("twig", parent_id=Term.objects.get(slug="leaf").id)
    # now the subtree is three deep: leaf would have 100, twig 101 ancestors
    exc = fails("VALIDATION_ERROR", update, "branch", parent_id=terms[-1].id)
    assert "at most 100" in exc.details["fields"]["parentId"]
    assert Term.objects.get(pk=branch.pk).parent_id is None
    assert twig.parent_id is not None


# --------------------------------------------------------------------------------------------- update


def test_update_changes_slug_label_description() -> None:
    create("old", description="d")
    term = update("old", slug="new", label="New", description="")
    assert (term.slug, term.label, term.description) == ("new", "New", "")
    fails("NOT_FOUND", update, "old", label="x")


def test_update_to_a_taken_slug_conflicts() -> None:
    create("a")
    create("b")
    fails("SLUG_CONFLICT", update, "b", slug="a")
    assert update("b", slug="b").slug == "b"


def test_a_term_cannot_be_its_own_parent() -> None:
    term = create("self")
    exc = fails("VALIDATION_ERROR", update, "self", parent_id=term.id)
    assert "own parent" in exc.details["fields"]["parentId"]


def test_cycles_are_refused() -> None:
    a, b, c = chain(3, "c")
    exc = fails("VALIDATION_ERROR", update, a.slug, parent_id=c.id)
    assert "cycle" in exc.details["fields"]["parentId"]
    fails("VALIDATION_ERROR", update, a.slug, parent_id=b.id)
    assert Term.objects.get(pk=a.pk).parent_id is None


def test_parent_none_detaches_and_unset_keeps_the_parent() -> None:
    parent = create("p")
    create("k", parent_id=parent.id)
    assert update("k", label="Kept").parent_id == parent.id
    assert update("k", parent_id=None).parent_id is None
    assert update("k", parent_id=parent.id).parent_id == parent.id


# --------------------------------------------------------------------------------------------- delete


def test_deleting_a_term_with_children_is_refused() -> None:
    parent = create("parent")
    create("child", parent_id=parent.id)
    exc = fails("CONFLICT", services.term_delete, actor=SYSTEM, taxonomy="category", term="parent")
    assert "child" in exc.message
    services.term_delete(actor=SYSTEM, taxonomy="category", term="child")
    services.term_delete(actor=SYSTEM, taxonomy="category", term="parent")
    assert not Term.objects.exists()


def test_deleting_a_term_removes_its_assignments() -> None:
    term = create("gone")
    keep = create("kept")
    TermAssignment.objects.create(term=term, collection="posts", entry_id="01ARZ3NDEKTSV4RRFFQ69G5FAV")
    TermAssignment.objects.create(term=keep, collection="posts", entry_id="01ARZ3NDEKTSV4RRFFQ69G5FAV")
    services.term_delete(actor=SYSTEM, taxonomy="category", term="gone")
    assert list(TermAssignment.objects.values_list("term__slug", flat=True)) == ["kept"]
    fails("NOT_FOUND", services.term_delete, actor=SYSTEM, taxonomy="category", term="gone")


def test_a_whole_taxonomy_can_go_with_its_nested_terms() -> None:
    chain(3)
    TaxonomyDefinition.objects.filter(name="category").delete()
    assert not Term.objects.exists()


# --------------------------------------------------------------------------------------------- reads


def test_term_tree_nests_children_in_label_order() -> None:
    root = create("root", label="Root")
    create("b", label="Beta", parent_id=root.id)
    alpha = create("a", label="Alpha", parent_id=root.id)
    create("deep", label="Deep", parent_id=alpha.id)
    create("other", label="Another root")
    tree = selectors.term_tree(actor=Actor.anonymous(), taxonomy="category")
    assert [n["slug"] for n in tree] == ["other", "root"]
    assert [n["slug"] for n in tree[1]["children"]] == ["a", "b"]
    assert tree[1]["children"][0]["children"][0]["slug"] == "deep"
    assert tree[1]["children"][0]["path"] == "/category/a/"


def _walk(limit: int, cursor: str | None = None) -> tuple[list[dict[str, Any]], str | None]:
    page = selectors.term_list(actor=SYSTEM, taxonomy="tag", limit=limit, cursor=cursor)
    return page.items, page.next_cursor


def test_term_pages_are_stable_and_complete() -> None:
    # duplicate labels make the id tiebreak matter
    for i in range(23):
        create(f"t{i:02d}", taxonomy="tag", label=f"Label {i % 5}")
    seen: list[str] = []
    items, cursor = _walk(5)
    seen += [t["slug"] for t in items]
    create("aaa-new", taxonomy="tag", label="Label 0")  # lands on an earlier page: must not shift later ones
    while cursor:
        items, cursor = _walk(5, cursor)
        assert 1 <= len(items) <= 5
        seen += [t["slug"] for t in items]
    assert len(seen) == len(set(seen))
    assert set(seen) >= {f"t{i:02d}" for i in range(23)}
    everything = [t["slug"] for t in selectors.term_list(actor=SYSTEM, taxonomy="tag", limit=100).items]
    assert [s for s in everything if s in seen] == seen  # the same order as one big page


def test_term_list_limits_and_cursors() -> None:
    create("one", taxonomy="tag")
    create("two", taxonomy="tag")
    page = selectors.term_list(actor=SYSTEM, taxonomy="tag", limit=1)
    assert page.next_cursor
    fails("INVALID_CURSOR", selectors.term_list, actor=SYSTEM, taxonomy="category", cursor=page.next_cursor)
    fails("INVALID_CURSOR", selectors.term_list, actor=SYSTEM, taxonomy="tag", cursor=page.next_cursor + "x")
    fails("INVALID_CURSOR", selectors.term_list, actor=SYSTEM, taxonomy="tag", cursor="garbage")
    for bad in (0, 101, True, "5"):
        fails("VALIDATION_ERROR", selectors.term_list, actor=SYSTEM, taxonomy="tag", limit=bad)
    last = selectors.term_list(actor=SYSTEM, taxonomy="tag", limit=2)
    assert last.next_cursor is None and "nextCursor" not in last.to_dict()


# --------------------------------------------------------------------------------------------- permissions


@pytest.mark.parametrize("role", [Role.SUBSCRIBER, Role.CONTRIBUTOR, Role.AUTHOR])
def test_managing_terms_needs_the_editor_role(role: Role) -> None:
    who = actor(role=role)
    fails("INSUFFICIENT_PERMISSIONS", services.term_create, actor=who, taxonomy="category", slug="x", label="X")
    create("x")
    fails("INSUFFICIENT_PERMISSIONS", services.term_update, actor=who, taxonomy="category", term="x", label="Y")
    fails("INSUFFICIENT_PERMISSIONS", services.term_delete, actor=who, taxonomy="category", term="x")
    assert selectors.term_list(actor=who, taxonomy="category").items[0]["slug"] == "x"


def test_content_write_tokens_may_manage_terms_content_read_tokens_may_not() -> None:
    writer = actor(role=Role.EDITOR, scopes=["content:write"])
    services.term_create(actor=writer, taxonomy="tag", slug="ok", label="OK")
    reader = actor(role=Role.EDITOR, scopes=["content:read"])
    exc = fails("INSUFFICIENT_SCOPE", services.term_create, actor=reader, taxonomy="tag", slug="no", label="No")
    assert exc.details == {"requiredScope": "taxonomies:manage"}
    assert selectors.term_list(actor=reader, taxonomy="tag").items[0]["slug"] == "ok"
    other = actor(role=Role.ADMIN, scopes=["media:write"])
    fails("INSUFFICIENT_SCOPE", selectors.taxonomy_list, actor=other)


def test_anonymous_visitors_read_taxonomies_and_terms() -> None:
    create("public")
    anon = Actor.anonymous()
    assert [t["slug"] for t in selectors.term_list(actor=anon, taxonomy="category").items] == ["public"]
    fails("INSUFFICIENT_PERMISSIONS", services.term_create, actor=anon, taxonomy="tag", slug="x", label="X")
