"""The REST door of the operation table: URL patterns generated from the records' routes, one generic view.

Each route path becomes one URL pattern served by a view class built here; its methods merge the path
parameters with the query string (``args="query"``) or the JSON body (``args="body"``) into the input and
call ``run_operation(source="rest")``. Authentication, the route-rule check and error mapping are
``ApiView``'s, as for every other API view, except for an anonymous plain GET of a public read, which the view
answers without DRF's dispatch, with the same answer (``OperationView._lean_get``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, ClassVar

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.urls import ResolverMatch, URLPattern, path
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from api.base import ApiView
from api.lean import AnonymousRead, is_conditional, is_lean
from api.parsers import StreamedJSONParser
from api.preconditions import check_write
from api.renderers import FastJSONRenderer
from api.rules import rule
from api.schema_doc import ERRORS
from content import caching, stamps
from emdash import http_cache
from emdash.actor import Actor
from emdash.call import Call
from emdash.edge import limits
from emdash.errors import ValidationError
from emdash.http_cache import Validators
from emdash.operations import TABLE, Operation, Route, Shape, operations, run_operation
from emdash.operations.record import path_params

_PARAM = re.compile(r"<(?:\w+:)?(\w+)>")


class OperationView(ApiView):
    """Serves the operations declared on one path, one per HTTP method."""

    bound: ClassVar[dict[str, tuple[Operation, Route]]] = {}

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        lean = self._lean_get(request, kwargs) if request.method in ("GET", "HEAD") else None
        return lean if lean is not None else super().dispatch(request, *args, **kwargs)

    def _lean_get(self, request: HttpRequest, params: dict[str, str]) -> HttpResponseBase | None:
        """An anonymous, plain, unconditional GET of a public read answered without DRF's dispatch, or None.

        DRF's Request wrapping, negotiation, authentication and permission classes, Response and renderer cost a
        sixth of an item read and decide nothing here: no credentials means the anonymous actor, a public rule
        admits it, a plain Accept gets the JSON renderer. The answer is the one DRF gives (status, body, headers
        in the same order). Anything else (a credential, a session, a precondition, another Accept, ?format,
        a rule that is not public) takes DRF's path, and so does any error: the read is run again there, so
        error bodies and headers come from the one exception handler.
        """
        if not is_lean(request, self.bound, self.rules, self.renderer_classes):
            return None
        try:
            read = self._read(AnonymousRead(request), params)
        except Exception:  # DRF's path answers it, as it answers every error
            return None
        if isinstance(read, HttpResponseBase):
            return None  # not reached: an unconditional read has no 304 (DRF's path would pass it through)
        payload, status, found = read
        body = FastJSONRenderer().render(payload, "application/json")
        response = HttpResponse(body, content_type="application/json", status=status)
        if not body:
            del response["Content-Type"]  # as DRF's Response does for an empty rendering
        if found is not None:
            http_cache.apply(response, found)
        response["Allow"] = ", ".join(self.allowed_methods)  # DRF's default response header
        return response

    def run(self, request: Request, **params: str) -> Response:
        found = self._read(request, params)
        if isinstance(found, HttpResponseBase):
            return found  # type: ignore[return-value]  # a 304: DRF passes any HttpResponse through
        payload, status, validators = found
        response = Response(payload, status=status)
        if validators is not None:
            http_cache.apply(response, validators)
        return response

    def _read(
        self, request: Request | AnonymousRead, params: dict[str, str]
    ) -> tuple[Any, int, Validators | None] | HttpResponseBase:
        """The operation's payload, status and validators, or the 304/412 a conditional request gets."""
        method = "GET" if request.method == "HEAD" else str(request.method)
        declared, route = self.bound[method]
        op = TABLE[declared.name]  # looked up per call, so a test may swap a record in the table
        fixed = {_wire(op, name): value for name, value in params.items()}
        raw = {**self._arguments(request, op, route, fixed), **fixed}  # type: ignore[arg-type]
        cacheable = method == "GET" and op.name in caching.VALIDATORS
        asks = cacheable and is_conditional(request)  # type: ignore[arg-type]
        found = conditional(self, request, op.name, raw) if asks else None  # type: ignore[arg-type]
        if isinstance(found, HttpResponseBase):
            return found
        if method != "GET":
            check_write(op, self.bound, self.actor(request), request, params)  # type: ignore[arg-type]
        shape = Shape(lax=route.args == "query", fixed=frozenset(fixed), noun="field")
        with stamps.noting():  # the read's own reading of the stamps serves its validators
            payload = run_operation(op, rest_call(self, request), raw, shape=shape)  # type: ignore[arg-type]
            if cacheable and not asks:  # validators from the answer where it carries them (the item's _rev)
                query = request.META.get("QUERY_STRING", "")
                found = caching.validators_after(op.name, self.actor(request), raw, query, payload)  # type: ignore[arg-type]
        return payload, route.status, found

    def _arguments(self, request: Request, op: Operation, route: Route, fixed: dict[str, str]) -> dict[str, Any]:
        if route.args == "query":
            # Unknown query parameters are ignored (caches, tracking tags); empty ones count as absent. The
            # known ones are this method's operation's (DELETE ?force=true shares its path with a GET).
            known = _query_names(op)[0]
            flat = {k: v for k, v in request.query_params.items() if k in known and v != ""}
            return {**flat, **list_query(request, op), **nested_query(request, op)}
        if route.args == "path":
            return {}
        if route.method == "POST" and not _body_required(op, fixed) and not _is_json(request):
            # A POST action whose body arguments are all optional (publish's publishedAt): no JSON body means
            # "none", as before the route read one, whatever encoding the client's bare POST came with.
            return {}
        data = request.data
        if not isinstance(data, dict):
            raise ValidationError("The request body must be a JSON object")
        clash = {key: "is set by the URL path" for key in data if key in fixed}
        if clash:
            raise ValidationError.for_fields(clash)
        return dict(data)


