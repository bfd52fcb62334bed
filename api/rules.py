"""The per-route access table: which rule guards each HTTP method of each API view.

Every rule comes from ``emdash.permissions.RULES`` (one source of truth). A method without a declared
rule is refused (fail closed).
"""

from __future__ import annotations

from dataclasses import dataclass

from emdash.permissions import RULES, Perm
from emdash.roles import Role
from emdash.scopes import Scope


@dataclass(frozen=True)
class RouteRule:
    """What a caller needs before the view runs; services still apply ownership and visibility rules."""

    name: str
    scope: Scope
    min_role: Role
    needs: str
    public: bool = False
    also: frozenset[Scope] = frozenset()  # other scopes that pass (RULES' ``also``)

    def scope_allows(self, scopes: frozenset[Scope]) -> bool:
        return self.scope in scopes or not self.also.isdisjoint(scopes)


def from_perm(perm: Perm) -> RouteRule:
    rule = RULES[perm]
    return RouteRule(perm.value, rule.scope, rule.min_role, rule.needs, rule.public, rule.also)


ROUTE_RULES: dict[str, RouteRule] = {perm.value: from_perm(perm) for perm in Perm}


def rule(name: Perm | str) -> RouteRule:
    return ROUTE_RULES[name.value if isinstance(name, Perm) else name]
