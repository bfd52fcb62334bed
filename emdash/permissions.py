"""The permission table: every operation, the token scope it needs and the minimum role.

Services call :func:`require` (or :func:`require_owner_or`) before they touch data; the MCP tool
registry, the REST routes and the test matrices read the same table, so no two doors disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from emdash.actor import Actor
from emdash.errors import InsufficientPermissions, InsufficientScope
from emdash.roles import Role
from emdash.scopes import Scope


class Perm(StrEnum):
    CONTENT_READ = "content.read"  # published items
    CONTENT_READ_UNPUBLISHED = "content.read_unpublished"  # drafts, scheduled, trash, revisions, compare
    CONTENT_CREATE = "content.create"
    CONTENT_EDIT_OWN = "content.edit_own"  # edit, delete, publish, unpublish, schedule, restore
    CONTENT_EDIT_ANY = "content.edit_any"
    CONTENT_DELETE_PERMANENT = "content.delete_permanent"
    SCHEMA_READ = "schema.read"
    SCHEMA_WRITE = "schema.write"
    MEDIA_READ = "media.read"
    MEDIA_CREATE = "media.create"
    MEDIA_EDIT_OWN = "media.edit_own"
    MEDIA_EDIT_ANY = "media.edit_any"
    TAXONOMY_READ = "taxonomy.read"
    TAXONOMY_MANAGE = "taxonomy.manage"
    MENU_READ = "menu.read"
    MENU_MANAGE = "menu.manage"
    SETTINGS_READ = "settings.read"
    SETTINGS_MANAGE = "settings.manage"
    SEARCH = "search"
    USERS_MANAGE = "users.manage"
    AUDIT_READ = "audit.read"
    TOKENS_MANAGE = "account.tokens"  # the caller's own API tokens
    WEBHOOKS_MANAGE = "webhooks.manage"
    REDIRECTS_READ = "redirects.read"
    REDIRECTS_MANAGE = "redirects.manage"
    BYLINES_READ = "bylines.read"
    BYLINES_MANAGE = "bylines.manage"
    SITE_IMPORT = "site.import"  # a WordPress import (SPEC 12): writes schema, content, media, menus at once


@dataclass(frozen=True)
class Rule:
    scope: Scope
    min_role: Role
    needs: str  # completes "Insufficient permissions: ..."
    public: bool = False  # anonymous visitors may do it (published data only)


RULES: dict[Perm, Rule] = {
    Perm.CONTENT_READ: Rule(Scope.CONTENT_READ, Role.SUBSCRIBER, "reading content requires a subscriber role", True),
    Perm.CONTENT_READ_UNPUBLISHED: Rule(
        Scope.CONTENT_READ, Role.CONTRIBUTOR, "reading unpublished content requires the contributor role"
    ),
    Perm.CONTENT_CREATE: Rule(Scope.CONTENT_WRITE, Role.AUTHOR, "creating content requires the author role"),
    Perm.CONTENT_EDIT_OWN: Rule(Scope.CONTENT_WRITE, Role.AUTHOR, "changing content requires the author role"),
    Perm.CONTENT_EDIT_ANY: Rule(
        Scope.CONTENT_WRITE, Role.EDITOR, "changing content owned by someone else requires the editor role"
    ),
    Perm.CONTENT_DELETE_PERMANENT: Rule(
        Scope.CONTENT_WRITE, Role.ADMIN, "permanently deleting content requires the admin role"
    ),
    Perm.SCHEMA_READ: Rule(Scope.SCHEMA_READ, Role.EDITOR, "reading the schema requires the editor role"),
    Perm.SCHEMA_WRITE: Rule(Scope.SCHEMA_WRITE, Role.ADMIN, "changing the schema requires the admin role"),
    Perm.MEDIA_READ: Rule(Scope.MEDIA_READ, Role.SUBSCRIBER, "reading media requires a subscriber role", True),
    Perm.MEDIA_CREATE: Rule(Scope.MEDIA_WRITE, Role.AUTHOR, "registering media requires the author role"),
    Perm.MEDIA_EDIT_OWN: Rule(Scope.MEDIA_WRITE, Role.AUTHOR, "changing media requires the author role"),
    Perm.MEDIA_EDIT_ANY: Rule(
        Scope.MEDIA_WRITE, Role.EDITOR, "changing media owned by someone else requires the editor role"
    ),
    Perm.TAXONOMY_READ: Rule(
        Scope.CONTENT_READ, Role.SUBSCRIBER, "reading taxonomies requires a subscriber role", True
    ),
    Perm.TAXONOMY_MANAGE: Rule(Scope.TAXONOMIES_MANAGE, Role.EDITOR, "managing taxonomies requires the editor role"),
    Perm.MENU_READ: Rule(Scope.CONTENT_READ, Role.SUBSCRIBER, "reading menus requires a subscriber role", True),
    Perm.MENU_MANAGE: Rule(Scope.MENUS_MANAGE, Role.EDITOR, "managing menus requires the editor role"),
    Perm.SETTINGS_READ: Rule(Scope.SETTINGS_READ, Role.EDITOR, "reading settings requires the editor role"),
    Perm.SETTINGS_MANAGE: Rule(Scope.SETTINGS_MANAGE, Role.ADMIN, "changing settings requires the admin role"),
    Perm.SEARCH: Rule(Scope.CONTENT_READ, Role.SUBSCRIBER, "searching requires a subscriber role", True),
    Perm.USERS_MANAGE: Rule(Scope.ADMIN, Role.ADMIN, "managing users and roles requires the admin role"),
    Perm.AUDIT_READ: Rule(Scope.ADMIN, Role.ADMIN, "reading the audit log requires the admin role"),
    # Any signed-in user manages their own tokens; a token needs `admin`, so a leaked narrow token cannot
    # mint itself a wider one (every door: REST, admin, commands through the service).
    Perm.TOKENS_MANAGE: Rule(
        Scope.ADMIN, Role.SUBSCRIBER, "managing API tokens requires a signed-in user (subscriber or above)"
    ),
    Perm.WEBHOOKS_MANAGE: Rule(Scope.ADMIN, Role.ADMIN, "managing webhooks requires the admin role"),
    # Redirects shape every public URL, so editors (who may change any item's slug) manage them.
    Perm.REDIRECTS_READ: Rule(Scope.CONTENT_READ, Role.EDITOR, "reading redirects requires the editor role"),
    Perm.REDIRECTS_MANAGE: Rule(Scope.CONTENT_WRITE, Role.EDITOR, "managing redirects requires the editor role"),
    # Bylines are credits shown on published content (public reads); editors manage them (SPEC 10).
    Perm.BYLINES_READ: Rule(Scope.CONTENT_READ, Role.SUBSCRIBER, "reading bylines requires a subscriber role", True),
    Perm.BYLINES_MANAGE: Rule(Scope.CONTENT_WRITE, Role.EDITOR, "managing bylines requires the editor role"),
    Perm.SITE_IMPORT: Rule(Scope.ADMIN, Role.ADMIN, "importing a site requires the admin role"),
}


def has_scope(actor: Actor, perm: Perm) -> bool:
    return actor.scopes is None or RULES[perm].scope in actor.scopes


def has_role(actor: Actor, perm: Perm) -> bool:
    rule = RULES[perm]
    if actor.is_anonymous:
        return rule.public
    return actor.role >= rule.min_role


def can(actor: Actor, perm: Perm) -> bool:
    return has_scope(actor, perm) and has_role(actor, perm)


def require(actor: Actor, perm: Perm) -> None:
    """Raise unless the actor passes both the scope check (tokens only) and the role check."""
    rule = RULES[perm]
    if not has_scope(actor, perm):
        raise InsufficientScope(rule.scope.value)
    if not has_role(actor, perm):
        raise InsufficientPermissions(rule.needs)


def require_owner_or(actor: Actor, owner_id: int | None, own: Perm, any_: Perm) -> None:
    """Own items need ``own``; items of others (or of nobody) need ``any_``."""
    require(actor, own)
    if actor.user_id is None or owner_id != actor.user_id:
        require(actor, any_)


# Operations declared with an "own" rule whose services ask for the "any" rule on someone else's item.
OWN_THEN_ANY: dict[Perm, Perm] = {
    Perm.CONTENT_EDIT_OWN: Perm.CONTENT_EDIT_ANY,
    Perm.MEDIA_EDIT_OWN: Perm.MEDIA_EDIT_ANY,
}


def access(perm: Perm) -> str:
    """What a caller needs, as a tool description ends: "Needs content:write (author+; others' items editor+)"."""
    rule = RULES[perm]
    roles = rule.min_role.label + ("" if rule.min_role == max(Role) else "+")
    if perm in OWN_THEN_ANY:
        roles += f"; others' items {RULES[OWN_THEN_ANY[perm]].min_role.label}+"
    return f"Needs {rule.scope.value} ({roles})."


def as_markdown() -> str:
    """The table as Markdown, for docs/content-model.md (a test keeps the doc in step)."""
    lines = ["| operation | token scope | minimum role | anonymous |", "|---|---|---|---|"]
    for perm, rule in RULES.items():
        public = "yes (published only)" if rule.public else "no"
        lines.append(
            f"| `{perm.value}` | `{rule.scope.value}` | {rule.min_role.label} ({int(rule.min_role)}) | {public} |"
        )
    return "\n".join(lines)


def scopes_for_role(role: int) -> frozenset[Scope]:
    """The token scopes a role may hold (OAuth grants are clamped to these).

    A scope is useful to a role when some rule needing that scope is open to the role; ``admin`` (which
    implies every scope) only for admins.
    """
    # `admin` only for admins, although any role may manage its own tokens (a session needs no scope).
    allowed: set[Scope] = {r.scope for r in RULES.values() if role >= r.min_role and r.scope != Scope.ADMIN}
    if role >= Role.ADMIN:
        allowed.add(Scope.ADMIN)
    return frozenset(allowed)