def _body_required(op: Operation, fixed: dict[str, Any]) -> bool:
    return any(name not in fixed for name in op.schema.get("required", []))


def _is_json(request: Request) -> bool:
    return (request.content_type or "").split(";")[0].strip().lower().endswith("json")


def _has_type(prop: dict[str, Any], kind: str) -> bool:
    """Whether a property schema allows ``kind`` (one type per schema: directly or as an anyOf branch)."""
    return prop.get("type") == kind or any(branch.get("type") == kind for branch in prop.get("anyOf", []))


# By operation name: (its input schema, its argument names, the list ones, the object ones), read from the schema
# once rather than on every request; a record swapped in the table (tests) brings another schema object.
_QUERY_NAMES: dict[str, tuple[Any, frozenset[str], frozenset[str], frozenset[str]]] = {}


def _query_names(op: Operation) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    found = _QUERY_NAMES.get(op.name)
    if found is None or found[0] is not op.schema:
        properties = op.schema["properties"]
        lists = frozenset(name for name, prop in properties.items() if _has_type(prop, "array"))
        objects = frozenset(name for name, prop in properties.items() if _has_type(prop, "object"))
        found = _QUERY_NAMES[op.name] = (op.schema, frozenset(properties), lists, objects)
    return found[1:]


def list_query(request: Request, op: Operation) -> dict[str, Any]:
    """List arguments from the query string, repeated or comma-separated: ``?fields=title,excerpt`` and
    ``?fields=title&fields=excerpt`` both give ``["title", "excerpt"]``."""
    lists = _query_names(op)[1]
    found: dict[str, Any] = {}
    for name in lists & set(request.query_params):
        values = [part.strip() for value in request.query_params.getlist(name) for part in value.split(",")]
        if values := [value for value in values if value]:
            found[name] = values
    return found


_BRACKETS = re.compile(r"^(\w+)((?:\[[^\[\]]+\])+)$")


def nested_query(request: Request, op: Operation) -> dict[str, Any]:
    """Object arguments from deepObject-style keys: ``filter[fields][price][gte]=3`` fills
    ``{"filter": {"fields": {"price": {"gte": 3}}}}`` (a repeated key gives a list). A bracketed key whose
    name is not an object argument is refused: it is a filter the caller expects to apply."""
    objects = _query_names(op)[2]
    found: dict[str, Any] = {}
    for key in request.query_params:
        if "[" not in key:
            continue
        match = _BRACKETS.match(key)
        if match is None or match[1] not in objects:
            accepted = ", ".join(f"{name}[...]" for name in sorted(objects)) or "none"
            raise ValidationError.for_fields({key: f"unknown query parameter (bracketed: {accepted})"})
        values = [v for v in request.query_params.getlist(key) if v != ""]
        if not values:
            continue
        node = found
        path = [match[1], *re.findall(r"\[([^\[\]]+)\]", match[2])]
        for part in path[:-1]:
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                raise ValidationError.for_fields({key: "conflicts with another parameter"})
            node = child
        if isinstance(node.get(path[-1]), dict):
            raise ValidationError.for_fields({key: "conflicts with another parameter"})
        node[path[-1]] = values[0] if len(values) == 1 else values
    return found


