"""What a grant may contain: requested scopes parsed and clamped to the role, and the audience (resource)."""

from __future__ import annotations

from collections.abc import Iterable

from accounts.oauth.errors import invalid_scope, invalid_target
from emdash import scopes as scope_table
from emdash.permissions import scopes_for_role


def parse_scope(raw: str | None) -> list[str] | None:
    """The ``scope`` parameter as a sorted list; None when omitted (= everything the role allows)."""
    if raw is None or not raw.strip():
        return None
    try:
        parsed = scope_table.parse(raw.split())
    except ValueError as exc:
        raise invalid_scope(str(exc)) from None
    return sorted(s.value for s in parsed)


def clamp(requested: Iterable[str] | None, role: int, selected: Iterable[str] | None = None) -> list[str]:
    """Granted scopes = requested ∩ selected ∩ what the role allows (requested None: all the role allows)."""
    allowed = {s.value for s in scopes_for_role(role)}
    granted = allowed if requested is None else allowed & set(requested)
    if selected is not None:
        granted &= set(selected)
    return sorted(granted)


def check_resource(requested: str | None, expected: str) -> str:
    """The audience to bind: the MCP URL. Omitted means the MCP URL; anything else is ``invalid_target``."""
    if requested is None or requested == "":
        return expected
    if requested.rstrip("/") != expected.rstrip("/"):
        raise invalid_target(f"This server issues tokens only for the resource {expected}")
    return expected


def role_scopes_markdown() -> str:
    """The role → scope table for docs/oauth.md (a test keeps the doc in step)."""
    from emdash.roles import Role

    lines = ["| role | scopes an OAuth grant may hold |", "|---|---|"]
    for role in Role:
        held = [s.value for s in scope_table.Scope if s in scopes_for_role(role)]
        lines.append(f"| {role.label} ({int(role)}) | {', '.join(f'`{s}`' for s in held)} |")
    return "\n".join(lines)
