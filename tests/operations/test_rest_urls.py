"""The REST URL conf for the operations is generated from the table: every declared route resolves to the
generic view bound to its operation, with the operation's permission as the route rule."""

from __future__ import annotations

import re

from django.urls import resolve

from api.operations import OperationView
from api.rules import rule
from emdash.operations import operations


def _concrete(path: str) -> str:
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: f"x{m.group(1)}", path)


def test_every_declared_route_resolves_to_its_operation() -> None:
    routes = [(op, route) for op in operations() for route in op.routes]
    assert (
        len([1 for op, _ in routes if op.category in ("content", "revision")]) == 33
    )  # + item terms get/set, redirects, the nine changeset_* routes, changes_revert
    for op, route in routes:
        match = resolve(_concrete(route.path))
        view = match.func.view_class
        assert issubclass(view, OperationView), route.path
        bound, bound_route = view.bound[route.method]
        assert bound.name == op.name and bound_route == route
        assert view.rules[route.method] == rule(op.perm)
        assert match.url_name == (route.name or match.url_name)


def test_literal_segments_win_over_parameters() -> None:
    """``.../trash`` is the trash list, not an item whose id is "trash"."""
    view = resolve("/_emdash/api/content/posts/trash").func.view_class
    assert view.bound["GET"][0].name == "content_list_trashed"
    assert resolve("/_emdash/api/content/posts/01J").func.view_class.bound["GET"][0].name == "content_get"


def test_openapi_types_the_generated_routes_from_the_records() -> None:
    """Request bodies are the input schema minus path parameters; 2xx responses are the output schema."""
    from django.test import Client

    from emdash.operations.record import path_params

    paths = Client().get("/_emdash/api/openapi.json").json()["paths"]
    for op in operations():
        for route in op.routes:
            url = "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route.path)
            entry = paths[url][route.method.lower()]
            expected = op.name if route is op.routes[0] else f"{op.name}_{route.method.lower()}"
            assert entry["operationId"] == expected
            response = entry["responses"][str(route.status)]["content"]["application/json"]["schema"]
            assert response == op.output_schema, op.name
            if route.args == "body":
                body = entry["requestBody"]["content"]["application/json"]["schema"]
                assert body["additionalProperties"] is False
                in_path = {op.input.model_fields[p].alias or p for p in path_params(route)}
                assert set(body["properties"]) == set(op.schema["properties"]) - in_path, op.name
