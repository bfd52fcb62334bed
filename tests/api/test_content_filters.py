"""Filtering GET /content/{collection} through the collection's FilterSet (content/entries/filters.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client

from content.schema import specs as schema
from tests.api.helpers import body, call, client_for
from tests.factories import make_entry
from tests.filter_data import Catalog, at, build_catalog

API = "/_emdash/api/content/posts"


@pytest.fixture
def catalog(cms) -> Catalog:
    return build_catalog()


@pytest.fixture
def editor(catalog):
    return client_for("editor")


def _titles(client: Client, query: dict) -> list[str]:
    response = call(client, "GET", API, query)
    assert response.status_code == 200, response.content
    return sorted(i["data"]["title"] for i in body(response)["items"])


CASES = [
    ({"filter[fields][title]": "Beta"}, ["Beta"]),
    ({"filter[fields][price]": "15.5"}, ["Beta"]),
    ({"filter[fields][price][gte]": "15"}, ["Beta", "Gamma"]),
    ({"filter[fields][price][gte]": "6", "filter[fields][price][lte]": "20"}, ["Beta"]),
    ({"filter[fields][stock][lte]": "2"}, ["Alpha", "Beta"]),
    ({"filter[fields][featured]": "true"}, ["Alpha", "Gamma"]),
    ({"filter[fields][featured]": "false"}, ["Beta"]),
    ({"filter[fields][kind]": "review"}, ["Beta"]),
    ({"filter[fields][kind][in]": "news,howto"}, ["Alpha", "Gamma"]),
    ({"filter[fields][kind][in]": ["news", "review"]}, ["Alpha", "Beta"]),  # a repeated key
    ({"filter[fields][colours]": "blue"}, ["Beta", "Gamma"]),
    ({"filter[fields][colours][in]": "red,green"}, ["Alpha", "Beta"]),
    ({"filter[fields][colours]": "Red"}, []),  # options are case-sensitive, on SQLite too
    ({"filter[fields][happens][gte]": "2026-02-01"}, ["Beta"]),
    ({"filter[fields][happens][lte]": "2026-01-10"}, ["Alpha"]),  # a date alone: up to the end of that day
    ({"filter[terms][category]": "news"}, ["Alpha", "Gamma"]),
    ({"filter[terms][category]": "news,sport"}, ["Alpha", "Beta", "Gamma"]),
    ({"filter[terms][category]": "news", "filter[terms][tag]": "hot"}, ["Gamma"]),
    ({"filter[terms][category]": "nothing-tagged"}, []),
    ({"filter[createdAfter]": "2026-02-05T12:00:00Z"}, ["Beta", "Delta", "Gamma"]),  # inclusive
    ({"filter[createdBefore]": "2026-03-05"}, ["Alpha", "Beta", "Gamma"]),
    ({"filter[createdAfter]": "2026-03-31", "filter[createdBefore]": "2026-03-31"}, ["Delta"]),
    ({"filter[publishedAfter]": "2026-02-01"}, ["Gamma"]),
    ({"filter[publishedBefore]": "2026-02-01T00:00:00+01:00"}, ["Alpha"]),
    ({"filter[updatedAfter]": "2000-01-01"}, ["Alpha", "Beta", "Delta", "Gamma"]),
    ({"status": "published", "filter[fields][featured]": "true"}, ["Alpha", "Gamma"]),
    ({"status": "draft", "filter[terms][category]": "sport"}, ["Beta"]),
    ({"filter[fields][price][gte]": ""}, ["Alpha", "Beta", "Delta", "Gamma"]),  # empty counts as absent
]


@pytest.mark.parametrize(("query", "expected"), CASES)
def test_each_filter(editor, query, expected) -> None:
    assert _titles(editor, query) == expected


def test_author_filter(editor, catalog) -> None:
    assert _titles(editor, {"filter[author]": catalog.alice.pk}) == ["Alpha", "Gamma"]
    assert _titles(editor, {"filter[author]": catalog.bob.pk, "status": "draft"}) == ["Beta", "Delta"]


BAD = [
    ({"filter[fields][price][gte]": "cheap"}, "filter.fields.price.gte", "must be a number"),
    ({"filter[fields][stock]": "1.5"}, "filter.fields.stock", "whole number"),
    ({"filter[fields][featured]": "maybe"}, "filter.fields.featured", "true, false"),
    ({"filter[fields][kind]": "opinion"}, "filter.fields.kind", "news, review, howto"),
    ({"filter[fields][kind][in]": "news,opinion"}, "filter.fields.kind.in", "news, review, howto"),
    ({"filter[fields][happens][gte]": "yesterday"}, "filter.fields.happens.gte", "ISO 8601"),
    ({"filter[fields][prize]": "1"}, "filter.fields.prize", "has no field 'prize'"),
    ({"filter[fields][photo]": "x"}, "filter.fields.photo", "image fields cannot be filtered"),
    ({"filter[fields][title][gte]": "a"}, "filter.fields.title.gte", "unknown operator 'gte'"),
    ({"filter[fields][price][between]": "1"}, "filter.fields.price.between", "unknown"),
    ({"filter[terms][genre]": "x"}, "filter.terms.genre", "no taxonomy 'genre'"),
    ({"filter[autor]": "1"}, "filter.autor", "unknown"),
    ({"filter[author]": "alice"}, "filter.author", "integer"),
    ({"filter[publishedAfter]": "2026-13-45"}, "filter.publishedAfter", "ISO 8601"),
    ({"filters[title]": "x"}, "filters[title]", "unknown query parameter"),
    ({"filter": "x"}, "filter", "object"),
]


@pytest.mark.parametrize(("query", "name", "message"), BAD)
def test_bad_filters_are_a_validation_error_naming_the_parameter(editor, query, name, message) -> None:
    response = call(editor, "GET", API, query)
    assert response.status_code == 400, response.content
    error = body(response)["error"]
    assert error["code"] == "VALIDATION_ERROR"
    assert name in error["details"]["fields"], error
    assert message in error["details"]["fields"][name], error


def test_anonymous_callers_get_the_same_filters_on_published_items_only(catalog) -> None:
    assert _titles(Client(), {"filter[terms][category]": "news,sport"}) == ["Alpha", "Gamma"]
    assert _titles(Client(), {"filter[fields][kind]": "review"}) == []
    response = call(Client(), "GET", API, {"status": "draft", "filter[fields][prize]": "1"})
    assert response.status_code == 400  # refused alike, though a draft list is empty for them anyway


def test_a_cursor_only_continues_the_filters_it_was_made_for(editor) -> None:
    query = {"limit": 1, "filter[fields][featured]": "true"}
    first = body(call(editor, "GET", API, query))
    assert first["nextCursor"]
    same = call(editor, "GET", API, {**query, "cursor": first["nextCursor"]})
    assert same.status_code == 200 and len(body(same)["items"]) == 1
    for other in ({"filter[fields][featured]": "false"}, {"filter[terms][category]": "news"}, {}):
        response = call(editor, "GET", API, {"limit": 1, **other, "cursor": first["nextCursor"]})
        assert response.status_code == 400, other
        error = body(response)["error"]
        assert error["code"] == "INVALID_CURSOR" and "different query" in error["message"]


@pytest.mark.parametrize("order_by", ["created_at", "status", "title"])
def test_paging_a_filtered_list_with_ties_never_skips_or_repeats(editor, order_by) -> None:
    model = schema.get_collection("posts").model
    wanted = set()
    for n in range(23):
        entry = make_entry(data={"title": f"Tie {n % 3}", "kind": "news" if n % 4 else "review"})
        wanted.add(entry.id) if n % 4 else None
    model.objects.update(created_at=at("2026-05-01T00:00:00"))  # every row ties on created_at
    wanted |= {i for i, kind in zip(*_kinds(model), strict=True) if kind == "news" and i not in wanted}
    seen: list[str] = []
    query = {"limit": 4, "orderBy": order_by, "order": "asc", "filter[fields][kind]": "news"}
    cursor = None
    while True:
        page = body(call(editor, "GET", API, {**query, **({"cursor": cursor} if cursor else {})}))
        seen += [i["id"] for i in page["items"]]
        cursor = page.get("nextCursor")
        if not cursor:
            break
    assert len(seen) == len(set(seen)) == len(wanted) and set(seen) == wanted


def _kinds(model) -> tuple[list[str], list[str]]:
    pairs = list(model.objects.values_list("id", "f_kind"))
    return [p[0] for p in pairs], [p[1] for p in pairs]


def test_date_filters_take_offsets_and_refuse_nonsense(editor, catalog) -> None:
    alpha = at("2026-01-05T12:00:00")
    just_after = (alpha + timedelta(seconds=1)).isoformat()
    assert "Alpha" not in _titles(editor, {"filter[createdAfter]": just_after})
    assert "Alpha" in _titles(editor, {"filter[createdAfter]": "2026-01-05T13:00:00+01:00"})


def test_the_openapi_document_describes_the_filter_object(cms) -> None:
    document = body(Client().get("/_emdash/api/openapi.json"))
    parameters = {p["name"]: p for p in document["paths"]["/_emdash/api/content/{collection}"]["get"]["parameters"]}
    filter_param = parameters["filter"]
    assert (filter_param["in"], filter_param["style"], filter_param["explode"]) == ("query", "deepObject", True)
    schema_ = filter_param["schema"]
    assert schema_["properties"]["author"]["type"] == "integer"
    assert {"publishedAfter", "createdBefore", "terms", "fields"} <= set(schema_["properties"])
    assert "filter[fields][price][gte]=10" in filter_param["description"]
    assert parameters["status"]["schema"]["enum"] == ["draft", "published", "scheduled"]