def conditional(
    view: ApiView, request: Request, name: str, raw: dict[str, Any]
) -> Validators | HttpResponseBase | None:
    """The read's validators (content/caching.py), or its 304 when the client's copy is current: decided before
    the operation builds the body. None for operations without validators."""
    found = caching.validators(name, view.actor(request), raw, request.META.get("QUERY_STRING", ""))
    if found is None:
        return None
    return http_cache.not_modified(request._request, found) or found


def cached_response(view: ApiView, request: Request, name: str, raw: dict[str, Any], build: Callable[[], Any]) -> Any:
    """A hand-written read view's answer with the operation's validators and cache headers (search)."""
    found = conditional(view, request, name, raw)
    if isinstance(found, HttpResponseBase):
        return found
    response = Response(build())
    if found is not None:
        http_cache.apply(response, found)
    return response


def run_named(view: ApiView, request: Request, name: str, raw: dict[str, Any], *, lax: bool = False) -> Any:
    """Run operation ``name`` from a hand-written REST view (special shapes: uploads, REST-only query names)."""
    return run_operation(TABLE[name], rest_call(view, request), raw, shape=Shape(lax=lax, noun="field"))


def rest_call(view: ApiView, request: Request) -> Call:
    """The REST door's call: the request's actor, named by its User-Agent (which program called)."""
    return Call.from_user_agent("rest", view.actor(request), request.META.get("HTTP_USER_AGENT", ""))


def _wire(op: Operation, name: str) -> str:
    field = op.input.model_fields[name]
    return field.alias or name


def _handler(method: str, op: Operation, route: Route) -> Callable[..., Response]:
    def handler(self: OperationView, request: Request, **params: str) -> Response:
        return self.run(request, **params)

    handler.__name__ = method.lower()
    assert op.output_schema is not None  # record._check: a routed operation declares one
    return extend_schema(
        summary=op.title,
        # One operation on several routes (PUT and PATCH): the first keeps the name, ids stay unique.
        operation_id=op.name if route is op.routes[0] else f"{op.name}_{method.lower()}",
        request={"application/json": _body_schema(op, route)} if route.args == "body" else None,
        parameters=_query_parameters(op, route),
        responses={
            route.status: OpenApiResponse(op.output_schema, description="Success"),
            **ERRORS,
        },
        tags=[op.category],
    )(handler)


def _body_schema(op: Operation, route: Route) -> dict[str, Any]:
    """The input schema without the path parameters (the URL carries them)."""
    in_path = {_wire(op, name) for name in path_params(route)}
    schema = {**op.schema, "properties": {k: v for k, v in op.schema["properties"].items() if k not in in_path}}
    required = [name for name in op.schema.get("required", []) if name not in in_path]
    if required:
        schema["required"] = required
    else:
        schema.pop("required", None)
    return schema


def _query_parameters(op: Operation, route: Route) -> list[OpenApiParameter]:
    if route.args != "query":
        return []
    in_path = {_wire(op, name) for name in path_params(route)}
    required = set(op.schema.get("required", []))
    found = []
    for name, prop in op.schema["properties"].items():
        if name in in_path:
            continue
        if prop.get("type") == "object":  # filter[author]=3, filter[fields][price][gte]=10 (see nested_query)
            found.append(_deep_object(name, prop, op))
            continue
        found.append(
            OpenApiParameter(
                name,
                _query_schema(prop),
                OpenApiParameter.QUERY,
                required=name in required,
                description=str(prop.get("description", "")),
            )
        )
    return found


