"""SPEC 6.6: menus and their items through the services and selectors."""

from __future__ import annotations

from typing import Any

import pytest

from content.entries import services as content_services
from emdash.actor import Actor
from emdash.errors import EmDashError
from emdash.roles import Role
from menus import selectors, services
from menus.models import Menu, MenuItem
from taxonomy import services as taxonomy_services
from tests.factories import SYSTEM, actor, make_collection, make_entry


def fails(code: str, fn: Any, *args: Any, **kwargs: Any) -> EmDashError:
    try:
        fn(*args, **kwargs)
    except EmDashError as exc:
        assert exc.code == code, exc.as_dict()
        return exc
    raise AssertionError(f"expected {code}")


def make_menu(name: str = "primary", label: str = "Primary") -> Menu:
    return services.menu_create(actor=SYSTEM, name=name, label=label)


def set_items(items: list[Any], name: str = "primary") -> int:
    return services.menu_set_items(actor=SYSTEM, name=name, items=items)


def get(name: str = "primary", who: Actor = SYSTEM) -> dict[str, Any]:
    return selectors.menu_get(actor=who, name=name)


def custom(label: str, url: str = "/x/", **extra: Any) -> dict[str, Any]:
    return {"label": label, "type": "custom", "customUrl": url, **extra}


def problems_of(exc: EmDashError) -> dict[str, str]:
    return exc.details["fields"]


# --------------------------------------------------------------------------------------------- menus


@pytest.mark.django_db
def test_create_get_update_delete() -> None:
    menu = make_menu()
    got = get()
    assert got["name"] == "primary" and got["label"] == "Primary"
    assert got["items"] == [] and got["itemCount"] == 0
    assert got["createdAt"].endswith("Z")
    services.menu_update(actor=SYSTEM, name="primary", label="Main")
    assert get()["label"] == "Main"
    set_items([custom("Home", "/")])
    services.menu_delete(actor=SYSTEM, name="primary")
    assert not Menu.objects.exists() and not MenuItem.objects.exists()
    fails("NOT_FOUND", get)
    fails("NOT_FOUND", services.menu_delete, actor=SYSTEM, name="primary")
    fails("NOT_FOUND", services.menu_update, actor=SYSTEM, name="primary", label="x")
    assert menu.pk is not None


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["", "Primary", "1st", "_x", "with-dash", "a b", "a" * 64, None, 7])
def test_menu_names_are_checked(name: Any) -> None:
    exc = fails("VALIDATION_ERROR", services.menu_create, actor=SYSTEM, name=name, label="L")
    assert "name" in problems_of(exc)


@pytest.mark.django_db
def test_duplicate_names_conflict_and_labels_are_required() -> None:
    make_menu()
    fails("CONFLICT", make_menu)
    exc = fails("VALIDATION_ERROR", services.menu_create, actor=SYSTEM, name="footer", label=" ")
    assert set(problems_of(exc)) == {"label"}
    fails("VALIDATION_ERROR", services.menu_update, actor=SYSTEM, name="primary", label="")


@pytest.mark.django_db
def test_menu_list_by_name_with_item_counts() -> None:
    make_menu("social", "Social")
    make_menu("footer", "Footer")
    set_items([custom("A"), custom("B")], name="footer")
    listed = selectors.menu_list(actor=Actor.anonymous())
    assert [(m["name"], m["itemCount"]) for m in listed] == [("footer", 2), ("social", 0)]
    assert set(listed[0]) == {
        "id",
        "name",
        "locale",
        "translationGroup",
        "label",
        "itemCount",
        "createdAt",
        "updatedAt",
    }


# --------------------------------------------------------------------------------------------- items


@pytest.mark.django_db
def test_set_items_keeps_order_and_nesting() -> None:
    make_menu()
    count = set_items(
        [
            custom("Home", "/", target="_self"),
            custom("Docs", "https://docs.example.com", target="_blank", titleAttr="Docs", cssClasses="nav ext"),
            custom("API", "/docs/api/", parentIndex=1),
            custom("Guides", "#guides", parentIndex=1),
            custom("Deep", "/docs/api/deep/", parentIndex=2),
        ]
    )
    assert count == 5
    items = get()["items"]
    assert [i["label"] for i in items] == ["Home", "Docs", "API", "Guides", "Deep"]
    assert [i["position"] for i in items] == [0, 1, 2, 3, 4]
    assert [i["parentIndex"] for i in items] == [None, None, 1, 1, 2]
    assert items[2]["parentId"] == items[1]["id"] == items[3]["parentId"]
    assert items[1]["target"] == "_blank" and items[1]["titleAttr"] == "Docs" and items[1]["cssClasses"] == "nav ext"
    assert items[1]["url"] == "https://docs.example.com" and items[1]["reference"] is None
    tree = selectors.menu_tree(actor=SYSTEM, name="primary")["items"]
    assert [n["label"] for n in tree] == ["Home", "Docs"]
    assert [n["label"] for n in tree[1]["children"]] == ["API", "Guides"]
    assert tree[1]["children"][0]["children"][0]["label"] == "Deep"


