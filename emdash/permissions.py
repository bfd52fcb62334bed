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
    # SPEC 9.1: what changes the public site (publish, unpublish, schedule, trash, restore, restoring a revision
    # of a live item). Only content:write; whose items is still content.edit_own / content.edit_any.
    CONTENT_GO_LIVE = "content.go_live"
    # SPEC 9.3: take back what one token, OAuth client or user did (changes_revert): editors, content:write.
    CONTENT_REVERT_CHANGES = "content.revert_changes"
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
    MEDIA_USAGE_REPAIR = "media.usage_repair"  # rebuild the media usage index (SPEC 10)
    BYLINES_READ = "bylines.read"
    BYLINES_MANAGE = "bylines.manage"
    SITE_IMPORT = "site.import"  # a WordPress import (SPEC 12): writes schema, content, media, menus at once
    CHANGESET_READ = "changeset.read"  # change sets and their entries' diffs (SPEC 9.2)
    CHANGESET_PROPOSE = "changeset.propose"  # create a set, add/remove items, submit it
    CHANGESET_REVIEW = "changeset.review"  # approve or reject someone else's set (four-eyes)
    CHANGESET_PUBLISH = "changeset.publish"  # publish or revert a set (publish rights on every item too)


@dataclass(frozen=True)
class Rule:
    scope: Scope
    min_role: Role
    needs: str  # completes "Insufficient permissions: ..."
    public: bool = False  # anonymous visitors may do it (published data only)
    also: frozenset[Scope] = frozenset()  # other scopes that pass the scope check too (content:draft on drafts)

    @property
    def scopes(self) -> tuple[Scope, ...]:
        """Every scope that passes, the main one first (it is the one a refusal names)."""
        return (self.scope, *sorted(self.also - {self.scope}, key=list(Scope).index))


DRAFT = frozenset({Scope.CONTENT_DRAFT})


