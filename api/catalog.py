"""The list of REST routes with their rules, read from the URL conf (for docs and test matrices)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver

from api.base import ApiView
from api.permissions import declared_rule
from api.rules import RouteRule

METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


@dataclass(frozen=True)
class Route:
    pattern: str  # Django URL pattern without the leading slash
    method: str
    view: type[ApiView]
    rule: RouteRule | None

    @property
    def path(self) -> str:
        """The OpenAPI-style path, e.g. ``/_emdash/api/content/{collection}``."""
        return "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", self.pattern)

    def __str__(self) -> str:
        return f"{self.method} {self.path}"


def _patterns(resolver: URLResolver, prefix: str = "") -> Iterator[tuple[str, Any]]:
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            yield from _patterns(entry, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), entry.callback


def api_urls() -> list[tuple[str, Any]]:
    """Every URL pattern under /_emdash/api/ with its view callback."""
    return [(p, cb) for p, cb in _patterns(get_resolver()) if p.startswith("_emdash/api/")]


def routes() -> list[Route]:
    """Every (path, method) an ApiView implements, with the rule it declares (None = refused)."""
    found = []
    for pattern, callback in api_urls():
        view = getattr(callback, "view_class", None)
        if view is None or not issubclass(view, ApiView):
            continue
        instance = view(**getattr(callback, "view_initkwargs", {}))
        for method in METHODS:
            if hasattr(instance, method.lower()) and method.lower() in view.http_method_names:
                found.append(Route(pattern, method, view, declared_rule(instance, method)))
    return found


def as_markdown() -> str:
    """The route table for docs/rest-api.md (a test keeps the doc in step)."""
    lines = ["| route | token scope | minimum role | anonymous |", "|---|---|---|---|"]
    for route in routes():
        rule = route.rule
        if rule is None:
            lines.append(f"| `{route}` | — | refused | no |")
            continue
        anonymous = "yes (published only)" if rule.public else "no"
        scopes = " or ".join(f"`{s.value}`" for s in (rule.scope, *sorted(rule.also)))
        lines.append(f"| `{route}` | {scopes} | {rule.min_role.label} | {anonymous} |")
    return "\n".join(lines)
