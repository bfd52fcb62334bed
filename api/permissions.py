"""The DRF permission check that reads each view's declared route rules (fail closed)."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from api.authentication import actor_of
from api.rules import RouteRule
from emdash.errors import InsufficientPermissions
from emdash.permissions import Perm, scope_refused


class NoRuleDeclared(InsufficientPermissions):
    def __init__(self) -> None:
        super().__init__("this operation has no declared access rule")


def declared_rule(view: Any, method: str) -> RouteRule | None:
    rules: dict[str, RouteRule] = getattr(view, "rules", {})
    return rules.get("GET" if method == "HEAD" else method)


class RouteRules(BasePermission):
    """Scope (tokens only) and minimum role from the view's ``rules``; anonymous only where public.

    A method the view implements but declares no rule for is refused, so a new handler cannot ship open.
    """

    def has_permission(self, request: Request, view: Any) -> bool:
        method = request.method or "GET"
        if not hasattr(view, method.lower()):
            return True  # DRF answers 405 next; nothing runs
        rule = declared_rule(view, method)
        if rule is None:
            raise NoRuleDeclared()
        actor = actor_of(request)
        if actor.is_anonymous:
            if rule.public:
                return True
            raise NotAuthenticated("Authentication required: send a bearer token or sign in")
        if actor.scopes is not None and not rule.scope_allows(actor.scopes):
            raise scope_refused(actor, Perm(rule.name))
        if actor.role < rule.min_role:
            raise InsufficientPermissions(rule.needs)
        return True