RULES: dict[Perm, Rule] = {
    Perm.CONTENT_READ: Rule(Scope.CONTENT_READ, Role.SUBSCRIBER, "reading content requires a subscriber role", True),
    Perm.CONTENT_READ_UNPUBLISHED: Rule(
        Scope.CONTENT_READ, Role.CONTRIBUTOR, "reading unpublished content requires the contributor role"
    ),
    # A draft-only token (content:draft) creates and edits drafts; the services refuse what would go live.
    Perm.CONTENT_CREATE: Rule(
        Scope.CONTENT_WRITE, Role.AUTHOR, "creating content requires the author role", also=DRAFT
    ),
    Perm.CONTENT_EDIT_OWN: Rule(
        Scope.CONTENT_WRITE, Role.AUTHOR, "changing content requires the author role", also=DRAFT
    ),
    Perm.CONTENT_EDIT_ANY: Rule(
        Scope.CONTENT_WRITE,
        Role.EDITOR,
        "changing content owned by someone else requires the editor role",
        also=DRAFT,
    ),
    Perm.CONTENT_GO_LIVE: Rule(
        Scope.CONTENT_WRITE, Role.AUTHOR, "publishing, scheduling and deleting content requires the author role"
    ),
    Perm.CONTENT_REVERT_CHANGES: Rule(
        Scope.CONTENT_WRITE, Role.EDITOR, "undoing a token's, client's or user's changes requires the editor role"
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
    Perm.MEDIA_USAGE_REPAIR: Rule(Scope.ADMIN, Role.ADMIN, "repairing the media usage index requires the admin role"),
    # Bylines are credits shown on published content (public reads); editors manage them (SPEC 10).
    Perm.BYLINES_READ: Rule(Scope.CONTENT_READ, Role.SUBSCRIBER, "reading bylines requires a subscriber role", True),
    Perm.BYLINES_MANAGE: Rule(Scope.CONTENT_WRITE, Role.EDITOR, "managing bylines requires the editor role"),
    Perm.SITE_IMPORT: Rule(Scope.ADMIN, Role.ADMIN, "importing a site requires the admin role"),
    # SPEC 9.2: proposing is what a draft-only token is for (content:write may too); whoever may propose may see
    # the sets, a reader too.
    Perm.CHANGESET_READ: Rule(
        Scope.CONTENT_READ,
        Role.AUTHOR,
        "reading change sets requires the author role",
        also=frozenset({Scope.CONTENT_DRAFT, Scope.CONTENT_WRITE}),
    ),
    Perm.CHANGESET_PROPOSE: Rule(
        Scope.CONTENT_WRITE, Role.AUTHOR, "proposing changes requires the author role", also=DRAFT
    ),
    Perm.CHANGESET_REVIEW: Rule(
        Scope.CONTENT_WRITE, Role.EDITOR, "approving or rejecting a change set requires the editor role"
    ),
    Perm.CHANGESET_PUBLISH: Rule(
        Scope.CONTENT_WRITE, Role.AUTHOR, "publishing or reverting a change set requires the author role"
    ),
}


def has_scope(actor: Actor, perm: Perm) -> bool:
    if actor.scopes is None:
        return True
    rule = RULES[perm]
    return rule.scope in actor.scopes or not rule.also.isdisjoint(actor.scopes)


def draft_only(actor: Actor) -> bool:
    """A token that writes content only as drafts (content:draft without content:write, SPEC 9.1)."""
    return actor.scopes is not None and Scope.CONTENT_WRITE not in actor.scopes and Scope.CONTENT_DRAFT in actor.scopes


def require_go_live(actor: Actor, what: str) -> None:
    """Refuse a draft-only token a change the public would see (``what``: "publishing", ...), naming
    content:write and the change set it could propose instead; others pass on (their rights are checked
    by the rules as before)."""
    if draft_only(actor):
        raise InsufficientScope(Scope.CONTENT_WRITE.value, reason=go_live_reason(what))


def go_live_reason(what: str) -> str:
    return (
        f"{what} changes what the public sees, which content:draft never does; "
        "propose the change in a change set for an editor to review and publish"
    )


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
        raise scope_refused(actor, perm)
    if not has_role(actor, perm):
        raise InsufficientPermissions(rule.needs)


def require_owner_or(actor: Actor, owner_id: int | None, own: Perm, any_: Perm) -> None:
    """Own items need ``own``; items of others (or of nobody) need ``any_``."""
    require(actor, own)
    if actor.user_id is None or owner_id != actor.user_id:
        require(actor, any_)


def scope_refused(actor: Actor, perm: Perm) -> InsufficientScope:
    """The refusal of a token without ``perm``'s scope; a draft-only token is told about change sets."""
    rule = RULES[perm]
    if rule.scope is Scope.CONTENT_WRITE and draft_only(actor):
        if perm in _OUTSIDE_CHANGE_SETS:  # a change set holds items: pointing there would send the caller nowhere
            what = _OUTSIDE_CHANGE_SETS[perm]
            reason = f"{what} needs content:write; content:draft writes item drafts, and a change set holds items only"
        elif perm is Perm.CHANGESET_REVIEW:
            reason = "approving or rejecting a change set is an editor's review, which content:draft never does"
        else:
            reason = go_live_reason(_GO_LIVE_WORDS.get(perm, "This call"))
        return InsufficientScope(rule.scope.value, reason=reason)
    return InsufficientScope(rule.scope.value)


_OUTSIDE_CHANGE_SETS = {Perm.BYLINES_MANAGE: "managing bylines", Perm.REDIRECTS_MANAGE: "managing redirects"}


_GO_LIVE_WORDS = {
    Perm.CONTENT_GO_LIVE: "Publishing, unpublishing, scheduling, trashing or restoring an item",
    Perm.CONTENT_DELETE_PERMANENT: "Deleting an item permanently",
    Perm.CONTENT_REVERT_CHANGES: "Undoing changes",
}


# Operations declared with an "own" rule whose services ask for the "any" rule on someone else's item.
OWN_THEN_ANY: dict[Perm, Perm] = {
    Perm.CONTENT_EDIT_OWN: Perm.CONTENT_EDIT_ANY,
    Perm.CONTENT_GO_LIVE: Perm.CONTENT_EDIT_ANY,
    Perm.MEDIA_EDIT_OWN: Perm.MEDIA_EDIT_ANY,
}


def access(perm: Perm) -> str:
    """What a caller needs, as a tool description ends: "Needs content:write (author+; others' items editor+)"."""
    rule = RULES[perm]
    roles = rule.min_role.label + ("" if rule.min_role == max(Role) else "+")
    if perm in OWN_THEN_ANY:
        roles += f"; others' items {RULES[OWN_THEN_ANY[perm]].min_role.label}+"
    return f"Needs {' or '.join(s.value for s in rule.scopes)} ({roles})."


def as_markdown() -> str:
    """The table as Markdown, for docs/content-model.md (a test keeps the doc in step)."""
    lines = ["| operation | token scope | minimum role | anonymous |", "|---|---|---|---|"]
    for perm, rule in RULES.items():
        public = "yes (published only)" if rule.public else "no"
        scopes = " or ".join(f"`{s.value}`" for s in rule.scopes)
        lines.append(f"| `{perm.value}` | {scopes} | {rule.min_role.label} ({int(rule.min_role)}) | {public} |")
    return "\n".join(lines)


def scopes_for_role(role: int) -> frozenset[Scope]:
    """The token scopes a role may hold (OAuth grants are clamped to these).

    A scope is useful to a role when some rule needing that scope is open to the role; ``admin`` (which
    implies every scope) only for admins.
    """
    # `admin` only for admins, although any role may manage its own tokens (a session needs no scope).
    allowed: set[Scope] = {s for r in RULES.values() if role >= r.min_role for s in r.scopes if s != Scope.ADMIN}
    if role >= Role.ADMIN:
        allowed.add(Scope.ADMIN)
    return frozenset(allowed)