@pytest.mark.django_db
def test_set_items_replaces_the_whole_list() -> None:
    make_menu()
    set_items([custom("A"), custom("B"), custom("C", parentIndex=0)])
    set_items([custom("Only")])
    assert [i["label"] for i in get()["items"]] == ["Only"]
    assert set_items([]) == 0
    assert MenuItem.objects.count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize("parent_index", [2, 3, 99, -1])
def test_a_forward_or_self_parent_index_is_refused_and_nothing_changes(parent_index: int) -> None:
    make_menu()
    set_items([custom("Kept")])
    before = list(MenuItem.objects.values_list("id", "label"))
    exc = fails("VALIDATION_ERROR", set_items, [custom("A"), custom("B"), custom("C", parentIndex=parent_index)])
    assert "items.2.parentIndex" in problems_of(exc)
    assert "earlier item" in problems_of(exc)["items.2.parentIndex"]
    assert "items.2" in exc.message
    assert list(MenuItem.objects.values_list("id", "label")) == before


@pytest.mark.django_db
def test_the_first_item_has_no_parent_and_booleans_are_not_indexes() -> None:
    make_menu()
    exc = fails("VALIDATION_ERROR", set_items, [custom("A", parentIndex=0), custom("B", parentIndex=True)])
    assert set(problems_of(exc)) == {"items.0.parentIndex", "items.1.parentIndex"}


@pytest.mark.django_db
def test_every_problem_is_reported_in_one_error() -> None:
    make_menu()
    exc = fails(
        "VALIDATION_ERROR",
        set_items,
        [
            custom("Fine"),
            {"label": "", "type": "custom", "customUrl": "javascript:alert(1)"},
            {"label": "X", "type": "weird"},
            {"label": "Y", "type": "custom", "customUrl": "/y/", "target": "_top", "bogus": 1},
            {"label": "Z", "type": "custom", "customUrl": "/z/", "referenceId": "abc", "cssClasses": 'a"b'},
            "not an object",
            custom("Fwd", parentIndex=7),
        ],
    )
    assert set(problems_of(exc)) == {
        "items.1.label",
        "items.1.customUrl",
        "items.2.type",
        "items.3.target",
        "items.3.bogus",
        "items.4.referenceId",
        "items.4.cssClasses",
        "items.5",
        "items.6.parentIndex",
    }
    assert not MenuItem.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        " JaVaScRiPt:alert(1)",
        "java\tscript:alert(1)",
        "\x01javascript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "vbscript:msgbox(1)",
        "//evil.example",
        "/\\evil.example",
    ],
)
def test_script_and_protocol_relative_urls_are_refused(url: str) -> None:
    make_menu()
    exc = fails("VALIDATION_ERROR", set_items, [custom("Bad", url)])
    assert "items.0.customUrl" in problems_of(exc)
    assert not MenuItem.objects.exists()


@pytest.mark.django_db
def test_items_need_their_type_specific_fields() -> None:
    make_menu()
    exc = fails(
        "VALIDATION_ERROR",
        set_items,
        [
            {"label": "No url", "type": "custom"},
            {"label": "No ref", "type": "taxonomy", "referenceCollection": "category"},
            {"label": "No coll", "type": "collection"},
            {"label": "Url on ref", "type": "collection", "referenceCollection": "nope", "customUrl": "/x/"},
        ],
    )
    assert set(problems_of(exc)) == {
        "items.0.customUrl",
        "items.1.referenceId",
        "items.2.referenceCollection",
        "items.3.customUrl",
        "items.3.referenceCollection",
    }


@pytest.mark.django_db
def test_items_limit() -> None:
    make_menu()
    fails("VALIDATION_ERROR", set_items, [custom(str(i)) for i in range(services.MAX_ITEMS + 1)])
    fails("VALIDATION_ERROR", set_items, {"label": "x"})


# --------------------------------------------------------------------------------------------- references