def _query_schema(prop: dict[str, Any]) -> dict[str, Any]:
    """The input property's own schema (type, bounds, default, enum, list items), so a generated client sends a
    bool, an int or a list; a query value cannot be null, so a nullable property loses its null branch. Lists
    are read repeated or comma-separated (list_query): the schema's default, repeated keys, is one of those."""
    schema = {k: v for k, v in prop.items() if k != "description"}
    branches = [b for b in schema.get("anyOf", []) if b.get("type") != "null"]
    if "anyOf" in schema and len(branches) == 1:
        schema = {**{k: v for k, v in schema.items() if k != "anyOf"}, **branches[0]}
    return schema


def _deep_object(name: str, prop: dict[str, Any], op: Operation) -> OpenApiParameter:
    schema = {k: v for k, v in prop.items() if k != "description"}
    notes = QUERY_NOTES.get((op.name, name), "")
    return OpenApiParameter(
        name,
        schema,
        OpenApiParameter.QUERY,
        style="deepObject",
        explode=True,
        description=f"{prop.get('description', '')} {notes}".strip(),
    )


# How an object argument is written in a query string, for the OpenAPI description.
QUERY_NOTES = {
    ("content_list", "filter"): "In the query string: filter[author]=3, filter[publishedAfter]=2026-01-01, "
    "filter[terms][category]=news (comma-separated: any of), filter[fields][title]=Hello, "
    "filter[fields][price][gte]=10, filter[fields][kind][in]=news,review. Field operators by type: "
    "string/text/slug/reference/boolean: eq; select: eq, in; multiSelect: eq and in (has any of); "
    "number/integer: eq, gte, lte; datetime: gte, lte. The collection's fields are listed by "
    "GET /_emdash/api/schema/collections/{collection}.",
}


def _specificity(pattern: str) -> tuple[int, ...]:
    # Literal segments before parameters at each position, so ".../trash" wins over ".../<id>".
    return tuple(1 if _PARAM.fullmatch(part) else 0 for part in pattern.split("/"))


def path_of(bound: dict[str, tuple[Operation, Route]]) -> str:
    return next(iter(bound.values()))[1].path


def _view_class(name: str, bound: dict[str, tuple[Operation, Route]]) -> type[OperationView]:
    attrs: dict[str, Any] = {
        "bound": bound,
        # Routes allowed more than MAX_BODY read their JSON from the stream (Django caps request.body).
        **({"parser_classes": [StreamedJSONParser]} if f"/{path_of(bound)}" in limits.LARGE_JSON_PATHS else {}),
        "rules": {method: rule(op.perm) for method, (op, _) in bound.items()},
        "__doc__": " / ".join(op.description for op, _ in bound.values()),
        "__module__": __name__,
    }
    for method, (op, route) in bound.items():
        attrs[method.lower()] = _handler(method, op, route)
    title = "".join(part.title() for part in name.removeprefix("api-").split("-"))
    return type(f"{title}View", (OperationView,), attrs)


def urlpatterns(category: str | None = None) -> list[URLPattern]:
    """One URL pattern per route path of the table (optionally one category), most specific first."""
    by_path: dict[str, dict[str, tuple[Operation, Route]]] = {}
    names: dict[str, str] = {}
    for op in operations():
        if category is not None and op.category != category:
            continue
        for route in op.routes:
            methods = by_path.setdefault(route.path, {})
            if route.method in methods:
                raise ValueError(f"{route.method} {route.path} is declared twice ({op.name})")
            methods[route.method] = (op, route)
            names.setdefault(route.path, route.name or f"api-{op.name.replace('_', '-')}")
    ordered = sorted(by_path, key=_specificity)
    for p, bound in by_path.items():
        if "GET" in bound and bound["GET"][0].name in caching.VALIDATORS:
            http_cache.EARLY[names[p]] = _early(bound["GET"][0])
    return [path(p, _view_class(names[p], by_path[p]).as_view(), name=names[p]) for p in ordered]


def _early(op: Operation) -> Callable[[HttpRequest, ResolverMatch], Validators | None]:
    """The validators of an anonymous conditional GET of ``op`` (EarlyNotModifiedMiddleware): the same as the
    view computes for an anonymous caller, so the 304 it gives is the one the view would give."""

    def validators(request: HttpRequest, match: ResolverMatch) -> Validators | None:
        raw: dict[str, Any] = {_wire(op, name): value for name, value in match.kwargs.items()}
        raw.update({k: v for k, v in request.GET.items() if k in ("locale",) and v != ""})
        return caching.validators(op.name, Actor.anonymous(), raw, request.META.get("QUERY_STRING", ""))

    return validators
