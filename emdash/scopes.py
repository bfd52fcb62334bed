"""The scope table: token scopes, what each grants, and which scopes imply others."""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum


class Scope(StrEnum):
    CONTENT_READ = "content:read"
    CONTENT_WRITE = "content:write"
    MEDIA_READ = "media:read"
    MEDIA_WRITE = "media:write"
    SCHEMA_READ = "schema:read"
    SCHEMA_WRITE = "schema:write"
    TAXONOMIES_MANAGE = "taxonomies:manage"
    MENUS_MANAGE = "menus:manage"
    SETTINGS_READ = "settings:read"
    SETTINGS_MANAGE = "settings:manage"
    ADMIN = "admin"
    # SPEC 9.1 (listed last, as SPEC 3 lists it): writes drafts and proposes changes, never changes what the
    # public sees. The one to give an assistant that should not publish.
    CONTENT_DRAFT = "content:draft"


DESCRIPTIONS: dict[Scope, str] = {
    Scope.CONTENT_READ: "List, get, compare and search content; list taxonomies, terms and menus.",
    Scope.CONTENT_WRITE: "Create, update, delete, publish, unpublish, schedule, duplicate and restore content.",
    Scope.CONTENT_DRAFT: (
        "Create and edit drafts and propose changes for review; never publishes, unpublishes, schedules or deletes "
        "(nothing the public sees changes)."
    ),
    Scope.MEDIA_READ: "List and get media items.",
    Scope.MEDIA_WRITE: "Register, update and delete media.",
    Scope.SCHEMA_READ: "List collections and read their fields.",
    Scope.SCHEMA_WRITE: "Create and delete collections and fields.",
    Scope.TAXONOMIES_MANAGE: "Define taxonomies; create, update and delete their terms.",
    Scope.MENUS_MANAGE: "Create, update and delete menus and their items.",
    Scope.SETTINGS_READ: "Read site settings.",
    Scope.SETTINGS_MANAGE: "Update site settings.",
    Scope.ADMIN: "Full access to every operation.",
}

# One hop only: content:write predates the taxonomy and menu scopes, so old tokens keep working.
IMPLIES: dict[Scope, frozenset[Scope]] = {
    Scope.ADMIN: frozenset(Scope),
    Scope.CONTENT_WRITE: frozenset({Scope.TAXONOMIES_MANAGE, Scope.MENUS_MANAGE}),
}

ALL: tuple[str, ...] = tuple(s.value for s in Scope)

# What a scope lets you do, as a phrase, for the "also" sentence of the scopes that imply it.
PHRASES: dict[Scope, str] = {
    Scope.TAXONOMIES_MANAGE: "taxonomy terms (categories, tags)",
    Scope.MENUS_MANAGE: "menus",
}


def describe(scope: Scope | str) -> str:
    """The description people read on the token and consent screens, with what the scope implies (from IMPLIES)."""
    scope = Scope(scope)
    implied = sorted(IMPLIES.get(scope, frozenset()) - {scope}, key=list(Scope).index)
    if not implied or scope is Scope.ADMIN:
        return DESCRIPTIONS[scope]
    things = " and ".join(PHRASES.get(s, s.value) for s in implied)
    codes = ", ".join(s.value for s in implied)
    return f"{DESCRIPTIONS[scope]} Also manages {things} (includes {codes})."


def parse(values: Iterable[str] | str) -> frozenset[Scope]:
    """Turn user input (a list or a comma/space separated string) into scopes; unknown names raise."""
    if isinstance(values, str):
        values = values.replace(",", " ").split()
    result: set[Scope] = set()
    unknown = []
    for value in values:
        try:
            result.add(Scope(value.strip()))
        except ValueError:
            unknown.append(value)
    if unknown:
        raise ValueError(f"Unknown scope(s): {', '.join(unknown)}; valid scopes: {', '.join(ALL)}")
    return frozenset(result)


def expand(granted: Iterable[str]) -> frozenset[Scope]:
    """The effective scopes of a grant, with implied scopes added (one hop)."""
    effective: set[Scope] = set()
    for value in granted:
        try:
            scope = Scope(value)
        except ValueError:
            continue  # a scope we no longer know grants nothing
        effective.add(scope)
        effective |= IMPLIES.get(scope, frozenset())
    return frozenset(effective)