@pytest.mark.usefixtures("posts")
def test_references_resolve_to_public_urls_only() -> None:
    make_collection("pages", supports=["drafts"])
    make_menu()
    published = make_entry(data={"title": "Hello"}, status="published")
    draft = make_entry(data={"title": "Secret draft"})
    page = make_entry("pages", data={"title": "About"}, status="published")
    news = taxonomy_services.term_create(actor=SYSTEM, taxonomy="category", slug="news", label="News")
    set_items(
        [
            {"label": "Post", "type": "post", "referenceId": published.row.slug},
            {"label": "Draft", "type": "post", "referenceId": draft.id, "parentIndex": 0},
            {"label": "About", "type": "page", "referenceId": page.id},
            {"label": "News", "type": "taxonomy", "referenceCollection": "category", "referenceId": "news"},
            {"label": "All posts", "type": "collection", "referenceCollection": "posts"},
            {"label": "Pages as post", "type": "post", "referenceCollection": "pages", "referenceId": "about"},
        ]
    )
    items = get(who=Actor.anonymous())["items"]
    assert [i["url"] for i in items] == [
        "/posts/hello/",
        None,
        "/pages/about/",
        "/category/news/",
        "/posts/",
        "/pages/about/",
    ]
    assert items[0]["referenceId"] == published.id  # slugs are stored as the item's ID
    assert items[0]["reference"] == {"collection": "posts", "id": published.id}
    assert items[3]["reference"] == {"collection": "category", "id": news.id}
    assert items[4]["reference"] == {"collection": "posts", "id": None}
    tree = selectors.menu_tree(actor=Actor.anonymous(), name="primary")["items"]
    assert [n["label"] for n in tree] == ["Post", "About", "News", "All posts", "Pages as post"]
    assert tree[0]["children"] == []  # the draft stays out of the public tree
    # the slug of a published item follows renames; trashing hides it
    content_services.entry_update(actor=SYSTEM, collection="posts", id=published.id, slug="hi", status="published")
    assert get()["items"][0]["url"] == "/posts/hi/"
    content_services.entry_trash(actor=SYSTEM, collection="posts", id=published.id)
    assert get()["items"][0]["url"] is None
    taxonomy_services.term_delete(actor=SYSTEM, taxonomy="category", term="news")
    assert get()["items"][3]["url"] is None


@pytest.mark.usefixtures("posts")
def test_references_must_exist() -> None:
    make_menu()
    trashed = make_entry()
    content_services.entry_trash(actor=SYSTEM, collection="posts", id=trashed.id)
    exc = fails(
        "VALIDATION_ERROR",
        set_items,
        [
            {"label": "Missing", "type": "post", "referenceId": "no-such-post"},
            {"label": "Trashed", "type": "post", "referenceId": trashed.id},
            {"label": "No pages", "type": "page", "referenceId": "about"},
            {"label": "Term", "type": "taxonomy", "referenceCollection": "category", "referenceId": "ghost"},
            {"label": "Tax", "type": "taxonomy", "referenceCollection": "genre", "referenceId": "x"},
            {"label": "Coll", "type": "collection", "referenceCollection": "pages"},
        ],
    )
    assert set(problems_of(exc)) == {
        "items.0.referenceId",
        "items.1.referenceId",
        "items.2.referenceCollection",
        "items.3.referenceId",
        "items.4.referenceCollection",
        "items.5.referenceCollection",
    }


@pytest.mark.usefixtures("posts")
def test_menu_get_queries_do_not_grow_with_the_items() -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    make_menu()
    entries = [make_entry(status="published") for _ in range(3)]
    set_items([{"label": f"P{i}", "type": "post", "referenceId": e.id} for i, e in enumerate(entries)])
    get()  # warm the schema snapshot
    with CaptureQueriesContext(connection) as few:
        get()
    set_items([{"label": f"P{i}", "type": "post", "referenceId": e.id} for i, e in enumerate(entries * 10)])
    with CaptureQueriesContext(connection) as many:
        assert len(get()["items"]) == 30
    assert len(many) == len(few)


# --------------------------------------------------------------------------------------------- permissions


@pytest.mark.django_db
@pytest.mark.parametrize("role", [Role.SUBSCRIBER, Role.CONTRIBUTOR, Role.AUTHOR])
def test_managing_menus_needs_the_editor_role(role: Role) -> None:
    who = actor(role=role)
    fails("INSUFFICIENT_PERMISSIONS", services.menu_create, actor=who, name="m", label="M")
    make_menu("m")
    fails("INSUFFICIENT_PERMISSIONS", services.menu_update, actor=who, name="m", label="X")
    fails("INSUFFICIENT_PERMISSIONS", services.menu_set_items, actor=who, name="m", items=[])
    fails("INSUFFICIENT_PERMISSIONS", services.menu_delete, actor=who, name="m")
    assert get("m", who)["name"] == "m"


@pytest.mark.django_db
def test_content_write_tokens_may_manage_menus() -> None:
    services.menu_create(actor=actor(role=Role.EDITOR, scopes=["content:write"]), name="a", label="A")
    services.menu_create(actor=actor(role=Role.EDITOR, scopes=["menus:manage"]), name="b", label="B")
    exc = fails(
        "INSUFFICIENT_SCOPE",
        services.menu_create,
        actor=actor(role=Role.EDITOR, scopes=["content:read", "taxonomies:manage"]),
        name="c",
        label="C",
    )
    assert exc.details == {"requiredScope": "menus:manage"}
    fails("INSUFFICIENT_PERMISSIONS", services.menu_create, actor=Actor.anonymous(), name="d", label="D")
    assert [m["name"] for m in selectors.menu_list(actor=Actor.anonymous())] == ["a", "b"]
